"""Ball-in-hand placement: where the cue ball may go (R-BIH, R-BREAK-POS), and the nearest legal spot.

A legal spot lies on the playing surface (in the kitchen on the break), outside every pocket's
capture circle (the physics would swallow the ball), and touches no ball.
"""

from __future__ import annotations

import numpy as np

from nineball_env.kernels.placement import free_mask as kernel_free_mask
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


def _boundary_points(centres: np.ndarray, radii: np.ndarray, box: tuple[float, float, float, float],
                     p0: np.ndarray) -> np.ndarray:
    """Candidate spots on the blocked area's boundary: projections of ``p0`` onto each circle, the circles'
    crossings with the region's edges and with each other, and the region's corners."""
    x_lo, x_hi, y_lo, y_hi = box
    out = [p0[None, :], np.array([[x_lo, y_lo], [x_lo, y_hi], [x_hi, y_lo], [x_hi, y_hi]])]
    delta = p0 - centres
    dist = np.hypot(delta[:, 0], delta[:, 1])
    unit = np.where(dist[:, None] > 0, delta / np.where(dist > 0, dist, 1.0)[:, None], [0.0, 1.0])
    out.append(centres + unit * radii[:, None])
    for axis, (lo, hi) in ((0, (x_lo, x_hi)), (1, (y_lo, y_hi))):
        for edge in (lo, hi):
            off = edge - centres[:, axis]
            h = np.sqrt(np.clip(radii ** 2 - off ** 2, 0.0, None))
            hit = np.abs(off) <= radii
            for sign in (1.0, -1.0):
                pts = np.empty((int(hit.sum()), 2))
                pts[:, axis] = edge
                pts[:, 1 - axis] = centres[hit, 1 - axis] + sign * h[hit]
                out.append(pts)
    i, j = np.triu_indices(len(centres), k=1)
    c1, c2, r1, r2 = centres[i], centres[j], radii[i], radii[j]
    d = np.hypot(*(c2 - c1).T)
    hit = (d > 0) & (d <= r1 + r2) & (d >= np.abs(r1 - r2))
    c1, c2, r1, r2, d = c1[hit], c2[hit], r1[hit], r2[hit], d[hit]
    a = (r1 ** 2 - r2 ** 2 + d ** 2) / (2.0 * d)
    h = np.sqrt(np.clip(r1 ** 2 - a ** 2, 0.0, None))
    u = (c2 - c1) / d[:, None]
    mid = c1 + a[:, None] * u
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    out += [mid + h[:, None] * normal, mid - h[:, None] * normal]
    return np.concatenate(out)


def nearest_free(x: float, y: float, others: np.ndarray, table: Table = DEFAULT_TABLE,
                 params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False) -> tuple[float, float]:
    """The legal placement closest to (x, y): (x, y) itself when legal, else a spot on the boundary of the
    blocked area (a clearance circle around a ball or pocket, or the region's edge), else a grid search."""
    if is_free(x, y, others, table, params, kitchen):
        return (float(x), float(y))
    others = np.asarray(others, dtype=float).reshape(-1, 2)
    box = region(table, params, kitchen)
    x_lo, x_hi, y_lo, y_hi = box
    p0 = np.array([min(max(x, x_lo), x_hi), min(max(y, y_lo), y_hi)])
    centres = np.concatenate([others, table.pockets[:, :2]])
    radii = np.concatenate([np.full(len(others), 2.0 * params.R + GAP), table.pockets[:, 2] + GAP])
    cands = _boundary_points(centres, radii, box, p0)
    ok = free_mask(cands, others, table, params, kitchen)
    if not ok.any():  # every boundary point is blocked: scan the region
        grid = np.stack(np.meshgrid(np.linspace(x_lo, x_hi, 64), np.linspace(y_lo, y_hi, 128)), -1).reshape(-1, 2)
        cands, ok = grid, free_mask(grid, others, table, params, kitchen)
        if not ok.any():
            raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
    cands = cands[ok]
    best = cands[np.argmin(np.hypot(cands[:, 0] - x, cands[:, 1] - y))]
    return (float(best[0]), float(best[1]))
