"""The observation: layout, finite bounds, and the point of view (own fields first)."""

from __future__ import annotations

import numpy as np
import pytest
from envkit import L, W, position

from nineball_env import observation
from nineball_env.env import NineBallEnv
from nineball_env.observation import LAYOUT, OBS_SIZE
from nineball_env.rules import BallInHand, Match, Phase, RackState


def test_layout_covers_the_vector_once():
    covered = sorted(i for s in LAYOUT.values() for i in range(OBS_SIZE)[s])
    assert covered == list(range(OBS_SIZE))
    space = observation.observation_space()
    assert space.shape == (OBS_SIZE,) and space.dtype == np.float32
    assert np.all(np.isfinite(space.low)) and np.all(np.isfinite(space.high))


def test_encode_and_decode_a_position():
    pos = np.zeros((10, 2))
    pos[0], pos[3], pos[9] = (0.5, 1.0), (0.2, 2.0), (0.635, 1.905)
    on = np.zeros(10, dtype=bool)
    on[[0, 3, 9]] = True
    rack = RackState(1, 0, frozenset({3, 9}), Phase.NORMAL, BallInHand.ANYWHERE, (2, 1))
    match = Match(race_to=3, breaker=1, racks_won=(1, 2))
    obs = observation.encode(pos, on, rack, match, 0, W, L)
    assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
    assert observation.observation_space().contains(obs)
    d = observation.decode(obs)
    np.testing.assert_allclose(d["pos"][[0, 3, 9]], pos[[0, 3, 9]], atol=1e-6)
    assert d["pos"][1].tolist() == [0.0, 0.0]
    assert d["on_table"].tolist() == on.tolist()
    assert (d["lowest"], d["phase"], d["in_hand"]) == (3, "normal", "anywhere")
    assert d["fouls"] == (2, 1) and d["warning"] == (True, False)
    assert d["score"] == pytest.approx((1 / 3, 2 / 3))
    assert d["to_move"] and not d["breaker"]
    other = observation.decode(observation.encode(pos, on, rack, match, 1, W, L))
    assert other["fouls"] == (1, 2) and other["warning"] == (False, True)
    assert other["score"] == pytest.approx((2 / 3, 1 / 3))
    assert not other["to_move"] and other["breaker"]


def test_rack_over_has_no_phase_and_no_lowest():
    rack = RackState(0, None, frozenset({5}), Phase.RACK_OVER, BallInHand.NONE, (0, 0), 0, "R-WIN-9")
    d = observation.decode(observation.encode(np.zeros((10, 2)), np.zeros(10, bool), rack, Match(race_to=1), 0, W, L))
    assert d["phase"] == "rack-over" and d["lowest"] is None and not d["to_move"]


def test_env_observation_shows_ball_in_hand_and_warning():
    env = NineBallEnv(first_breaker="learner")
    obs, _ = env.reset(seed=0)
    d = observation.decode(obs)
    assert d["phase"] == "break" and d["in_hand"] == "kitchen" and not d["on_table"][0] and d["breaker"]
    position(env, {1: (0.3, 1.5), 9: (0.9, 2.0)}, bih="anywhere", counts=(2, 0))
    d = observation.decode(env._game.observe(0))
    assert d["in_hand"] == "anywhere" and d["warning"] == (True, False) and d["lowest"] == 1
