"""Input checks for layouts: every problem raises ValueError naming the field, before simulation."""

from __future__ import annotations

import math

import numpy as np

from physics.kernels.layout import (BAD_MOTION, BAD_POCKET, IN_AIR, IN_POCKET, MAX_BALL_SPEED, MAX_SURFACE_SPEED,
                                    NO_CUE_BALL, NOT_FINITE, OK, OUTSIDE, OVERLAP, OVERLAP_TOL, RAIL_BELOW_NOSE, TOO_FAST,
                                    check_state)
from physics.params import PhysicsParams
from physics.state import BallState, Motion
from physics.table import Table



def _check_array(name: str, arr: object, shape: tuple[int, ...], kinds: str) -> None:
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{name}: expected a numpy array of shape {shape}, got {type(arr).__name__}")
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if arr.dtype.kind not in kinds:
        raise ValueError(f"{name}: expected dtype kind in {kinds!r}, got {arr.dtype}")


def validate_state(state: BallState, table: Table, params: PhysicsParams) -> None:
    """Raise ValueError unless ``state`` is a legal layout on ``table`` (shapes, finite, no overlap, on the cloth, no
    ball in the air, pocket numbers that match the motion codes) and the table's rail no lower than the params'
    cushion nose: the checks ``simulate`` makes before it simulates anything."""
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
    if not isinstance(table, Table):
        raise ValueError(f"table: expected a physics.Table, got {type(table).__name__}")
    if not isinstance(params, PhysicsParams):
        raise ValueError(f"params: expected a physics.PhysicsParams, got {type(params).__name__}")
    bad = np.flatnonzero((state.pocket < -1) | (state.pocket >= table.pockets.shape[0]))
    if bad.size:  # before the cast to int64, which could wrap a huge unsigned value into range
        raise_layout_error(BAD_POCKET, int(bad[0]), -1, state, table, params)
    code, i, j = check_state(
        np.ascontiguousarray(state.pos, dtype=np.float64), np.ascontiguousarray(state.vel, dtype=np.float64),
        np.ascontiguousarray(state.spin, dtype=np.float64), np.ascontiguousarray(state.motion, dtype=np.int64),
        np.ascontiguousarray(state.pocket, dtype=np.int64), False, table.segments, table.jaws, table.pockets,
        params.to_array(), table.width, table.length, table.rail, OVERLAP_TOL,
    )
    raise_layout_error(code, i, j, state, table, params)


def raise_layout_error(code: int, i: int, j: int, state: BallState, table: Table, params: PhysicsParams) -> None:
    """Raise the ValueError that describes problem ``code`` (``kernels.layout.check_state``) of balls i, j (no-op
    for OK)."""
    R = params.R
    if code == OK:
        return
    if code == RAIL_BELOW_NOSE:
        raise ValueError(
            f"table.spec.rail_height, params.R: the rail's top ({table.spec.rail_height:.6g} m) is below the cushion "
            f"nose (params.cushion_height = cushion_height_factor × 2R = {params.cushion_height:.6g} m for R = "
            f"{params.R:.6g} m): a ball that clears a cushion would be inside the rail; expected rail_height >= the "
            f"nose's height")
    if code == NO_CUE_BALL:
        raise ValueError("state: the cue ball (ball 0) must be on the table to take a shot")
    if code == IN_AIR:
        raise ValueError(
            f"state.motion[{i}]: ball {i} is AIRBORNE ({int(Motion.AIRBORNE)}), and no shot starts with a ball in the "
            f"air (a BallState has no heights); a SimResult with in_flight set was stopped by a cap with a ball in "
            f"the air: its state cannot be simulated on")
    if code == BAD_MOTION:
        raise ValueError(f"state.motion[{i}]: expected a whole motion code 0..6, got {state.motion[i]!r}")
    if code == BAD_POCKET:
        if -1 <= state.pocket[i] < table.pockets.shape[0]:
            raise ValueError(f"state.pocket[{i}]: expected -1 for ball {i}, which is not pocketed (motion "
                             f"{Motion(int(state.motion[i])).name}), got {int(state.pocket[i])}")
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
