"""Ball-in-hand placement: where the cue ball may go (R-BIH, R-BREAK-POS), and the nearest legal spot.

A legal spot lies on the playing surface (in the kitchen on the break), outside every pocket's
capture circle (the physics would swallow the ball), and touches no ball.
"""

from __future__ import annotations

import numpy as np

from nineball_env.kernels.placement import free_mask as kernel_free_mask
from nineball_env.kernels.placement import nearest_free as kernel_nearest_free
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table

GAP = 1e-6  # [m] clearance an adjusted placement keeps from the ball or pocket that blocked it


def region(table: Table, params: PhysicsParams, kitchen: bool) -> tuple[float, float, float, float]:
    """(x_lo, x_hi, y_lo, y_hi) [m] of legal cue-ball centres, before balls and pockets are taken out."""
    R = params.R
    return (R, table.width - R, R, table.head_string_y if kitchen else table.length - R)


def is_free(x: float, y: float, others: np.ndarray | list, table: Table = DEFAULT_TABLE,
            params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False, margin: float = 0.0) -> bool:
    """A cue ball centred at (x, y) is a legal placement among the ball centres ``others`` (k, 2) [m]
    (``kernels.placement.is_free``, the one legality check of the env, its opponent and the vector env)."""
    return bool(free_mask(np.array([[x, y]], dtype=np.float64), others, table, params, kitchen, margin)[0])


def free_mask(points: np.ndarray, others: np.ndarray | list, table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False, margin: float = 0.0) -> np.ndarray:
    """``is_free`` for many candidate centres (n, 2) at once: a boolean mask (n,)."""
    balls = np.ascontiguousarray(np.asarray(others, dtype=np.float64).reshape(-1, 2))
    out = np.empty(len(points), dtype=np.bool_)
    pockets = np.ascontiguousarray(table.pockets, dtype=np.float64)
    kernel_free_mask(np.ascontiguousarray(points, dtype=np.float64), balls, len(balls), params.R, table.width,
                     table.length, table.head_string_y, bool(kitchen), pockets, float(margin), out)
    return out


def nearest_free(x: float, y: float, others: np.ndarray, table: Table = DEFAULT_TABLE,
                 params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False) -> tuple[float, float]:
    """The legal placement closest to (x, y): (x, y) itself when legal, else a spot on the boundary of the
    blocked area (a clearance circle around a ball or pocket, or the region's edge), else a grid search
    (``kernels.placement.nearest_free``, the one search of the env, its opponent and the compiled turn)."""
    balls = np.ascontiguousarray(np.asarray(others, dtype=np.float64).reshape(-1, 2))
    best = np.empty(4)
    kernel_nearest_free(float(x), float(y), balls, len(balls), params.R, table.width, table.length,
                        table.head_string_y, bool(kitchen), np.ascontiguousarray(table.pockets, dtype=np.float64), GAP,
                        best)
    if best[0] == 0.0:
        raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
    return (float(best[1]), float(best[2]))
