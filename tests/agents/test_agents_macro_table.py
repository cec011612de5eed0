"""The macro planner's slot table (``agents.learned.macro_kernels``): rows reused first in, first out with their
readable records rebuilt, bad observations and macro actions refused before anything is stored, infinite macro
components clipped, and the cache files of the kernels it compiles in watched."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import agents.learned.macro_kernels as MK
from agents.learned.macro import MACRO_DIM, MacroPlanner
from agents.shots import KERNEL_SOURCES

DECISIONS = np.load(Path(__file__).parent / "data" / "ghost_decisions.npz")


def _observations() -> np.ndarray:
    return np.ascontiguousarray(DECISIONS["obs"], dtype=np.float32)


def test_a_reused_row_rebuilds_its_readable_record():
    obs = _observations()
    planner = MacroPlanner(cache_size=1)  # two rows: each new observation evicts the oldest
    fresh = [MacroPlanner().slots(obs[k]) for k in range(6)]
    for k in (0, 1, 2, 0, 3, 0, 4, 5, 1):
        view, spot, pots = planner.slots(obs[k])
        want_view, want_spot, want_pots = fresh[k]
        assert (view is None) == (want_view is None), k
        if view is not None:
            np.testing.assert_array_equal(view.balls.pos, want_view.balls.pos)
            assert view.rack == want_view.rack
        assert (spot is None) == (want_spot is None) and (spot is None or np.array_equal(spot, want_spot)), k
        assert pots == want_pots, k


def test_observations_that_are_not_finite_are_refused_and_nothing_is_stored():
    obs = _observations()[:6].copy()
    planner = MacroPlanner(cache_size=8)
    want = MacroPlanner(cache_size=8).features_batch(obs)
    bad = obs.copy()
    bad[3, 2] = np.inf
    with pytest.raises(ValueError, match="obs: expected finite numbers"):
        planner.features_batch(bad)
    assert not planner._table.stage.any()  # no row filled
    np.testing.assert_array_equal(planner.features_batch(obs), want)


def test_macro_components_infinite_are_clipped_and_not_a_number_refused():
    obs = _observations()[:8]
    planner = MacroPlanner(cache_size=8)
    u = np.random.default_rng(4).uniform(-1.0, 1.0, (len(obs), MACRO_DIM))
    huge = u.copy()
    huge[:, 2] = np.where(u[:, 2] > 0, np.inf, -np.inf)
    clipped = u.copy()
    clipped[:, 2] = np.sign(u[:, 2])
    got, slots = planner.actions_batch(obs, huge)
    want, want_slots = planner.actions_batch(obs, clipped)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(slots, want_slots)
    u[5, 1] = np.nan
    with pytest.raises(ValueError, match="macro: expected finite numbers"):
        planner.actions_batch(obs, u)


def test_the_kernels_cache_is_dropped_when_a_kernel_they_compile_in_changes():
    # numba checks a cached kernel against its own file only: the macro kernels compile in the shot kernels, the
    # protocol's layouts and (through them) the physics and the env's kernels, so all their files are watched
    watched = set(MK.WATCHED)
    shots = Path(MK.SK.__file__).resolve().parent
    assert {p.resolve() for p in shots.glob("*.py")} <= watched
    assert Path(MK.PK.__file__).resolve() in watched
    assert set(KERNEL_SOURCES) <= watched
