"""Input checks for layouts: every problem raises ValueError naming the field, before simulation."""

from __future__ import annotations

import math

import numpy as np

from physics.kernels.layout import (BAD_MOTION, BAD_POCKET, IN_POCKET, MAX_BALL_SPEED, MAX_SURFACE_SPEED, NOT_FINITE, OK,
                                    OUTSIDE, OVERLAP, TOO_FAST, check_layout)
from physics.params import PhysicsParams
from physics.state import BallState
from physics.table import Table

OVERLAP_TOL = 1e-9  # [m] balls may touch (racks) but not overlap by more than this


def _check_array(name: str, arr: object, shape: tuple[int, ...], kinds: str) -> None:
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{name}: expected a numpy array of shape {shape}, got {type(arr).__name__}")
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if arr.dtype.kind not in kinds:
        raise ValueError(f"{name}: expected dtype kind in {kinds!r}, got {arr.dtype}")


def validate_state(state: BallState, table: Table, params: PhysicsParams) -> None:
    """Raise ValueError unless ``state`` is a legal layout on ``table`` (shapes, finite, no overlap, on the cloth)."""
    if not isinstance(state, BallState):
        raise ValueError(f"state: expected a physics.BallState, got {type(state).__name__}")
    pos = state.pos
    if not isinstance(pos, np.ndarray) or pos.ndim != 2 or pos.shape[0] < 1:
        raise ValueError(f"state.pos: expected an array of shape (n_balls, 2), got {getattr(pos, 'shape', pos)!r}")
    n = pos.shape[0]
    _check_array("state.pos", state.pos, (n, 2), "fi")
    _check_array("state.vel", state.vel, (n, 2), "fi")
    _check_array("state.spin", state.spin, (n, 3), "fi")
    _check_array("state.motion", state.motion, (n,), "iu")
    _check_array("state.pocket", state.pocket, (n,), "iu")
    R = params.R
    bad = np.flatnonzero((state.pocket < -1) | (state.pocket >= table.pockets.shape[0]))
    if bad.size:
        raise_layout_error(BAD_POCKET, int(bad[0]), -1, state, table, R)
    code, i, j = check_layout(
        np.ascontiguousarray(state.pos, dtype=np.float64), np.ascontiguousarray(state.vel, dtype=np.float64),
        np.ascontiguousarray(state.spin, dtype=np.float64), np.ascontiguousarray(state.motion, dtype=np.int64),
        table.width, table.length, table.segments, table.jaws, table.pockets, R, OVERLAP_TOL,
    )
    raise_layout_error(code, i, j, state, table, R)


def raise_layout_error(code: int, i: int, j: int, state: BallState, table: Table, R: float) -> None:
    """Raise the ValueError that describes layout problem ``code`` of balls i, j (no-op for OK)."""
    if code == OK:
        return
    if code == BAD_MOTION:
        raise ValueError(f"state.motion[{i}]: expected a whole motion code 0..6, got {state.motion[i]!r}")
    if code == BAD_POCKET:
        raise ValueError(f"state.pocket[{i}]: expected -1 (none) or a whole pocket number "
                         f"0..{table.pockets.shape[0] - 1}, got {state.pocket[i]!r}")
    if code == NOT_FINITE:
        raise ValueError(f"state: ball {i} has a NaN or infinite position, velocity or spin")
    if code == TOO_FAST:
        speed = math.hypot(*state.vel[i])
        surface = R * math.hypot(*(float(w) for w in state.spin[i]))
        raise ValueError(
            f"state.vel[{i}]/state.spin[{i}]: ball {i} moves at {speed:.4g} m/s with surface speed R·|ω| = "
            f"{surface:.4g} m/s; no shot produces more than {MAX_BALL_SPEED:g} m/s or {MAX_SURFACE_SPEED:g} m/s"
        )
    x, y = state.pos[i]
    if code == OUTSIDE:
        raise ValueError(
            f"state.pos[{i}]: ball {i} at ({x:.4f}, {y:.4f}) is outside the playing surface "
            f"(centre must lie within [{R:.4f}, {table.width - R:.4f}] x [{R:.4f}, {table.length - R:.4f}] m, "
            f"or in a pocket mouth clear of the jaws)"
        )
    if code == IN_POCKET:
        raise ValueError(f"state.pos[{i}]: ball {i} at ({x:.4f}, {y:.4f}) lies inside pocket {j}")
    if code == OVERLAP:
        d = math.hypot(*(state.pos[j] - state.pos[i]))
        raise ValueError(
            f"state.pos: balls {i} and {j} overlap (centres {d:.6f} m apart, minimum {2 * R:.6f} m)"
        )
    raise AssertionError(f"unknown layout code {code}")  # pragma: no cover
