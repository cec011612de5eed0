"""Ball-in-hand placement: where the cue ball may go (R-BIH, R-BREAK-POS), and the nearest legal spot.

A legal spot lies on the playing surface (in the kitchen on the break), outside every pocket's
capture circle (the physics would swallow the ball), and touches no ball.
"""

from __future__ import annotations

import math

import numpy as np

from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table

GAP = 1e-6  # [m] clearance an adjusted placement keeps from the ball or pocket that blocked it


def region(table: Table, params: PhysicsParams, kitchen: bool) -> tuple[float, float, float, float]:
    """(x_lo, x_hi, y_lo, y_hi) [m] of legal cue-ball centres, before balls and pockets are taken out."""
    R = params.R
    return (R, table.width - R, R, table.head_string_y if kitchen else table.length - R)


def is_free(x: float, y: float, others: np.ndarray, table: Table = DEFAULT_TABLE,
            params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False, margin: float = 0.0) -> bool:
    """A cue ball centred at (x, y) is a legal placement among the ball centres ``others`` (k, 2) [m]."""
    x_lo, x_hi, y_lo, y_hi = region(table, params, kitchen)
    if not (x_lo <= x <= x_hi and y_lo <= y <= y_hi):
        return False
    for px, py, pr in table.pockets.tolist():
        if (px - x) ** 2 + (py - y) ** 2 < (pr + margin) ** 2:
            return False
    reach = (2.0 * params.R + margin) ** 2
    for ox, oy in np.asarray(others, dtype=float).reshape(-1, 2).tolist():  # a few balls: plain floats are fastest
        if (ox - x) ** 2 + (oy - y) ** 2 < reach:
            return False
    return True


def _circle_circle(c1: np.ndarray, r1: float, c2: np.ndarray, r2: float) -> list[np.ndarray]:
    d = float(np.hypot(*(c2 - c1)))
    if d == 0.0 or d > r1 + r2 or d < abs(r1 - r2):
        return []
    a = (r1 * r1 - r2 * r2 + d * d) / (2.0 * d)
    h = math.sqrt(max(r1 * r1 - a * a, 0.0))
    u = (c2 - c1) / d
    mid = c1 + a * u
    n = np.array([-u[1], u[0]])
    return [mid + h * n, mid - h * n]


def _circle_lines(c: np.ndarray, r: float, box: tuple[float, float, float, float]) -> list[np.ndarray]:
    x_lo, x_hi, y_lo, y_hi = box
    out = []
    for x in (x_lo, x_hi):
        dx = x - c[0]
        if abs(dx) <= r:
            h = math.sqrt(r * r - dx * dx)
            out += [np.array([x, c[1] + h]), np.array([x, c[1] - h])]
    for y in (y_lo, y_hi):
        dy = y - c[1]
        if abs(dy) <= r:
            h = math.sqrt(r * r - dy * dy)
            out += [np.array([c[0] + h, y]), np.array([c[0] - h, y])]
    return out


def nearest_free(x: float, y: float, others: np.ndarray, table: Table = DEFAULT_TABLE,
                 params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False) -> tuple[float, float]:
    """The legal placement closest to (x, y): (x, y) itself when legal, else a spot on the boundary of the
    blocked area (a clearance circle around a ball or pocket, or the region's edge), else a grid search."""
    if is_free(x, y, others, table, params, kitchen):
        return (float(x), float(y))
    box = region(table, params, kitchen)
    x_lo, x_hi, y_lo, y_hi = box
    p0 = np.array([min(max(x, x_lo), x_hi), min(max(y, y_lo), y_hi)])
    circles = [(np.asarray(o, dtype=float), 2.0 * params.R + GAP) for o in others]
    circles += [(np.asarray(pk[:2], dtype=float), float(pk[2]) + GAP) for pk in table.pockets]
    cands = [p0, np.array([x_lo, y_lo]), np.array([x_lo, y_hi]), np.array([x_hi, y_lo]), np.array([x_hi, y_hi])]
    for c, r in circles:
        delta = p0 - c
        dist = float(np.hypot(*delta))
        unit = delta / dist if dist > 0 else np.array([0.0, 1.0])
        q = c + unit * r
        cands.append(np.array([min(max(q[0], x_lo), x_hi), min(max(q[1], y_lo), y_hi)]))
        cands += _circle_lines(c, r, box)
    for i in range(len(circles)):
        for j in range(i + 1, len(circles)):
            cands += _circle_circle(circles[i][0], circles[i][1], circles[j][0], circles[j][1])
    target = np.array([x, y], dtype=float)
    best, best_d = None, math.inf
    for q in cands:
        d = float(np.hypot(*(q - target)))
        if d < best_d and is_free(q[0], q[1], others, table, params, kitchen):
            best, best_d = q, d
    if best is None:  # every boundary point is blocked: scan the region
        for q in np.stack(np.meshgrid(np.linspace(x_lo, x_hi, 64), np.linspace(y_lo, y_hi, 128)), -1).reshape(-1, 2):
            d = float(np.hypot(*(q - target)))
            if d < best_d and is_free(q[0], q[1], others, table, params, kitchen, margin=GAP):
                best, best_d = q, d
    if best is None:
        raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
    return (float(best[0]), float(best[1]))
