"""Input checks for layouts: every problem raises ValueError naming the field, before simulation."""

from __future__ import annotations

import numpy as np

from physics.params import PhysicsParams
from physics.state import BallState, Motion
from physics.table import Table

OVERLAP_TOL = 1e-9  # [m] balls may touch (racks) but not overlap by more than this


def _check_array(name: str, arr: object, shape: tuple[int, ...], dtype_kind: str) -> np.ndarray:
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{name}: expected a numpy array of shape {shape}, got {type(arr).__name__}")
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if dtype_kind == "f":
        if arr.dtype.kind not in "fi":
            raise ValueError(f"{name}: expected a float array, got dtype {arr.dtype}")
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name}: contains NaN or infinite values")
    elif arr.dtype.kind not in "iu":
        raise ValueError(f"{name}: expected an integer array, got dtype {arr.dtype}")
    return arr


def validate_state(state: BallState, table: Table, params: PhysicsParams) -> None:
    """Raise ValueError unless ``state`` is a legal layout on ``table`` (shapes, finite, no overlap, on the cloth)."""
    if not isinstance(state, BallState):
        raise ValueError(f"state: expected a physics.BallState, got {type(state).__name__}")
    pos = np.asarray(state.pos)
    n = pos.shape[0] if pos.ndim == 2 else -1
    if n < 1:
        raise ValueError(f"state.pos: expected shape (n_balls, 2), got {pos.shape}")
    _check_array("state.pos", state.pos, (n, 2), "f")
    _check_array("state.vel", state.vel, (n, 2), "f")
    _check_array("state.spin", state.spin, (n, 3), "f")
    _check_array("state.motion", state.motion, (n,), "i")
    _check_array("state.pocket", state.pocket, (n,), "i")
    valid_codes = {int(m) for m in Motion}
    for i, code in enumerate(state.motion):
        if int(code) not in valid_codes:
            raise ValueError(f"state.motion[{i}]: unknown motion code {int(code)}")
    on = state.on_table()
    R = params.R
    for i in np.flatnonzero(on):
        x, y = state.pos[i]
        if not table.inside_surface(x, y, R - OVERLAP_TOL):
            raise ValueError(
                f"state.pos[{i}]: ball {i} at ({x:.4f}, {y:.4f}) is outside the playing surface "
                f"(centre must lie within [{R:.4f}, {table.width - R:.4f}] x [{R:.4f}, {table.length - R:.4f}] m)"
            )
        for k, (px, py, pr) in enumerate(table.pockets):
            if (x - px) ** 2 + (y - py) ** 2 < pr * pr:
                raise ValueError(f"state.pos[{i}]: ball {i} at ({x:.4f}, {y:.4f}) lies inside pocket {k}")
    idx = np.flatnonzero(on)
    if idx.size > 1:
        p = state.pos[idx]
        d = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(-1))
        np.fill_diagonal(d, np.inf)
        i, j = np.unravel_index(np.argmin(d), d.shape)
        if d[i, j] < 2 * R - OVERLAP_TOL:
            raise ValueError(
                f"state.pos: balls {idx[i]} and {idx[j]} overlap (centres {d[i, j]:.6f} m apart, "
                f"minimum {2 * R:.6f} m)"
            )
