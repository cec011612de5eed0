"""Flat shots (no ball leaves the cloth) give bit-identical results to the flat-only simulator (main 843c733, with
issue 25's math.hypot → math.sqrt substitution: tests/physics/data/make_flat_reference.py).

A shot whose ball–ball contact lifts a ball off the cloth (the follow-shot hop, most power breaks) is the flat
simulator's bit for bit up to that contact: from there on the loop moves balls in the air too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import physics
from physics.kernels.codes import EV_AIRBORNE, EV_BALL_BALL, LOG_STATE_A, LOG_STATE_B, S_MOTION

sys.path.insert(0, str(Path(__file__).parent / "data"))
from make_flat_reference import LOG_COLS, reference_shots  # noqa: E402

REFERENCE = Path(__file__).parent / "data" / "flat_reference.npz"
MOTION_COLS = [LOG_STATE_A + S_MOTION, LOG_STATE_B + S_MOTION]  # a ball that hops is AIRBORNE after the contact


def _hop_row(r: physics.SimResult) -> int:
    """Index of the first BALL_AIRBORNE event of a shot that hopped."""
    return int(np.flatnonzero(r.events.kind == EV_AIRBORNE)[0])


def test_flat_shots_are_bit_identical_to_the_flat_simulator() -> None:
    ref = np.load(REFERENCE)
    offsets = np.concatenate([[0], np.cumsum(ref["counts"])])
    g, h_min = physics.DEFAULT_PARAMS.g, physics.DEFAULT_PARAMS.min_bounce_height
    hopped = 0
    for k, (state, shot) in enumerate(reference_shots()):
        r = physics.simulate(state, shot)
        ref_log = ref["logs"][offsets[k]:offsets[k + 1]]
        assert r.events.rows.shape[1] == LOG_COLS
        if r.events.air is None:  # no ball left the cloth: the flat simulator's shot, bit for bit
            assert len(r.events) == ref["counts"][k], k
            np.testing.assert_array_equal(r.state.packed(), ref["finals"][k], err_msg=f"shot {k}")
            np.testing.assert_array_equal(r.events.rows, ref_log, err_msg=f"shot {k}")
            continue
        hopped += 1
        h = _hop_row(r)
        contact = h - 1
        # it hopped at a ball–ball contact, really: a rise of at least min_bounce_height, the lifted ball one of its two
        assert r.events.kind[contact] == EV_BALL_BALL, k
        assert r.events.ball_a[h] in (r.events.ball_a[contact], r.events.ball_b[contact]), k
        vz = r.events.air[h, 1]
        assert vz * vz / (2 * g) >= h_min, k
        assert r.events.air[h, 0] == 0.0  # it leaves from the cloth
        # everything before the contact is the flat simulator's, bit for bit, and the contact too (but the motion)
        np.testing.assert_array_equal(r.events.rows[:contact], ref_log[:contact], err_msg=f"shot {k}")
        cols = [c for c in range(LOG_COLS) if c not in MOTION_COLS]
        np.testing.assert_array_equal(r.events.rows[contact, cols], ref_log[contact, cols], err_msg=f"shot {k}")
        assert not np.any(r.events.air[:contact]), "on the cloth until the contact"
    # the reference's ordinary shots (0.8–3 m/s) never hop; most of its 7–9 m/s breaks do (measured: 47 of 60)
    assert 0 < hopped < 60
