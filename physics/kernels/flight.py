"""Balls in the air: closed-form flight, the bounce on the slate, and the contacts of an airborne ball.

In the air a ball moves under gravity alone: r(t) = r₀ + v₀ t − ½ g t² ẑ, its spin constant (no air drag,
no Magnus force: both are below 1 % over a jump's flight). Heights here are of the ball's *bottom* above
the cloth (h = 0: resting on the cloth); its centre is at R + h.

Landing is an exact event (h(t) = 0, a quadratic). The bounce on the slate through the cloth has a
normal restitution e_table (≈ 0.5) and a friction impulse at the contact point, Coulomb's µ·J_n or the
impulse that stops the slip (2/7·m·|u|), whichever is smaller (sliding vs no-slip); a bounce that would
rise less than min_bounce_height is absorbed by the cloth, exactly as the flat model absorbs every vertical
velocity, so a shot in which no ball leaves the cloth is the flat model bit for bit.

Calibration (sources and numbers; README Physics, "Balls in the air"):
- e_table = 0.5, the restitution of a free ball landing on the slate through the cloth (the issue's ≈ 0.5, the
  value of jump-shot analyses); u_table = 0.2, the ball–cloth sliding friction of the flat model.
- e_strike = 0.25, the effective restitution of the cue-driven impact. The strike is instantaneous here, but the
  tip stays on the ball for about 1 ms (high-speed video: 1–2 ms in the Billiards Digest "Jacksonville
  experiments", 1999; ≈ 7 frames at 8800 fps, yamazaki-shinji.com 2019, the ball "pressed into the cloth")
  while the ball compresses the cloth against the slate: the cue's follow-through takes part of the rebound, so
  a struck ball rises less than a free one (and jump cues are light for that reason). 0.25 is the value that
  meets both pieces of player evidence we have: a 45° centre-ball jump (b = sin θ: the cue axis through the
  centre) clears a ball 30 cm away at a jump stroke of 4–5 m/s ("45 degrees to jump a ball about twelve
  inches away", M. Roque, Viking Cues 2017; at e_strike = 0.2 it needs 6 m/s and more), and the cue ball of a
  firm break hops ("with a firm break shot the CB will always be airborne or hopping on the way to the rack",
  and hops again, sometimes off the table, when it meets the rack in the air: Alciatore,
  billiards.colostate.edu/faq/break/ball-hop), off the table on ≈ 6 % of 9–11 m/s breaks at 0–10° and on none
  at 0–5° (benchmarks/off_table_rates.py), where 0.5 sent it off on 52 %.
- min_bounce_height = 1 mm: a rebound lower than that stays in the cloth (it is absorbed, the flat model).
- The follow-shot hop. A contact between two balls on the cloth whose slip has a vertical part (the striking
  ball's topspin or draw) gets a vertical friction impulse (resolve.ball_ball: µ(v)·J_n, µ = 0.00995 +
  0.108·e^(−1.088 v), Alciatore TP A-14, capped at m·|slip|/7, the impulse that stops the slip, so no energy is
  added): up on one ball, down into the slate on the other, which rebounds at e_table times it. A ball that then
  rises at least min_bounce_height leaves the cloth (``leaves_cloth``) and the event loop takes the steps of balls in
  the air from that contact on (loop.py, air.py); a smaller one is absorbed, as the flat model
  always did. Full hits: 0 for a stun hit at any speed, 0.69 mm for a rolling ball at 12 m/s (µ is small at a
  large slip: absorbed), most, 3.4 mm (0.26 m/s), at 12 m/s with a slip of about 2 m/s; 7–9 m/s breaks from the
  kitchen hop on 47 of 60 (tests/physics/test_physics_hop.py, README Physics).

The cushion of an airborne ball (a WPA K-66 profile, simplified): a vertical face up to the nose height
z_n (PhysicsParams.cushion_height) on the cushion line, and above it the rounded nose, taken as the edge
line at height z_n along the cushion line. A ball whose centre is at or below z_n meets the face (the flat
cushion model resolves it, vertical velocity kept); one whose centre is above z_n meets the nose edge
(a frictionless impulse along the 3-D normal with restitution e_c, which throws it up or down); one whose
bottom is above the nose when its centre crosses the cushion line has cleared the cushion and flies on over
the rail (TableSpec.rail_width from the nose outwards, cushion included; its top TableSpec.rail_height above
the cloth): it leaves the table (Motion.OFF_TABLE, logged then) when its bottom comes down onto the rail's top
(which slopes off outward: it does not come back) or its centre passes the rail's outer edge, whichever comes
first. Over the rail it meets no cushion, but it does meet balls (a ball frozen to the cushion): that 3-D
contact is resolved as any other, and it leaves the table at that moment.
A cushion counts only over its length; past its ends the pocket jaws take over (``air_jaw_time``): each is a
post of the jaw radius up to z_n whose top edge, the circle of that radius at z_n, joins the nose edges of the
cushion and of the pocket facing (tangent to both), so the nose edge runs unbroken around the pocket: a ball
above the nose meets that edge (the same frictionless impulse) or, if its bottom clears it, comes over the post
onto the cushion and flies on over that cushion's rail, as above.
The edge's contact time is the first root of a degree-8 polynomial (roots.first_crossing_poly).
A ball that lands on another one (on its top or shoulder) is driven back into it by gravity in a geometric
series of bounces; the flat loop's sustained-contact rule (ZENO_WINDOW, ZENO_SPEED) ends each such contact
by turning the upper ball's velocity at constant speed until it parts at ZENO_PART, so it hops off the other
ball in short flights and slides off it with no energy added.
Behind each pocket's mouth the rail is cut through (``air_liner_time``; the geometry in TableSpec's notes): the
hole's wall, the liner, is a vertical cylinder of radius r_L, tangent to both facings at their back ends and present
only on its arc behind them (a wedge from its centre), up to z_r = the nose height z_n: its top edge continues the
facings' nose edges (tangent to them at their ends, the same height), so the nose edge runs unbroken from a jaw
along the facing round the back of the pocket (with the edge at the rail's top, 1.8 mm higher, a ball on the
facing's nose would meet that step inside the edge). A ball in the hole whose centre
is at or below z_r when its plan distance from the liner's centre reaches r_L − R meets the wall (a frictionless
impulse along the radius with restitution e_liner, vertical velocity kept); one above it meets the top edge, the
circle of radius r_L at z_r (the same frictionless impulse along the 3-D normal from the edge), where
(ρ − r_L)² + w² = R², the jaw edge's degree-8 polynomial seen from inside; one whose bottom clears the edge as its
centre passes the circle flies on over the rail around the pocket and leaves the table as over any rail (the rail
top there is the rail's, rail_height: it comes down on it, or passes the outer edge of either rail beside the
pocket; as behind a cushion it cleared, a ball whose bottom is between the nose and the rail top leaves at once).
So a ball
that flies low through a mouth meets the back of the pocket and drops into it (it is pocketed when it comes down
inside the capture circle, or rattles out onto the cloth of the mouth if it comes down outside it); only one
above the nose flies over the pocket. A ball over a cushion's rail whose centre comes over a liner's circle is
over the hole again (its bottom is above the rail top) and flies on as any ball in the air. Sustained contacts
with the liner end at once, adding no energy (air.py): a ball that meets the wall at under ZENO_SPEED (a grazing
run round the concave wall, which would repeat in a converging series) is held by the leather and drops; a contact
with the top edge whose rebound would rise less than min_bounce_height is absorbed, as the cloth absorbs such a
bounce, and the ball, lying on the edge (gravity would drive it back in ever tinier hops), slides off it to the side
its centre lies on: into the hole, where it is pocketed, or onto the rail around the pocket, where it leaves the table.
The nose edge is met whichever way the ball moves in plan: a ball falling along the nose, or away from it in plan
within R of the cushion line, comes down onto it, and so does one that started behind a facing's line (which runs on
across the table) and comes over the facing in front of it. A ball lying on a cushion's nose (a rebound below
min_bounce_height) slides off it to the side its centre lies on: over the rail it leaves the table; over the table
it slides on the circle of radius R round the edge, frictionless and energy conserved, to where the edge no longer
holds it (v² = gR cos θ) and flies on (air._slide_off_nose; the slide takes no time, as the flat loop's contact
phases take none).
"""

import math

import numpy as np

from physics.kernels.detect import CONTACT_BAND
from physics.kernels.jit import kernel
from physics.kernels.roots import first_crossing, first_crossing_poly
from physics.params import (
    P_E_TABLE, P_G, P_M, P_MIN_BOUNCE, P_R, P_THROW_A, P_THROW_B, P_THROW_C, P_U_TABLE,
)

INF = np.inf
# What an airborne ball meets at a cushion line
AIR_FACE, AIR_NOSE, AIR_CLEAR = 0, 1, 2


@kernel
def landing_time(h, vz, g):
    """Time until a ball whose bottom is h ≥ 0 above the cloth, rising at vz, lands [s]."""
    h = max(h, 0.0)
    return (vz + math.sqrt(vz * vz + 2.0 * g * h)) / g


@kernel
def rises(vz, p):
    """Whether a ball leaving the cloth at vz [m/s] rises at least min_bounce_height (v² > 2 g h_min)."""
    return vz > 0.0 and vz * vz > 2.0 * p[P_G] * p[P_MIN_BOUNCE]


@kernel
def leaves_cloth(vz, p):
    """Whether a ball on the cloth that a ball–ball contact gave the vertical velocity vz leaves it: rising at
    vz > 0, or driven into the slate at vz < 0 and bouncing at e_table·|vz|, at least min_bounce_height (the test
    air.vertical applies)."""
    return rises(vz if vz > 0.0 else -p[P_E_TABLE] * vz, p)


@kernel
def slate_bounce(vx, vy, vz, wx, wy, wz, e, p):
    """A ball meeting the slate at vz < 0 with restitution e (e_table for a landing or a ball driven down by
    a ball, e_strike for the cue's strike): (vx, vy, vz, wx, wy, wz, airborne).

    Normal impulse J_n = m (1 + e)|vz|; friction at the contact point against the slip
    u = v + ω × (−R ẑ), J_t = min(u_table·J_n, 2/7·m·|u|). A rebound below min_bounce_height is
    absorbed with no friction impulse (the flat model's cloth): vz = 0, airborne False.
    """
    up = -e * vz
    if not rises(up, p):
        return vx, vy, 0.0, wx, wy, wz, False
    R = p[P_R]
    m = p[P_M]
    jn = m * (1.0 + e) * (-vz)
    ux = vx - R * wy
    uy = vy + R * wx
    un = math.sqrt(ux * ux + uy * uy)
    if un > 0.0:
        jt = min(p[P_U_TABLE] * jn, 2.0 / 7.0 * m * un)
        k = jt / (m * un)
        vx -= k * ux
        vy -= k * uy
        kw = 2.5 * k / R  # R·J_t/I per unit of slip
        wx -= kw * uy
        wy += kw * ux
    return vx, vy, up, wx, wy, wz, True


@kernel
def ball_ball_time_3d(x1, y1, z1, vx1, vy1, vz1, ax1, ay1, az1, x2, y2, z2, vx2, vy2, vz2, ax2, ay2, az2, R, T):
    """Time until two balls (centres quadratic in t in 3-D) touch while approaching, within [0, T]; inf if not."""
    dx = x1 - x2
    dy = y1 - y2
    dz = z1 - z2
    dvx = vx1 - vx2
    dvy = vy1 - vy2
    dvz = vz1 - vz2
    dax = 0.5 * (ax1 - ax2)
    day = 0.5 * (ay1 - ay2)
    daz = 0.5 * (az1 - az2)
    c4 = dax * dax + day * day + daz * daz
    c3 = 2.0 * (dvx * dax + dvy * day + dvz * daz)
    c2 = dvx * dvx + dvy * dvy + dvz * dvz + 2.0 * (dx * dax + dy * day + dz * daz)
    c1 = 2.0 * (dx * dvx + dy * dvy + dz * dvz)
    c0 = dx * dx + dy * dy + dz * dz - 4.0 * R * R
    return first_crossing(c4, c3, c2, c1, c0, T, 4.0 * R * CONTACT_BAND)


@kernel
def air_cushion_time(x, y, zc, vx, vy, vz, g, x1, y1, x2, y2, nx, ny, R, zn, T):
    """First contact of an airborne ball (centre height zc) with the cushion (x1, y1)–(x2, y2) of inward normal
    (nx, ny) within [0, T]: (t, AIR_FACE | AIR_NOSE | AIR_CLEAR), (inf, -1) if none (see the module notes).

    Only contacts while the centre's projection lies on the segment count; past its ends the jaws take over
    (``air_jaw_time``), so the search runs on the window of time in which the projection is on the segment:
    a ball that meets the line's face or nose beyond an end can still meet the cushion once it comes over it.
    """
    d0 = nx * (x - x1) + ny * (y - y1)
    d1 = nx * vx + ny * vy
    if (d1 <= 0.0 and d0 < 0.0) or (d1 >= 0.0 and d0 >= R):
        return INF, -1  # behind the line for good, or never within R of it
    # the window [lo, hi] in which the centre's projection s(t) = s0 + s1 t lies on the segment
    ex = x2 - x1
    ey = y2 - y1
    e2 = ex * ex + ey * ey
    s0 = ((x - x1) * ex + (y - y1) * ey) / e2
    s1 = (vx * ex + vy * ey) / e2
    lo = 0.0
    hi = T
    if s1 == 0.0:
        if not 0.0 <= s0 <= 1.0:
            return INF, -1
    else:
        ta = -s0 / s1
        tb = (1.0 - s0) / s1
        lo = max(0.0, min(ta, tb))
        hi = min(T, max(ta, tb))
    if not lo <= hi:
        return INF, -1
    # Behind the line (d < 0) over the segment is over the rail: a ball there (one that flew over the rail and comes
    # back over the playing area, air.py) meets the cushion only from the moment its centre comes over the line. A
    # facing's line also runs on across the table, so a ball may start behind it beside the segment and come over the
    # segment in front of it (moving away from it in plan) while it comes down onto the nose.
    if d0 + d1 * lo < 0.0:
        if d1 <= 0.0:
            return INF, -1
        lo = -d0 / d1
        if lo > hi:
            return INF, -1
    if d1 >= 0.0 and d0 + d1 * lo >= R:
        return INF, -1
    # face: the centre reaches distance R of the cushion line with the centre at or below the nose (a ball that
    # moves away from the line in plan, within R of it, meets no face and never crosses the line, but it may still
    # come down onto the nose edge: a ball falling along the nose)
    if d1 < 0.0:
        tf = (d0 - R) / (-d1)
        if tf < 0.0:
            tf = 0.0 if d0 - R >= -CONTACT_BAND else -1.0
        if tf > hi:
            return INF, -1  # farther than R from the line while over the segment: no face, nose or clearing
        if tf >= lo and zc + vz * tf - 0.5 * g * tf * tf <= zn:
            return tf, AIR_FACE
    # nose edge: (d + d1 t)² + (c + vz t − ½ g t²)² = R² with the centre above the nose, from the window's start
    d = d0 + d1 * lo
    c = zc - zn + vz * lo - 0.5 * g * lo * lo
    w1 = vz - g * lo
    e = -0.5 * g
    t = first_crossing(e * e, 2.0 * w1 * e, w1 * w1 + 2.0 * c * e + d1 * d1, 2.0 * c * w1 + 2.0 * d * d1,
                       c * c + d * d - R * R, hi - lo, 2.0 * R * CONTACT_BAND) + lo
    tx = d0 / (-d1) if d1 < 0.0 else INF  # the centre crosses the cushion line
    if t < tx and t <= hi:
        if zc + vz * t - 0.5 * g * t * t > zn:
            return t, AIR_NOSE
        return INF, -1
    if lo <= tx <= hi:
        return tx, AIR_CLEAR
    return INF, -1


@kernel(inline="always", refcounts=True)
def edge_poly(q0, q1, q2, w0, w1, w2, r, R):
    """The degree-8 polynomial in t whose roots are where a flying ball meets a horizontal circular edge of radius r:
    ρ² = q0 + q1 t + q2 t² is the centre's squared plan distance from the circle's axis, w = w0 + w1 t + w2 t² its
    height above the edge. (ρ² + r² + w² − R²)² − 4 r² ρ² = 0 is the product of (ρ − r)² + w² − R² (the edge's
    torus) and (ρ + r)² + w² − R² (> 0 whenever the ball is near the edge). Shared by the jaw posts and the liners."""
    a = np.empty(5)
    a[0] = q0 + w0 * w0 + r * r - R * R
    a[1] = q1 + 2.0 * w0 * w1
    a[2] = q2 + w1 * w1 + 2.0 * w0 * w2
    a[3] = 2.0 * w1 * w2
    a[4] = w2 * w2
    c = np.zeros(9)
    for i in range(5):
        for j in range(5):
            c[i + j] += a[i] * a[j]
    k = 4.0 * r * r
    c[0] -= k * q0
    c[1] -= k * q1
    c[2] -= k * q2
    return c


@kernel(refcounts=True)  # it allocates the edge polynomial (edge_poly)
def air_jaw_time(x, y, zc, vx, vy, vz, g, jx, jy, rj, R, zn, T):
    """First contact of an airborne ball (centre height zc) with the pocket jaw (jx, jy, rj) within [0, T]:
    (t, AIR_FACE: its post | AIR_NOSE: its rounded top edge | AIR_CLEAR: the centre passes over the post onto
    the cushion), (inf, -1) if none.

    The jaw is the cushion's corner rounded in plan: a vertical post of radius rj up to the nose height zn,
    whose top edge, the circle of radius rj at zn, joins the nose edges of the cushion and of the pocket facing
    (it is tangent to both). A ball whose centre is at or below zn when it reaches distance R + rj in plan meets
    the post; one above it meets the edge where (ρ − rj)² + w² = R² (ρ: plan distance to the jaw's centre, w:
    the centre's height above zn), unless its centre comes over the post first, its bottom above the edge.
    """
    px = x - jx
    py = y - jy
    q2 = vx * vx + vy * vy
    q1 = 2.0 * (px * vx + py * vy)
    q0 = px * px + py * py
    rc = R + rj
    tm = 0.0
    if q2 > 0.0:
        tm = min(max(-q1 / (2.0 * q2), 0.0), T)
    if q0 + (q1 + q2 * tm) * tm >= rc * rc:
        return INF, -1  # never within R + rj in plan
    tp = first_crossing(0.0, 0.0, q2, q1, q0 - rc * rc, T, 2.0 * rc * CONTACT_BAND)
    if tp <= T and zc + vz * tp - 0.5 * g * tp * tp <= zn:
        return tp, AIR_FACE
    # The edge, squared twice: (ρ² + rj² + w² − R²)² − 4 rj² ρ² = 0, of degree 8 in t. It is the product of
    # (ρ − rj)² + w² − R² and (ρ + rj)² + w² − R² (the larger one): from outside, its first root is the edge's.
    c = edge_poly(q0, q1, q2, zc - zn, vz, -0.5 * g, rj, R)
    tt = first_crossing_poly(c, T, 2.0 * R * CONTACT_BAND * 4.0 * rj * rc)
    tc = first_crossing(0.0, 0.0, q2, q1, q0 - rj * rj, T, 0.0)  # the centre comes over the post
    if tt <= T and tt <= tc and zc + vz * tt - 0.5 * g * tt * tt >= zn:
        return tt, AIR_NOSE
    if tc <= T:
        return tc, AIR_CLEAR
    return INF, -1


@kernel
def _wedge_window(x, y, vx, vy, lx, ly, mx, my, lo, hi):
    """Narrow [lo, hi] to the times at which the centre (x, y) + (vx, vy) t is on the half-plane m·(r − l) ≥ 0."""
    s0 = mx * (x - lx) + my * (y - ly)
    s1 = mx * vx + my * vy
    if s1 == 0.0:
        return (lo, hi) if s0 >= 0.0 else (INF, -INF)
    tr = -s0 / s1
    if s1 > 0.0:
        return max(lo, tr), hi
    return lo, min(hi, tr)


@kernel(refcounts=True)  # it allocates the edge polynomial (edge_poly)
def air_liner_time(x, y, zc, vx, vy, vz, g, lx, ly, rl, m1x, m1y, m2x, m2y, R, zr, T):
    """First contact of an airborne ball (centre height zc) with a pocket's liner (centre (lx, ly), radius rl, its
    arc the wedge m1·(r − l) ≥ 0, m2·(r − l) ≥ 0; top edge at zr) within [0, T]: (t, AIR_FACE: the wall |
    AIR_NOSE: the top edge | AIR_CLEAR: the centre passes over the circle, the bottom above the edge), (inf, -1) if
    none (see the module notes).

    In plan an airborne ball moves on a straight line, so the time it spends over the arc (inside the wedge, a
    convex one: the arc is at most half the circle) is one window; the wall is met when ρ(t), the plan distance
    from the centre, last reaches rl − R in that window with the centre at or below zr (the larger root of a
    quadratic: a ball in the hole meets the wall from inside); the edge is the first root of
    (ρ² + rl² + w² − R²)² − 4 rl² ρ² = ((ρ − rl)² + w² − R²)((ρ + rl)² + w² − R²) (w: the centre's height above
    zr), expanded from the window's start, whose second factor is positive (rl > R).
    """
    if not rl > R:
        return INF, -1
    lo, hi = _wedge_window(x, y, vx, vy, lx, ly, m1x, m1y, 0.0, T)
    lo, hi = _wedge_window(x, y, vx, vy, lx, ly, m2x, m2y, lo, hi)
    if not lo <= hi:
        return INF, -1
    px = x - lx
    py = y - ly
    q2 = vx * vx + vy * vy
    q1 = 2.0 * (px * vx + py * vy)
    q0 = px * px + py * py
    # the wall: the last time ρ = rl − R, over the arc (one that comes onto the arc beyond the circle is over the rail
    # beside the hole, which the facing or the rail's exit has dealt with);
    # a ball with no plan motion meets no wall and never passes over the circle (it may still drop onto the edge)
    rw = rl - R
    disc = q1 * q1 - 4.0 * q2 * (q0 - rw * rw)
    best = INF
    what = -1
    if q2 > 0.0 and disc >= 0.0:
        tw = (-q1 + math.sqrt(disc)) / (2.0 * q2)
        if tw < lo and q0 + (q1 + q2 * lo) * lo < rl * rl:
            tw = lo  # it comes over the arc's end already beyond rl − R (by rounding, beside the facing's end)
        if lo <= tw <= hi and zc + vz * tw - 0.5 * g * tw * tw <= zr:
            best, what = tw, AIR_FACE
    # the top edge, from the window's start
    ax = px + vx * lo
    ay = py + vy * lo
    r1 = 2.0 * (ax * vx + ay * vy)
    r0 = ax * ax + ay * ay
    c = edge_poly(r0, r1, q2, zc + vz * lo - 0.5 * g * lo * lo - zr, vz - g * lo, -0.5 * g, rl, R)
    span = min(hi, best) - lo
    if span >= 0.0:
        tt = lo + first_crossing_poly(c, span, 2.0 * R * CONTACT_BAND * 4.0 * rl * (rl + R))
        if tt < best:
            best, what = tt, AIR_NOSE
    # the centre passes over the circle (its bottom then clears the edge: it would have touched it otherwise)
    disc = q1 * q1 - 4.0 * q2 * (q0 - rl * rl)
    if q2 > 0.0 and disc >= 0.0:
        tc = (-q1 + math.sqrt(disc)) / (2.0 * q2)
        if lo <= tc <= hi and tc < best:
            best, what = tc, AIR_CLEAR
    return best, what


@kernel
def liner_edge_normal(x, y, zc, lx, ly, rl, zr):
    """Unit normal (from the liner's top edge to the ball centre) of a ball touching the edge from inside the hole:
    the edge point nearest to the centre is on the circle of radius rl at height zr, in the centre's plan direction."""
    return jaw_edge_normal(x, y, zc, lx, ly, rl, zr)


@kernel
def jaw_edge_normal(x, y, zc, jx, jy, rj, zn):
    """Unit normal (from the jaw's top edge to the ball centre) of a ball touching the edge: the edge point
    nearest to the centre is on the circle of radius rj at height zn, under the centre's plan direction."""
    px = x - jx
    py = y - jy
    rho = math.sqrt(px * px + py * py)
    if rho > 0.0:
        ex = jx + rj * px / rho
        ey = jy + rj * py / rho
    else:
        ex = jx
        ey = jy
    dx = x - ex
    dy = y - ey
    dz = zc - zn
    norm = math.sqrt(dx * dx + dy * dy + dz * dz)
    return dx / norm, dy / norm, dz / norm


@kernel
def nose_impact(vx, vy, vz, dx, dy, dz, e):
    """Velocity after a frictionless impact along the unit normal (dx, dy, dz) (from the nose to the centre)."""
    vn = vx * dx + vy * dy + vz * dz
    if vn >= 0.0:
        return vx, vy, vz
    k = (1.0 + e) * vn
    return vx - k * dx, vy - k * dy, vz - k * dz


@kernel
def ball_ball_3d(x1, y1, z1, vx1, vy1, vz1, wx1, wy1, wz1, x2, y2, z2, vx2, vy2, vz2, wx2, wy2, wz2, e, p):
    """Post-collision (vx, vy, vz, wx, wy, wz) of both of two equal balls touching in 3-D (one of them in the air).

    The flat model's impulse (resolve.ball_ball, "alciatore") with the contact normal n in 3-D: normal
    impulse 0.5 m (1 + e) v_n, friction µ(v) = a + b·exp(−c·v) at the contact, capped at the impulse that
    stops the slip (m·|s_t|/7); the torque on both balls is (R n × P)/I.
    """
    R = p[P_R]
    m = p[P_M]
    inertia = 0.4 * m * R * R
    nx = x2 - x1
    ny = y2 - y1
    nz = z2 - z1
    d = math.sqrt(nx * nx + ny * ny + nz * nz)
    nx /= d
    ny /= d
    nz /= d
    vn = (vx1 - vx2) * nx + (vy1 - vy2) * ny + (vz1 - vz2) * nz
    if vn <= 0.0:
        return vx1, vy1, vz1, wx1, wy1, wz1, vx2, vy2, vz2, wx2, wy2, wz2
    jn = 0.5 * m * (1.0 + e) * vn
    # slip of ball 1's contact point (+R n) relative to ball 2's (−R n): Δv + (ω1 + ω2) × R n
    sx_ = wx1 + wx2
    sy_ = wy1 + wy2
    sz_ = wz1 + wz2
    sx = (vx1 - vx2) + R * (sy_ * nz - sz_ * ny)
    sy = (vy1 - vy2) + R * (sz_ * nx - sx_ * nz)
    sz = (vz1 - vz2) + R * (sx_ * ny - sy_ * nx)
    sn = sx * nx + sy * ny + sz * nz
    tx = sx - sn * nx
    ty = sy - sn * ny
    tz = sz - sn * nz
    slip_speed = math.sqrt(tx * tx + ty * ty + tz * tz)
    jt = 0.0
    if slip_speed > 0.0:
        mu = p[P_THROW_A] + p[P_THROW_B] * math.exp(-p[P_THROW_C] * slip_speed)
        jt = min(mu * jn, m * slip_speed / 7.0)
        tx /= slip_speed
        ty /= slip_speed
        tz /= slip_speed
    px = -jn * nx - jt * tx
    py = -jn * ny - jt * ty
    pz = -jn * nz - jt * tz
    k = R / inertia
    dwx = k * (ny * pz - nz * py)
    dwy = k * (nz * px - nx * pz)
    dwz = k * (nx * py - ny * px)
    return (vx1 + px / m, vy1 + py / m, vz1 + pz / m, wx1 + dwx, wy1 + dwy, wz1 + dwz,
            vx2 - px / m, vy2 - py / m, vz2 - pz / m, wx2 + dwx, wy2 + dwy, wz2 + dwz)
