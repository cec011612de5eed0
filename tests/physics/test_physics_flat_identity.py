"""Flat shots (no ball leaves the cloth) give bit-identical results to the flat-only simulator (3843136)."""

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
        assert not np.any(r.events.rows[:, LOG_COLS:]), "a flat shot logs no height or vertical velocity"
