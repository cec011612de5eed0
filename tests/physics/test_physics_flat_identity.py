"""Flat shots (no ball leaves the cloth) give bit-identical results to the flat-only simulator (main 843c733)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import physics

sys.path.insert(0, str(Path(__file__).parent / "data"))
from make_flat_reference import LOG_COLS, reference_shots  # noqa: E402

REFERENCE = Path(__file__).parent / "data" / "flat_reference.npz"


def test_flat_shots_are_bit_identical_to_the_flat_simulator() -> None:
    ref = np.load(REFERENCE)
    offsets = np.concatenate([[0], np.cumsum(ref["counts"])])
    for k, (state, shot) in enumerate(reference_shots()):
        r = physics.simulate(state, shot)
        assert len(r.events) == ref["counts"][k], k
        np.testing.assert_array_equal(r.state.packed(), ref["finals"][k], err_msg=f"shot {k}")
        np.testing.assert_array_equal(r.events.rows[:, :LOG_COLS], ref["logs"][offsets[k]:offsets[k + 1]],
                                      err_msg=f"shot {k}")
        assert r.events.rows.shape[1] == LOG_COLS
        assert r.events.air is None, "a flat shot takes the flat loop: no air columns"


def test_the_airborne_loop_runs_flat_shots_as_the_flat_loop() -> None:
    """The airborne loop's steps for balls on the cloth are the flat loop's (one model, two loops): the flat
    reference shots, forced through the airborne loop, give the same log and final state bit for bit."""
    from physics.api import params_array
    from physics.kernels.air_loop import simulate_air_kernel
    from physics.kernels.entry import LOG_W

    table, p = physics.DEFAULT_TABLE, params_array(physics.DEFAULT_PARAMS)
    ref = np.load(REFERENCE)
    offsets = np.concatenate([[0], np.cumsum(ref["counts"])])
    for k, (state, shot) in enumerate(reference_shots()[::5]):
        k *= 5
        pos, vel, spin = state.pos.copy(), state.vel.copy(), state.spin.copy()
        motion, pocket = state.motion.copy(), state.pocket.copy()
        log = np.zeros((512, LOG_W))
        air = np.zeros((512, 4))
        count, flags = simulate_air_kernel(
            pos, vel, spin, motion, pocket, physics.api.shot_array(shot), table.segments, table.jaws, table.pockets,
            table.spec.width, table.spec.length, table.rail, p, 4000, 120.0, log[:, 0], log[:, 1], log[:, 2], log[:, 3],
            log[:, 4], log[:, 5:13], log[:, 13:21], air)
        assert count == ref["counts"][k], k
        final = physics.BallState(pos, vel, spin, motion, pocket).packed()
        np.testing.assert_array_equal(final, ref["finals"][k], err_msg=f"shot {k}")
        np.testing.assert_array_equal(log[:count], ref["logs"][offsets[k]:offsets[k + 1]], err_msg=f"shot {k}")
        assert not np.any(air), "no ball left the cloth"
