"""The macro layer's compiled core (``agents.shots.kernels``): recorded values, batched = one row at a time, bad input.

``data/macro_regression.npz`` was recorded with the pure-Python macro layer of commit 0e2d5c3 (the last one before
the kernels): observations met in play with random macro actions (normal play, ball in hand, breaks, push-outs
allowed), random macro actions, and what ``MacroPlanner`` made of them in three set-ups (no leave features; leave
features; the shipped agent's style), its ``rerank`` with 6 samples, and, on random layouts, the ``pot_options``
rows and a two-iteration ``corrected_phi``. The kernels reproduce every number bit for bit. ``corrected_phi``
simulates shots: its values (``lay_phi``) were re-recorded when the physics kernels' math.hypot became math.sqrt
(issue 25; 6 of the 31 aims moved by 1–3 ulp).
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)
from agents.learned import macro_kernels
from agents.learned.macro import MACRO_DIM, N_POTS, MacroActionWrapper, MacroPlanner, MacroStyle
from agents.learned.macro_vector import MacroActionVectorWrapper
from agents.protocol import TableView
from agents.shots import kernels as K
from agents.shots.aim import corrected_phi, corrected_phis
from agents.shots.leaves import shot_row, shot_value, shot_values
from agents.shots.pots import best_ease, pot_options, pot_rows
from physics import Shot, place_balls

_SIGNALLING_NAN = np.array([0x7FF0000000000001], dtype=np.uint64).view(np.float64)[0]
DATA = np.load(Path(__file__).parent / "data" / "macro_regression.npz")
SET_UPS = {"plain": (False, MacroStyle()), "leaves": (True, MacroStyle()),
           "shipped": (True, MacroStyle(placement="leave", safety="search"))}


def _option_rows(k: int) -> np.ndarray:
    ops = pot_options(DATA["lay_pos"][k, 0], DATA["lay_pos"][k], DATA["lay_on"][k], int(DATA["lay_low"][k]),
                      sigma_phi=0.125)
    rows = np.full((K.MAX_OPTIONS, K.OPT_W), np.nan)
    if ops:
        rows[:len(ops)] = [(o.target, o.ball, o.pocket, o.phi, o.cut, o.d_cue, o.d_obj, o.ease, o.direction)
                           for o in ops]
    return rows


def test_pot_options_and_aims_reproduce_the_recorded_values():
    for k in range(len(DATA["lay_low"])):
        rows = _option_rows(k)
        np.testing.assert_array_equal(rows, DATA["lay_pots"][k])
        if np.isnan(rows[0, 0]):
            assert np.isnan(DATA["lay_phi"][k])
            continue
        pos, on = DATA["lay_pos"][k], DATA["lay_on"][k]
        state = place_balls({b: tuple(pos[b]) for b in range(10) if on[b]})
        phi = corrected_phi(state, pos[0], int(rows[0, K.O_TARGET]), rows[0, K.O_DIRECTION],
                            Shot(V0=2.0, phi=rows[0, K.O_PHI], a=0.1, b=-0.2), iterations=2)
        assert phi == DATA["lay_phi"][k]


@pytest.mark.parametrize("name", list(SET_UPS))
def test_planner_reproduces_the_recorded_features_and_actions(name):
    leaves, style = SET_UPS[name]
    for k in range(len(DATA["obs"])):
        planner = MacroPlanner(leaves=leaves, style=style)
        np.testing.assert_array_equal(planner.features(DATA["obs"][k]), DATA[f"feat_{name}"][k])
        np.testing.assert_array_equal(planner.action(DATA["obs"][k], DATA["macros"][k]), DATA[f"act_{name}"][k])


def test_rerank_reproduces_the_recorded_choices():
    leaves, style = SET_UPS["shipped"]
    for k in range(len(DATA["obs"])):
        planner = MacroPlanner(leaves=leaves, style=style)
        np.testing.assert_array_equal(planner.rerank(DATA["obs"][k], DATA["macros"][k], 6), DATA["rerank"][k])


@pytest.mark.parametrize("name", list(SET_UPS))
def test_batched_planner_equals_one_table_at_a_time(name):
    leaves, style = SET_UPS[name]
    obs, macros = DATA["obs"], DATA["macros"]
    batch = MacroPlanner(leaves=leaves, style=style, cache_size=2 * len(obs))
    features = batch.features_batch(obs)
    acts, slots = batch.actions_batch(obs, macros)
    for k in range(len(obs)):
        alone = MacroPlanner(leaves=leaves, style=style)
        np.testing.assert_array_equal(features[k], alone.features(obs[k]))
        np.testing.assert_array_equal(acts[k], alone.action(obs[k], macros[k]))
        assert slots[k] == (-1 if alone.last_slot is None else alone.last_slot)
    # a batch with repeated and shuffled rows: each row still gets its own answer
    order = np.r_[np.arange(len(obs))[::-1], 0, 0]
    np.testing.assert_array_equal(batch.features_batch(obs[order]), features[order])



def test_empty_pot_slots_are_zero_and_never_read():
    """Tables with fewer pots than slots: the empty slots' features are all 0, and the pot slots take nothing from the
    option rows ``pot_options_batch`` leaves unset behind its count (filled with a signalling NaN here: what stale
    memory may hold)."""
    obs = DATA["obs"]
    planner = MacroPlanner(cache_size=2 * len(obs))
    features = planner.features_batch(obs)
    slots = features[:, obs.shape[1]:obs.shape[1] + 4 * 6].reshape(len(obs), 4, 6)
    empty = slots[:, :3, 0] == 0.0
    assert empty.any() and (~empty).any()
    assert not slots[:, :3][empty].any()
    pos = np.require(DATA["lay_pos"], np.float64, "CW")
    on, low = np.require(DATA["lay_on"], np.bool_, "CW"), np.require(DATA["lay_low"], np.int64, "CW")
    N = len(low)
    options = np.full((N, K.MAX_OPTIONS, K.OPT_W), _SIGNALLING_NAN)
    rows, counts = np.full((N, N_POTS, K.OPT_W), np.nan), np.empty(N, dtype=np.int64)
    _, _, aims, axes, m, geometry, combos, max_cut = planner._fixed
    macro_kernels.pot_slots(pos[:, 0].copy(), pos, on, low, aims, axes, m, geometry, combos, max_cut, options, rows,
                            counts)
    want, n = pot_rows(pos[:, 0], pos, on, low, sigma_phi=planner._sigma)
    np.testing.assert_array_equal(counts, np.minimum(n, N_POTS))
    assert (counts < N_POTS).any()
    for k in range(N):
        np.testing.assert_array_equal(rows[k, :counts[k]], want[k, :counts[k]])
        assert not rows[k, counts[k]:].any()


def test_batched_geometry_equals_one_row_at_a_time():
    n = len(DATA["lay_low"])
    pos, on, low = DATA["lay_pos"], DATA["lay_on"], DATA["lay_low"]
    rows, counts = pot_rows(pos[:, 0], pos, on, low)
    for k in range(n):
        np.testing.assert_array_equal(rows[k, :counts[k]], _option_rows(k)[:counts[k]])
        direct = pot_options(pos[k, 0], pos[k], on[k], int(low[k]), combos=False)
        assert best_ease(pos[k, 0], pos[k], on[k], int(low[k])) == (direct[0].ease if direct else 0.0)
    have = np.flatnonzero(counts > 0)
    first = rows[have, 0]
    shots = np.column_stack([np.full(len(have), 1.5), first[:, K.O_PHI], np.zeros(len(have)),
                             np.zeros(len(have)), np.full(len(have), 0.2)])
    target = first[:, K.O_TARGET].astype(int)
    phis = corrected_phis(pos[have, 0], pos[have, target], target, first[:, K.O_DIRECTION], shots)
    for i, k in enumerate(have.tolist()):
        state = place_balls({b: tuple(pos[k, b]) for b in range(10) if on[k, b]})
        assert phis[i] == corrected_phi(state, pos[k, 0], int(target[i]), first[i, K.O_DIRECTION], Shot(*shots[i]))


def test_shot_values_batched_equal_one_shot_at_a_time():
    views, states = [], []
    for k in range(len(DATA["obs"])):
        planner = MacroPlanner()
        view, spot, _ = planner.slots(DATA["obs"][k])
        if view is None:
            continue
        state = view.balls.copy()
        cue = spot if spot is not None else view.balls.pos[0]
        state.place(0, float(cue[0]), float(cue[1]))
        views.append(view)
        states.append(state)
    rng = np.random.default_rng(2)
    which = rng.integers(len(views), size=60)
    shots = [Shot(V0=float(rng.uniform(0.5, 6.0)), phi=float(rng.uniform(0, 360)), a=float(rng.uniform(-0.3, 0.3)),
                  b=float(rng.uniform(-0.4, 0.4))) for _ in which]
    values = shot_values(views, states, which, np.array([shot_row(s) for s in shots]))
    for i, k in enumerate(which.tolist()):
        assert values[i] == shot_value(views[k], states[k], shots[i])
    assert 0.0 in values and (values > 0.5).any() and ((values > 0.0) & (values < 0.5)).any()


def test_bad_input_is_rejected_with_a_clear_error():
    pos, on = DATA["lay_pos"][:2], DATA["lay_on"][:2]
    with pytest.raises(ValueError, match="pos"):
        pot_rows(pos[:, 0], pos[:, :5], on, [1, 1])
    with pytest.raises(ValueError, match="lowest"):
        pot_rows(pos[:, 0], pos, on, [0, 1])
    with pytest.raises(ValueError, match="on"):
        pot_rows(pos[:, 0], pos, on[:, :4], [1, 1])
    bad = pos.copy()
    bad[0, 3, 0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        pot_rows(pos[:, 0], bad, on, [1, 1])
    with pytest.raises(ValueError, match="target"):
        corrected_phis(pos[:1, 0], pos[:1, 1], [0], [0.0], np.array([[1.0, 0.0, 0.0, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="V0"):
        corrected_phis(pos[:1, 0], pos[:1, 1], [1], [0.0], np.array([[-1.0, 0.0, 0.0, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="rows"):
        corrected_phis(pos[:, 0], pos[:1, 1], [1], [0.0], np.array([[1.0, 0.0, 0.0, 0.0, 0.0]]))
    view = TableView.from_observation(DATA["obs"][0])
    with pytest.raises(ValueError, match="which"):
        shot_values([view], [view.balls], np.array([1]), np.array([[1.0, 0.0, 0.0, 0.0, 0.0]]))
    with pytest.raises(ValueError, match="one state index per shot"):
        shot_values([view], [view.balls], np.array([0, 0]), np.array([[1.0, 0.0, 0.0, 0.0, 0.0]]))
    planner = MacroPlanner()
    with pytest.raises(ValueError, match="obs"):
        planner.features_batch(DATA["obs"][:2, :50])
    with pytest.raises(ValueError, match="macro"):
        planner.actions_batch(DATA["obs"][:2], np.zeros((3, MACRO_DIM)))
    with pytest.raises(ValueError, match="finite"):
        planner.action(DATA["obs"][0], np.full(MACRO_DIM, np.nan))
    with pytest.raises(ValueError, match="cache_size"):
        MacroPlanner(cache_size=0)


def test_vector_wrapper_with_the_shipped_style_decodes_as_single_wrappers():
    B, seed = 2, 5
    style = SET_UPS["shipped"][1]
    venv = MacroActionVectorWrapper(gym.make_vec("NineBall-v0", num_envs=B, noise="icga"), leaves=True, style=style)
    singles = [MacroActionWrapper(gym.make("NineBall-v0", noise="icga"), leaves=True, style=style) for _ in range(B)]
    obs, _ = venv.reset(seed=seed)
    for k, env in enumerate(singles):
        np.testing.assert_array_equal(obs[k], env.reset(seed=seed + k)[0])
    rng = np.random.default_rng(1)
    live = set(range(B))
    for _ in range(8):
        macro = rng.uniform(-1, 1, (B, MACRO_DIM)).astype(np.float32)
        obs, _, term, trunc, info = venv.step(macro)
        for k in list(live):
            o, _, t, tr, single_info = singles[k].step(macro[k])
            np.testing.assert_array_equal(obs[k], o)
            assert info["macro_slot"][k] == single_info["macro_slot"]
            if t or tr:
                live.discard(k)
        if not live:
            break
