"""The rail as a region in plan: where a ball in the air is over the playing area or over the rail, when one over the
rail comes back over the playing area, and when it leaves the table (docs/table.md).

The playing area (the cloth, the pocket mouths and the holes behind them) is bounded by the inner outline, one closed
curve whose pieces meet tangent to each other: the cushion segments (nose lines), the jaws' arcs (each jaw's circle
between the cushion and the facing tangent to it), the facings and the liners' arcs behind the mouths. The rail lies
between that outline and its outer edge, the rectangle ``rail_width`` beyond the cushion lines; its top is
``rail_height`` above the cloth. A ball over the rail flies on until its centre comes back over the playing area
(it is in the air over the cloth again), its bottom comes down onto the rail's top, or its centre crosses the outer
edge (both: it leaves the table there), whichever is first. In plan a ball in the air moves on a straight line, so
each of these is a root of a linear or quadratic equation.
"""

import math

import numpy as np

from physics.kernels.jit import kernel
from physics.table import (
    A_COS, A_MX, A_MY, ARC_STRIDE, L_M1X, L_M1Y, L_M2X, L_M2Y, L_R, L_X, L_Y, LINER_STRIDE, RAIL_LINERS, RAIL_N_ARCS,
    RAIL_N_LINERS, RAIL_WIDTH,
)

INF = np.inf
# [m] A foot of a perpendicular this close beyond a piece's end still counts as on it (the pieces meet tangent to each
# other, so the nearest piece's sign is the same either side of a joint).
_ON_PIECE = 1e-12
# [m] A centre over the rail this close in front of a cushion or facing line, moving toward the table, is back over the
# playing area now (rounding at the line).
_AT_LINE = 1e-12


@kernel(inline="always")
def _arc_row(rail, j):
    """Offset in ``rail`` of jaw j's arc row (A_* columns)."""
    return RAIL_LINERS + int(rail[RAIL_N_LINERS]) * LINER_STRIDE + j * ARC_STRIDE


@kernel
def outline_gap(x, y, segments, jaws, rail):
    """Signed plan distance [m] from (x, y) to the inner outline: positive over the playing area (cloth, mouths,
    holes), negative over the rail or beyond it.

    The distance to the nearest piece on which the point's perpendicular foot lies, signed by that piece's side: the
    outline is a closed curve with a tangent everywhere, so the nearest piece's side is the region's."""
    best = INF
    gap = -INF
    for k in range(segments.shape[0]):
        x1, y1 = segments[k, 0], segments[k, 1]
        ex = segments[k, 2] - x1
        ey = segments[k, 3] - y1
        e = math.sqrt(ex * ex + ey * ey)
        s = ((x - x1) * ex + (y - y1) * ey) / e
        if -_ON_PIECE <= s <= e + _ON_PIECE:
            d = segments[k, 4] * (x - x1) + segments[k, 5] * (y - y1)
            if abs(d) < best:
                best, gap = abs(d), d
    for j in range(min(jaws.shape[0], int(rail[RAIL_N_ARCS]))):
        o = _arc_row(rail, j)
        dx = x - jaws[j, 0]
        dy = y - jaws[j, 1]
        rho = math.sqrt(dx * dx + dy * dy)
        if rho == 0.0 or dx * rail[o + A_MX] + dy * rail[o + A_MY] >= rail[o + A_COS] * rho - _ON_PIECE:
            d = rho - jaws[j, 2]  # the jaw's post is rail: the playing area lies outside its circle
            if abs(d) < best:
                best, gap = abs(d), d
    for k in range(int(rail[RAIL_N_LINERS])):
        o = RAIL_LINERS + k * LINER_STRIDE
        dx = x - rail[o + L_X]
        dy = y - rail[o + L_Y]
        if (rail[o + L_M1X] * dx + rail[o + L_M1Y] * dy >= -_ON_PIECE
                and rail[o + L_M2X] * dx + rail[o + L_M2Y] * dy >= -_ON_PIECE):
            d = rail[o + L_R] - math.sqrt(dx * dx + dy * dy)  # the hole lies inside the liner's circle
            if abs(d) < best:
                best, gap = abs(d), d
    return gap


@kernel
def edge_gap(x, y, width, length, rail):
    """Signed plan distance [m] from (x, y) to the rail's outer edge: positive inside it."""
    rw = rail[RAIL_WIDTH]
    return min(x + rw, width + rw - x, y + rw, length + rw - y)


@kernel
def return_time(x, y, vx, vy, segments, jaws, rail):
    """Time [s] until a centre over the rail at (x, y), moving at (vx, vy) in plan, first crosses the inner outline
    into the playing area: over a cushion or facing line (toward its table side), out of a jaw's circle through its
    arc, or into a liner's circle through its arc (over the hole); inf if it never does."""
    best = INF
    for k in range(segments.shape[0]):
        nx, ny = segments[k, 4], segments[k, 5]
        x1, y1 = segments[k, 0], segments[k, 1]
        d1 = nx * vx + ny * vy
        if d1 <= 0.0:
            continue
        d0 = nx * (x - x1) + ny * (y - y1)
        if d0 > _AT_LINE:
            continue  # in front of this line (beyond the segment's ends: over the rail elsewhere), moving away
        t = max(-d0 / d1, 0.0)
        if t >= best:
            continue
        ex = segments[k, 2] - x1
        ey = segments[k, 3] - y1
        s = ((x + vx * t - x1) * ex + (y + vy * t - y1) * ey) / (ex * ex + ey * ey)
        if 0.0 <= s <= 1.0:
            best = t
    q2 = vx * vx + vy * vy
    if q2 == 0.0:
        return best
    for j in range(min(jaws.shape[0], int(rail[RAIL_N_ARCS]))):
        px = x - jaws[j, 0]
        py = y - jaws[j, 1]
        r = jaws[j, 2]
        q1 = 2.0 * (px * vx + py * vy)
        disc = q1 * q1 - 4.0 * q2 * (px * px + py * py - r * r)
        if disc < 0.0:
            continue
        t = (-q1 + math.sqrt(disc)) / (2.0 * q2)  # where the line leaves the circle
        if t < 0.0 or t >= best:
            continue
        o = _arc_row(rail, j)
        if (px + vx * t) * rail[o + A_MX] + (py + vy * t) * rail[o + A_MY] >= rail[o + A_COS] * r - _ON_PIECE:
            best = t
    for k in range(int(rail[RAIL_N_LINERS])):
        o = RAIL_LINERS + k * LINER_STRIDE
        px = x - rail[o + L_X]
        py = y - rail[o + L_Y]
        rl = rail[o + L_R]
        q1 = 2.0 * (px * vx + py * vy)
        q0 = px * px + py * py - rl * rl
        if q1 >= 0.0:
            continue  # not approaching the liner's centre: it does not come into the circle
        disc = q1 * q1 - 4.0 * q2 * q0
        if disc < 0.0:
            continue
        t = max(2.0 * q0 / (-q1 + math.sqrt(disc)), 0.0)  # where the line enters the circle (cancellation-free)
        if t >= best:
            continue
        ax = px + vx * t
        ay = py + vy * t
        if (rail[o + L_M1X] * ax + rail[o + L_M1Y] * ay >= -_ON_PIECE
                and rail[o + L_M2X] * ax + rail[o + L_M2Y] * ay >= -_ON_PIECE):
            best = t
    return best


@kernel
def edge_time(x, y, vx, vy, width, length, rail):
    """Time [s] until a centre at (x, y) moving at (vx, vy) in plan crosses the rail's outer edge (0 if beyond it)."""
    rw = rail[RAIL_WIDTH]
    t = INF
    if vx < 0.0:  # each side as (rail width − distance behind the cushion line) / speed outward
        t = min(t, (rw + x) / -vx)
    elif vx > 0.0:
        t = min(t, (rw - (x - width)) / vx)
    if vy < 0.0:
        t = min(t, (rw + y) / -vy)
    elif vy > 0.0:
        t = min(t, (rw - (y - length)) / vy)
    return max(t, 0.0)


@kernel
def top_time(h, vz, top, g):
    """Time [s] until a ball whose bottom is h above the cloth, rising at vz, comes down to the height ``top`` (0 if
    it is there or below)."""
    dh = h - top
    return 0.0 if dh <= 0.0 else (vz + math.sqrt(vz * vz + 2.0 * g * dh)) / g
