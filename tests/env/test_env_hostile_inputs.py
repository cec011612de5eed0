"""Hostile inputs to the envs and the rules (issue 10): clear errors naming the argument, nothing changed;
observations always inside their declared Box."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball_env import actions, observation
from nineball_env.env import NineBallEnv
from nineball_env.kernels.observe import encode_rows
from nineball_env.rules import InvalidEventLog, Match, RackState, ShotEvent
from nineball_env.vector import NineBallVectorEnv
from physics import DEFAULT_PARAMS, DEFAULT_TABLE

W, L, R = DEFAULT_TABLE.width, DEFAULT_TABLE.length, DEFAULT_PARAMS.R

NOT_NUMBERS = [
    pytest.param(["0.5"] * 9, id="strings"),
    pytest.param("0.5,0,0,0,0,0,0,0,0", id="text"),
    pytest.param(np.array(["0"] * 9), id="str-array"),
    pytest.param(np.ones(9, dtype=bool), id="bool-array"),
    pytest.param([True] + [0.0] * 8, id="bool-in-list"),
    pytest.param(np.zeros(9, dtype=np.complex128), id="complex-array"),
    pytest.param([0.1j] + [0.0] * 8, id="complex-in-list"),
    pytest.param(np.array([None] * 9), id="object-array"),
]


@pytest.mark.parametrize("bad", NOT_NUMBERS)
def test_check_action_rejects_what_is_not_real_numbers(bad):
    with pytest.raises(TypeError, match="action"):
        actions.check_action(bad)


@pytest.mark.parametrize("bad", NOT_NUMBERS)
def test_env_step_rejects_them_and_changes_nothing(bad):
    env = NineBallEnv(noise="icga")
    obs, _ = env.reset(seed=2)
    before = env.get_state()
    with pytest.raises(TypeError, match="action"):
        env.step(bad)
    after = env.get_state()
    assert after.balls == before.balls and after.rack == before.rack and after.rng_state == before.rng_state
    np.testing.assert_array_equal(env._game.observe(0), obs)


@pytest.mark.parametrize("bad", [
    pytest.param(np.ones((2, 9), dtype=bool), id="bool"),
    pytest.param(np.zeros((2, 9), dtype=np.complex64), id="complex"),
    pytest.param([["0"] * 9] * 2, id="strings"),
    pytest.param("x", id="text"),
])
def test_vector_env_rejects_them_and_changes_nothing(bad):
    venv = NineBallVectorEnv(2)
    venv.reset(seed=5)
    before = venv.tables.snapshot()
    with pytest.raises(TypeError, match="actions"):
        venv.step(bad)
    after = venv.tables.snapshot()
    assert all(np.array_equal(a, b) for a, b in zip(after[:4], before[:4])) and after[4] == before[4]


def test_aec_step_rejects_them():
    from nineball_env.aec import NineBallAEC  # pettingzoo: the test extra

    aec = NineBallAEC()
    aec.reset(seed=1)
    agent, before = aec.agent_selection, aec.get_state()
    with pytest.raises(TypeError, match="action"):
        aec.step(np.ones(9, dtype=bool))
    assert aec.agent_selection == agent and aec.get_state().rack == before.rack


@pytest.mark.parametrize("kwargs, field", [
    ({"target": math.inf}, "target"),
    ({"target": math.nan}, "target"),
    ({"target": 2.5}, "target"),
    ({"target": "3"}, "target"),
    ({"kind": 2.5}, "kind"),
    ({"kind": math.inf}, "kind"),
    ({"kind": True}, "kind"),
    ({"kind": "2"}, "kind"),
    ({"time": True}, "time"),
    ({"time": "0.1"}, "time"),
])
def test_shot_event_names_the_bad_field(kwargs, field):
    args = {"time": 0.1, "kind": 2, "ball_a": 0, "target": 1, **kwargs}
    with pytest.raises(InvalidEventLog, match=field):
        ShotEvent(**args)


def test_shot_event_accepts_integral_floats():
    assert ShotEvent(0.1, 2.0, 0, target=np.float64(3.0)) == ShotEvent(0.1, 2, 0, target=3)


def _random_layouts(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Ball centres over the table and its pocket mouths (up to a pocket radius beyond the rail lines, where
    a pocketed-looking ball can rest), crowded against the edges, and random on-table masks."""
    reach = float(DEFAULT_TABLE.pockets[:, 2].max())
    pos = np.empty((n, 10, 2))
    pos[..., 0] = rng.uniform(-reach, W + reach, (n, 10))
    pos[..., 1] = rng.uniform(-reach, L + reach, (n, 10))
    edge = rng.random((n, 10)) < 0.3  # a third pressed onto an edge or a corner
    pos[..., 0] = np.where(edge, rng.choice([-reach, 0.0, W, W + reach], (n, 10)), pos[..., 0])
    pos[..., 1] = np.where(edge & (rng.random((n, 10)) < 0.5), rng.choice([-reach, 0.0, L, L + reach], (n, 10)),
                           pos[..., 1])
    return pos, rng.random((n, 10)) < 0.8


def test_observations_stay_in_the_box_for_any_layout():
    space = observation.observation_space()
    rng = np.random.default_rng(0)
    pos, on = _random_layouts(rng, 2000)
    rack, match = RackState(), Match(race_to=3, racks_won=(2, 1))
    for k in range(len(pos)):
        assert space.contains(observation.encode(pos[k], on[k], rack, match, k % 2, W, L)), pos[k][on[k]]


def test_batch_observations_stay_in_the_box_and_equal_the_single_ones():
    space = observation.observation_space()
    rng = np.random.default_rng(1)
    n = 2000
    pos, on = _random_layouts(rng, n)
    balls = np.zeros((n, 10, 9))
    balls[..., 0:2] = pos
    balls[..., 7] = np.where(on, 0.0, 4.0)  # stationary / pocketed
    racks = np.zeros((n, 9), dtype=np.int64)
    racks[:, 3] = sum(1 << b for b in range(1, 10))
    racks[:, 2] = 1  # the break: ball in hand in the kitchen
    out = np.empty((n, observation.OBS_SIZE))
    encode_rows(balls, racks, np.zeros((n, 2), dtype=np.int64), np.arange(n), 0, 1, 1.0 / W, 1.0 / L, out)
    obs = out.astype(np.float32)
    assert all(space.contains(o) for o in obs)
    rack, match = RackState(), Match(race_to=1)
    for k in range(0, n, 97):
        np.testing.assert_array_equal(obs[k], observation.encode(pos[k], on[k], rack, match, 0, W, L))


def test_observations_stay_in_the_box_along_random_play():
    """Random play (balls driven into pocket mouths and jaws) never leaves the Box, for either player."""
    env = NineBallEnv(noise="icga")
    space = env.observation_space
    rng = np.random.default_rng(4)
    obs, _ = env.reset(seed=4)
    for _ in range(300):
        assert space.contains(obs) and space.contains(env._game.observe(1))
        obs, _, term, trunc, _ = env.step(rng.uniform(-1, 1, 9).astype(np.float32))
        if term or trunc:
            obs, _ = env.reset()
