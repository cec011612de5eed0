"""Event-time equations (Leckie & Greenspan 2005, §3): each contact is the first root of a
polynomial in t built from the balls' quadratic trajectories r(t) = r₀ + v₀ t + ½ a t².

ball–ball: |Δr(t)|² − (2R)² (quartic); ball–straight cushion: n·r(t) − (n·p + R) (quadratic);
ball–jaw: |r(t) − c|² − (R + r_jaw)² (quartic); ball–pocket: |r(t) − c|² − r_pocket² (quartic).
Every search is limited to a window in which both trajectories are valid (until the next
transition of either ball); the event loop prunes pairs whose path boxes never meet first.
"""

import math

import numpy as np

from physics.kernels.jit import kernel
from physics.kernels.roots import first_crossing

INF = np.inf
# [m] A ball that starts a search this close inside a contact distance (rounding after a bounce,
# or a layout within validate.OVERLAP_TOL) while separating counts as touching, so that its
# return to contact is found; deeper starts (a ball in a pocket mouth, behind a rail's line) are not.
CONTACT_BAND = 1e-9


@kernel
def ball_ball_time(x1, y1, vx1, vy1, ax1, ay1, x2, y2, vx2, vy2, ax2, ay2, R, T):
    """Time until two balls touch while approaching, within [0, T]; inf if not."""
    dx = x1 - x2
    dy = y1 - y2
    dvx = vx1 - vx2
    dvy = vy1 - vy2
    dax = 0.5 * (ax1 - ax2)
    day = 0.5 * (ay1 - ay2)
    c4 = dax * dax + day * day
    c3 = 2.0 * (dvx * dax + dvy * day)
    c2 = dvx * dvx + dvy * dvy + 2.0 * (dx * dax + dy * day)
    c1 = 2.0 * (dx * dvx + dy * dvy)
    c0 = dx * dx + dy * dy - 4.0 * R * R
    return first_crossing(c4, c3, c2, c1, c0, T, 4.0 * R * CONTACT_BAND)


@kernel
def ball_circle_time(x, y, vx, vy, ax, ay, cx, cy, radius, T):
    """Time until the ball centre reaches distance ``radius`` of (cx, cy) from outside; inf if not."""
    dx = x - cx
    dy = y - cy
    hax = 0.5 * ax
    hay = 0.5 * ay
    c4 = hax * hax + hay * hay
    c3 = 2.0 * (vx * hax + vy * hay)
    c2 = vx * vx + vy * vy + 2.0 * (dx * hax + dy * hay)
    c1 = 2.0 * (dx * vx + dy * vy)
    c0 = dx * dx + dy * dy - radius * radius
    return first_crossing(c4, c3, c2, c1, c0, T, 2.0 * radius * CONTACT_BAND)


@kernel
def ball_segment_time(x, y, vx, vy, ax, ay, x1, y1, x2, y2, nx, ny, R, T):
    """Time until the ball meets the straight cushion (x1, y1)–(x2, y2) with inward normal (nx, ny); inf if not.

    The contact must fall within the segment's length; ends are covered by the jaw circles.
    Scalars only: array arguments cost a reference-count round trip per call.
    """
    d0 = nx * (x - x1) + ny * (y - y1) - R
    d1 = nx * vx + ny * vy
    d2 = 0.5 * (nx * ax + ny * ay)
    t = first_crossing(0.0, 0.0, d2, d1, d0, T, CONTACT_BAND)
    if t == INF:
        return INF
    px = x + vx * t + 0.5 * ax * t * t - x1
    py = y + vy * t + 0.5 * ay * t * t - y1
    ex = x2 - x1
    ey = y2 - y1
    s = (px * ex + py * ey) / (ex * ex + ey * ey)
    if s < 0.0 or s > 1.0:
        return INF
    return t


@kernel
def straight_circle_time(x, y, vx, vy, ax, ay, cx, cy, radius, T):
    """Exact contact time of a centre moving on a straight line (a ∥ v) with a fixed circle.

    Rolling balls and straight stun/draw/follow shots move along a line: with s the distance
    travelled, |r − c|² = (s − s₀)² + d², so contact is where s(t) = v t + ½ α t² first reaches
    s₀ ∓ √(radius² − d²) — a quadratic instead of the quartic. Returns (handled, t); handled is
    False for curved paths and for a centre already at the circle (the quartic decides those).
    """
    speed = math.sqrt(vx * vx + vy * vy)
    if speed == 0.0:
        return False, INF
    ux = vx / speed
    uy = vy / speed
    if abs(ux * ay - uy * ax) > 1e-12 * (1.0 + math.sqrt(ax * ax + ay * ay)):
        return False, INF
    alpha = ux * ax + uy * ay
    qx = cx - x
    qy = cy - y
    s0 = qx * ux + qy * uy
    d = abs(qx * uy - qy * ux)
    if d >= radius:
        return True, INF
    w = math.sqrt(radius * radius - d * d)
    lo = s0 - w
    hi = s0 + w
    if lo <= 1e-9 and hi >= -1e-9:
        return False, INF
    target = lo if lo > 0.0 else hi
    # smallest t ≥ 0 with ½ α t² + speed t − target = 0
    a = 0.5 * alpha
    if a == 0.0:
        t = target / speed
        return True, (t if 0.0 <= t <= T else INF)
    disc = speed * speed + 4.0 * a * target
    if disc < 0.0:
        return True, INF
    sq = math.sqrt(disc)
    q = -0.5 * (speed + sq)
    r1 = q / a
    r2 = -target / q if q != 0.0 else INF
    best = INF
    if 0.0 <= r1 <= T:
        best = r1
    if 0.0 <= r2 <= T and r2 < best:
        best = r2
    return True, best
