"""``placement.is_free`` compiled with numba, for the kernels that place a cue ball in hand."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def is_free(x, y, balls, n_balls, R, width, length, head_y, kitchen, pockets, margin):
    """A cue ball in hand centred at (x, y) [m] is a legal placement (R-BIH, R-BREAK-POS): on the playing surface
    (behind the head string ``head_y`` when ``kitchen``), outside every pocket's capture circle and touching none
    of the first ``n_balls`` centres of ``balls``; ``margin`` [m] widens the ball and pocket clearances."""
    y_hi = head_y if kitchen else length - R
    if not (R <= x <= width - R and R <= y <= y_hi):
        return False
    for p in range(pockets.shape[0]):
        if (pockets[p, 0] - x) ** 2 + (pockets[p, 1] - y) ** 2 < (pockets[p, 2] + margin) ** 2:
            return False
    reach = (2.0 * R + margin) ** 2
    for i in range(n_balls):
        if (balls[i, 0] - x) ** 2 + (balls[i, 1] - y) ** 2 < reach:
            return False
    return True


@njit(cache=True)
def free_mask(points, balls, n_balls, R, width, length, head_y, kitchen, pockets, margin, out):
    """``is_free`` for every candidate centre of ``points`` (m, 2) into the boolean ``out`` (m,)."""
    for i in range(points.shape[0]):
        out[i] = is_free(points[i, 0], points[i, 1], balls, n_balls, R, width, length, head_y, kitchen, pockets, margin)


@njit(cache=True)
def _consider(px, py, x, y, balls, n_balls, R, width, length, head_y, kitchen, pockets, best):
    """Keep candidate (px, py) in ``best`` = (found, x, y, distance to (x, y)) when it is free and strictly closer."""
    if not is_free(px, py, balls, n_balls, R, width, length, head_y, kitchen, pockets, 0.0):
        return
    d = np.hypot(px - x, py - y)
    if best[0] == 0.0 or d < best[3]:
        best[0], best[1], best[2], best[3] = 1.0, px, py, d


@njit(cache=True)
def nearest_free(x, y, balls, n_balls, R, width, length, head_y, kitchen, pockets, gap, best):
    """The legal cue-ball centre closest to (x, y) among the first ``n_balls`` centres of ``balls`` (R-BIH,
    R-BREAK-POS): (x, y) itself when free, else the closest free point on the boundary of the blocked area
    (``gap`` [m] outside a ball's or pocket's clearance circle, or on the region's edge), else of a 64 x 128 grid
    over the region. Writes ``best`` = (found, x, y, distance); found is 0 when no spot is free.

    Candidates, in this order (the first of equally close ones wins): the clamped point, the region's
    corners, the clamped point projected onto each clearance circle (balls, then pockets), each circle's
    crossings with the region's edges (x edges, then y edges; low edge first, the + root first), and the
    crossings of every pair of circles (all + roots, then all - roots)."""
    best[0], best[1], best[2], best[3] = 0.0, x, y, 0.0
    if is_free(x, y, balls, n_balls, R, width, length, head_y, kitchen, pockets, 0.0):
        best[0] = 1.0
        return
    x_lo, x_hi, y_lo = R, width - R, R
    y_hi = head_y if kitchen else length - R
    n = n_balls + pockets.shape[0]
    cx = np.empty(n)
    cy = np.empty(n)
    cr = np.empty(n)
    for i in range(n_balls):
        cx[i], cy[i], cr[i] = balls[i, 0], balls[i, 1], 2.0 * R + gap
    for p in range(pockets.shape[0]):
        cx[n_balls + p], cy[n_balls + p], cr[n_balls + p] = pockets[p, 0], pockets[p, 1], pockets[p, 2] + gap
    p0x, p0y = min(max(x, x_lo), x_hi), min(max(y, y_lo), y_hi)
    args = (balls, n_balls, R, width, length, head_y, kitchen, pockets, best)
    _consider(p0x, p0y, x, y, *args)
    _consider(x_lo, y_lo, x, y, *args)
    _consider(x_lo, y_hi, x, y, *args)
    _consider(x_hi, y_lo, x, y, *args)
    _consider(x_hi, y_hi, x, y, *args)
    for i in range(n):  # projections onto the circles
        dx, dy = p0x - cx[i], p0y - cy[i]
        dist = np.hypot(dx, dy)
        ux, uy = (dx / dist, dy / dist) if dist > 0.0 else (0.0, 1.0)
        _consider(cx[i] + ux * cr[i], cy[i] + uy * cr[i], x, y, *args)
    for axis in range(2):  # the circles' crossings with the region's edges
        for e in range(2):
            edge = (x_lo if e == 0 else x_hi) if axis == 0 else (y_lo if e == 0 else y_hi)
            for s in range(2):
                for i in range(n):
                    c_along, c_across = (cx[i], cy[i]) if axis == 0 else (cy[i], cx[i])
                    off = edge - c_along
                    if not abs(off) <= cr[i]:
                        continue
                    h = np.sqrt(max(cr[i] * cr[i] - off * off, 0.0))
                    across = c_across + h if s == 0 else c_across + -h
                    if axis == 0:
                        _consider(edge, across, x, y, *args)
                    else:
                        _consider(across, edge, x, y, *args)
    for s in range(2):  # the crossings of pairs of circles
        for i in range(n):
            for j in range(i + 1, n):
                ddx, ddy = cx[j] - cx[i], cy[j] - cy[i]
                d = np.hypot(ddx, ddy)
                r1, r2 = cr[i], cr[j]
                if not (d > 0.0 and d <= r1 + r2 and d >= abs(r1 - r2)):
                    continue
                a = (r1 * r1 - r2 * r2 + d * d) / (2.0 * d)
                h = np.sqrt(max(r1 * r1 - a * a, 0.0))
                ux, uy = ddx / d, ddy / d
                mx, my = cx[i] + a * ux, cy[i] + a * uy
                if s == 0:
                    _consider(mx + h * -uy, my + h * ux, x, y, *args)
                else:
                    _consider(mx - h * -uy, my - h * ux, x, y, *args)
    if best[0] != 0.0:
        return
    for iy in range(128):  # every boundary point is blocked: scan the region (np.linspace's points)
        gy = y_hi if iy == 127 else iy * ((y_hi - y_lo) / 127.0) + y_lo
        for ix in range(64):
            gx = x_hi if ix == 63 else ix * ((x_hi - x_lo) / 63.0) + x_lo
            _consider(gx, gy, x, y, *args)
