"""Balls in the air (physics/kernels/flight.py has their flight and contacts): the steps of the event loop
(loop.py) for a shot in which a ball left the cloth.

The loop runs here from a shot's start when its cue strike lifts the cue ball off the cloth (``lifts_off``), or from
the contact between two balls on the cloth whose vertical friction impulse lifts one of them (flight.leaves_cloth:
the follow-shot hop). A shot in which no ball leaves the cloth never comes here, so it is the flat model bit for bit.
These steps add, for balls in the air: their landing, their 3-D contacts with each other and with balls on the cloth,
the cushion face, nose and clearing, the jaws, the pockets' liners (the wall and top edge of the hole through the rail
behind each mouth) and the rail around them (rail.py), their cached event times, and the per-event height and
vertical velocity in ``ev_air``; events of balls on the cloth are the loop's own.
"""

import math

from physics.kernels.codes import (
    AIRBORNE, EV_AIRBORNE, EV_BALL_BALL, EV_CLEAR, EV_CUSHION, EV_JAW, EV_JAW_CLEAR, EV_JAW_NOSE, EV_LANDING, EV_LINER,
    EV_LINER_CLEAR, EV_LINER_EDGE, EV_NOSE, EV_OFF_TABLE, EV_POCKET, EV_RAIL_RETURN, EV_TRANSITION, OFF_TABLE,
    POCKETED,
)
from physics.kernels.flight import (
    AIR_CLEAR, AIR_FACE, air_cushion_time, air_jaw_time, air_liner_time, ball_ball_3d, ball_ball_time_3d,
    jaw_edge_normal, landing_time, liner_edge_normal, nose_impact, rises, slate_bounce,
)
from physics.kernels.jit import kernel
from physics.kernels.layout import IN_POCKET, OK, ball_region
from physics.kernels.steps import (
    INF, ZENO_PART, ZENO_SPEED, ZENO_WINDOW, axis_range, boxes_apart, circle_off_box, reclassify, record,
    refresh_ball,
)
from physics.kernels.rail import edge_time, return_time, top_time
from physics.kernels.resolve import ball_cushion, ball_jaw, cue_strike
from physics.params import P_CUSHION_H, P_E_LINER, P_E_STRIKE, P_E_TABLE, P_EB, P_EC, P_G, P_R
from physics.table import (
    L_K1, L_M1X, L_M1Y, L_M2X, L_M2Y, L_R, L_X, L_Y, LINER_STRIDE, RAIL_HEIGHT, RAIL_LINERS, RAIL_N_LINERS,
)

# ``over`` (per ball, the rail it flies over): a cushion k, or OVER_POCKET + k for the rail around pocket k
OVER_POCKET = 1000
# [m] A ball that lands this close outside a cushion line still lies on the playing surface (rounding).
LANDING_TOL = 1e-6


@kernel
def lifts_off(shot, p):
    """Whether the cue strike ``shot`` (V0, phi, theta, a, b) drives the cue ball into the slate hard enough
    that it bounces up at least min_bounce_height (and so takes this loop)."""
    vz = cue_strike(shot[0], shot[1], shot[2], shot[3], shot[4], p)[2]
    return vz < 0.0 and rises(-p[P_E_STRIKE] * vz, p)


# the air event's helpers: inline="llvm", compiled once (numba's IR inlining re-translated them in the event: ~0.5 s of
# a cold compile), the same code once LLVM has inlined them
@kernel(inline="llvm")
def _landing_region(x, y, width, length, segments, jaws, pockets, R):
    """Where a ball in the air that comes down to the cloth's level at (x, y) lands: in pocket k when its centre is
    over k's capture circle (a side pocket's circle lies mostly beyond the cushion line, where a ball reaches it only
    through the mouth and the hole: the liner keeps it from the rail around), else ``ball_region``."""
    for k in range(pockets.shape[0]):
        dx = x - pockets[k, 0]
        dy = y - pockets[k, 1]
        if dx * dx + dy * dy < pockets[k, 2] * pockets[k, 2]:
            return IN_POCKET, k
    return ball_region(x, y, width, length, segments, jaws, pockets, R, LANDING_TOL)


@kernel(inline="always")
def air_box(i, tau, pos, vel, box):
    """Planar box around an airborne ball's straight path over [0, tau]."""
    box[i, 0], box[i, 1] = axis_range(pos[i, 0], vel[i, 0], 0.0, tau)
    box[i, 2], box[i, 3] = axis_range(pos[i, 1], vel[i, 1], 0.0, tau)


@kernel
def record_air(i_ev, a, b, hz, vz, ev_air):
    """Height and vertical velocity of ball_a and ball_b of logged event i_ev (the columns of an (n, 4) log)."""
    if i_ev < ev_air.shape[0]:
        if a >= 0:
            ev_air[i_ev, 0] = hz[a]
            ev_air[i_ev, 1] = vz[a]
        if b >= 0:
            ev_air[i_ev, 2] = hz[b]
            ev_air[i_ev, 3] = vz[b]


@kernel
def _refresh_air(i, skip, t, pos, vel, motion, hz, vz, segments, jaws, rail, p,
                 t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, acc, box):
    """Cached event times of airborne ball i: landing, 3-D ball contacts, cushion face / nose / clearing, jaws,
    the pockets' liners.

    No pocket capture in the air: a ball over a pocket drops into it when it lands there.
    """
    n = pos.shape[0]
    R = p[P_R]
    g = p[P_G]
    zn = p[P_CUSHION_H]
    tau = landing_time(hz[i], vz[i], g)
    t_trans[i] = t + tau
    acc[i, 0] = 0.0
    acc[i, 1] = 0.0
    air_box(i, tau, pos, vel, box)
    x, y, zc = pos[i, 0], pos[i, 1], R + hz[i]
    vx, vy, vzi = vel[i, 0], vel[i, 1], vz[i]
    for j in range(n):
        if j == i or j == skip:
            continue
        tij = INF
        sj = motion[j]
        if (sj < POCKETED or sj == AIRBORNE) and not boxes_apart(box, i, j, 2.0 * R):
            if sj == AIRBORNE:
                zj, vzj, azj = R + hz[j], vz[j], -g
            else:
                zj, vzj, azj = R, 0.0, 0.0
            dt = ball_ball_time_3d(x, y, zc, vx, vy, vzi, 0.0, 0.0, -g, pos[j, 0], pos[j, 1], zj, vel[j, 0], vel[j, 1],
                                   vzj, acc[j, 0], acc[j, 1], azj, R, min(tau, t_trans[j] - t))
            tij = t + dt
        t_pair[i, j] = tij
        t_pair[j, i] = tij
    best = INF
    kind = -1
    ident = -1
    for k in range(segments.shape[0]):
        if (min(segments[k, 0], segments[k, 2]) - R > box[i, 1] or max(segments[k, 0], segments[k, 2]) + R < box[i, 0]
                or min(segments[k, 1], segments[k, 3]) - R > box[i, 3]
                or max(segments[k, 1], segments[k, 3]) + R < box[i, 2]):
            continue
        dt, what = air_cushion_time(x, y, zc, vx, vy, vzi, g, segments[k, 0], segments[k, 1], segments[k, 2],
                                    segments[k, 3], segments[k, 4], segments[k, 5], R, zn, tau)
        if dt < best:
            best, ident = dt, k
            kind = EV_CUSHION if what == AIR_FACE else (EV_CLEAR if what == AIR_CLEAR else EV_NOSE)
    for k in range(jaws.shape[0]):
        if circle_off_box(box, i, jaws[k, 0], jaws[k, 1], jaws[k, 2] + R):
            continue
        dt, what = air_jaw_time(x, y, zc, vx, vy, vzi, g, jaws[k, 0], jaws[k, 1], jaws[k, 2], R, zn, tau)
        if dt < best:
            best, ident = dt, k
            kind = EV_JAW if what == AIR_FACE else (EV_JAW_CLEAR if what == AIR_CLEAR else EV_JAW_NOSE)
    for k in range(int(rail[RAIL_N_LINERS])):  # the liners, as high as the nose (flight.py)
        o = RAIL_LINERS + k * LINER_STRIDE
        lx, ly, rl = rail[o + L_X], rail[o + L_Y], rail[o + L_R]
        if circle_off_box(box, i, lx, ly, rl + R):
            continue
        dt, what = air_liner_time(x, y, zc, vx, vy, vzi, g, lx, ly, rl, rail[o + L_M1X], rail[o + L_M1Y],
                                  rail[o + L_M2X], rail[o + L_M2Y], R, zn, tau)
        if dt < best:
            best, ident = dt, k
            kind = EV_LINER if what == AIR_FACE else (EV_LINER_CLEAR if what == AIR_CLEAR else EV_LINER_EDGE)
    t_rail[i] = t + best
    rail_kind[i] = kind
    rail_id[i] = ident
    t_pocket[i] = INF


@kernel
def _pairs_with_air(i, skip, t, pos, vel, motion, hz, vz, p, t_trans, t_pair, acc, box):
    """3-D contact times of ball i on the cloth with every airborne ball (loop.refresh_ball leaves them inf)."""
    R = p[P_R]
    g = p[P_G]
    for j in range(pos.shape[0]):
        if j == i or j == skip or motion[j] != AIRBORNE or boxes_apart(box, i, j, 2.0 * R):
            continue
        dt = ball_ball_time_3d(pos[i, 0], pos[i, 1], R, vel[i, 0], vel[i, 1], 0.0, acc[i, 0], acc[i, 1], 0.0,
                               pos[j, 0], pos[j, 1], R + hz[j], vel[j, 0], vel[j, 1], vz[j], 0.0, 0.0, -g, R,
                               min(t_trans[i] - t, t_trans[j] - t))
        t_pair[i, j] = t + dt
        t_pair[j, i] = t + dt


@kernel
def _over_target(k, rail):
    """The cushion a BALL_OFF_TABLE names for a ball over rail ``k`` (``over``): k, or the first cushion beside the
    pocket whose rail it flies over."""
    if k >= OVER_POCKET:
        return int(rail[RAIL_LINERS + (k - OVER_POCKET) * LINER_STRIDE + L_K1])
    return k


@kernel(inline="llvm")
def _nearest_jaw(x, y, jaws):
    """The jaw nearest to (x, y): the target a liner contact is logged with (a pocket's contacts count as a cushion's)."""
    best = INF
    which = -1
    for k in range(jaws.shape[0]):
        d = (x - jaws[k, 0]) ** 2 + (y - jaws[k, 1]) ** 2
        if d < best:
            best, which = d, k
    return which


@kernel
def refresh(i, skip, t, pos, vel, spin, motion, hz, vz, over, rail, width, length, segments, jaws, pockets, p,
             t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box):
    """Every cached event time that involves ball i, in the air or on the cloth (absolute times)."""
    if motion[i] == AIRBORNE:
        _refresh_air(i, skip, t, pos, vel, motion, hz, vz, segments, jaws, rail, p,
                     t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, acc, box)
        if over[i] >= 0:  # over the rail: it meets balls (3-D, as above), no cushion; it leaves the table when it comes
            # down onto the rail's top or its centre crosses the rail's outer edge, unless it comes back over the
            # playing area first (rail.py, docs/table.md)
            t_trans[i] = t + min(top_time(hz[i], vz[i], rail[RAIL_HEIGHT], p[P_G]),
                                 edge_time(pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1], width, length, rail))
            t_rail[i] = INF
            te = t + return_time(pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1], segments, jaws, rail)
            if te < t_trans[i]:
                t_rail[i] = te
                rail_kind[i] = EV_RAIL_RETURN
                rail_id[i] = -1
        return
    refresh_ball(i, skip, t, pos, vel, spin, motion, segments, jaws, pockets, p,
                  t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box)
    if motion[i] < POCKETED:
        _pairs_with_air(i, skip, t, pos, vel, motion, hz, vz, p, t_trans, t_pair, acc, box)


@kernel
def advance_air(pos, vel, motion, hz, vz, dt, p):
    """Move every airborne ball dt seconds along its parabola (the flat loop moves the others)."""
    if dt <= 0.0:
        return
    g = p[P_G]
    for i in range(pos.shape[0]):
        if motion[i] == AIRBORNE:
            pos[i, 0] += vel[i, 0] * dt
            pos[i, 1] += vel[i, 1] * dt
            hz[i] += vz[i] * dt - 0.5 * g * dt * dt
            vz[i] -= g * dt


@kernel
def vertical(i, vzi, e, vel, spin, motion, hz, vz, p):
    """Ball i on the cloth that an impulse gave the vertical velocity vzi: into the slate it bounces
    (``slate_bounce`` with restitution e); it leaves the cloth if it rises at least min_bounce_height (returns True), else the
    cloth absorbs vzi and the ball's motion is reclassified, as in the flat model."""
    if vzi < 0.0:
        vx, vy, up, wx, wy, wz, air = slate_bounce(vel[i, 0], vel[i, 1], vzi, spin[i, 0], spin[i, 1], spin[i, 2], e, p)
        if air:
            vel[i, 0] = vx
            vel[i, 1] = vy
            spin[i, 0] = wx
            spin[i, 1] = wy
            spin[i, 2] = wz
        vzi = up
    hz[i] = 0.0
    if rises(vzi, p):
        motion[i] = AIRBORNE
        vz[i] = vzi
        return True
    vz[i] = 0.0
    reclassify(i, vel, spin, motion, p)
    return False


@kernel(inline="llvm")
def _separation(i, j, pos, vel, hz, vz):
    """Speed at which ball j moves away from ball i along the 3-D line of centres (negative: approaching)."""
    nx = pos[j, 0] - pos[i, 0]
    ny = pos[j, 1] - pos[i, 1]
    nz = hz[j] - hz[i]
    d = math.sqrt(nx * nx + ny * ny + nz * nz)
    return ((vel[j, 0] - vel[i, 0]) * nx + (vel[j, 1] - vel[i, 1]) * ny + (vz[j] - vz[i]) * nz) / d


@kernel
def _part_air(i, j, pos, vel, spin, motion, hz, vz):
    """End the sustained contact of airborne ball i resting on ball j: turn i's 3-D velocity, at constant
    speed, just enough for it to part from j at ZENO_PART (along the line of centres at its full speed when it
    is too slow for that); when j drives into i faster than i can get away so, turn j too, at constant speed,
    until they part at ZENO_PART.

    Gravity drives a ball that lies on another (on its top or its shoulder) back into it: the bounces form a
    geometric (Zeno) series, as in the flat loop's sustained contacts. Parted this way the ball hops on the
    other ball's surface in short flights and slides off it, pushing it, with no energy added. A ball on the
    cloth that rolls or slides into the shoulder of one lying on it (soak seed 13, shot 87071) would otherwise
    keep catching it up: each contact's impulse is as small as its approach, and the series never ends.
    """
    nx = pos[i, 0] - pos[j, 0]
    ny = pos[i, 1] - pos[j, 1]
    nz = hz[i] - hz[j]
    d = math.sqrt(nx * nx + ny * ny + nz * nz)
    nx /= d
    ny /= d
    nz /= d
    vjn = vel[j, 0] * nx + vel[j, 1] * ny + vz[j] * nz
    _turn_to_part(i, nx, ny, nz, vjn + ZENO_PART, vel, vz)
    vin = vel[i, 0] * nx + vel[i, 1] * ny + vz[i] * nz
    if vin - vjn >= ZENO_PART:
        return
    if motion[j] == AIRBORNE:
        _turn_to_part(j, -nx, -ny, -nz, ZENO_PART - vin, vel, vz)
    else:
        _turn_on_cloth(j, nx, ny, vin - ZENO_PART, vel, spin)


@kernel(inline="llvm")
def _turn_on_cloth(j, nx, ny, target, vel, spin):
    """Turn ball j on the cloth about the vertical, its velocity and its spin's horizontal part by the same angle
    (its speed, spin and slip kept: the same motion in a turned direction), just enough for its velocity's part along
    (nx, ny) (the horizontal part of a 3-D unit normal) to be at most ``target`` (straight against (nx, ny) when it
    is too slow for that)."""
    vx, vy = vel[j, 0], vel[j, 1]
    h = math.sqrt(nx * nx + ny * ny)
    speed = math.sqrt(vx * vx + vy * vy)
    if h == 0.0 or speed == 0.0 or vx * nx + vy * ny <= target:
        return
    ux, uy = nx / h, ny / h
    c = target / h  # the velocity's part along (ux, uy) it needs
    vt = -vx * uy + vy * ux
    if speed <= abs(c):
        c = -speed
        s = 0.0
    else:
        s = math.copysign(math.sqrt(speed * speed - c * c), vt)
    wx = c * ux - s * uy
    wy = c * uy + s * ux
    cos = (vx * wx + vy * wy) / (speed * speed)  # the turn from (vx, vy) to (wx, wy)
    sin = (vx * wy - vy * wx) / (speed * speed)
    vel[j, 0], vel[j, 1] = wx, wy
    sx, sy = spin[j, 0], spin[j, 1]
    spin[j, 0] = cos * sx - sin * sy
    spin[j, 1] = sin * sx + cos * sy


@kernel
def _turn_to_part(i, nx, ny, nz, target, vel, vz):
    """Turn airborne ball i's 3-D velocity, at constant speed, just enough for its part along the unit normal
    (nx, ny, nz) to be at least ``target`` (along the normal at its full speed when it is too slow for that)."""
    vx, vy, vzi = vel[i, 0], vel[i, 1], vz[i]
    vin = vx * nx + vy * ny + vzi * nz
    if vin >= target:
        return
    speed = math.sqrt(vx * vx + vy * vy + vzi * vzi)
    tx = vx - vin * nx
    ty = vy - vin * ny
    tz = vzi - vin * nz
    tn = math.sqrt(tx * tx + ty * ty + tz * tz)
    if speed <= abs(target) or tn == 0.0:
        k = math.copysign(speed, target)
        vel[i, 0], vel[i, 1], vz[i] = k * nx, k * ny, k * nz
        return
    k = math.sqrt(speed * speed - target * target) / tn
    vel[i, 0] = target * nx + k * tx
    vel[i, 1] = target * ny + k * ty
    vz[i] = target * nz + k * tz


@kernel
def _slide_off_nose(i, nx, ny, ux, uz, pos, vel, motion, hz, vz, p):
    """End the sustained contact of airborne ball i lying on a cushion's nose edge (inward normal (nx, ny)), its centre
    on the table's side, at the angle θ from the vertical given by the edge's normal (ux, uz) = (sin θ, cos θ) in the
    plane across the cushion, its rebound below min_bounce_height (gravity would drive it back in a converging series).

    The nose absorbs the velocity into it (as the cloth does) and the ball slides off the edge towards the table,
    frictionless, its speed along the cushion kept: in the plane across the cushion its centre moves on the circle of
    radius R round the edge, energy conserved (v² = v0² + 2gR(cos θ0 − cos θ)), until it leaves it where the edge no
    longer holds it (v² = gR cos θ: cos θ = (v0² + 2gR cos θ0)/(3gR), the particle on a sphere), and flies on along the
    tangent. The slide itself takes no time here (the contact phase ends at once, as the flat loop's sustained
    contacts do), so the ball is moved along that arc, unless a ball lies there; a ball fast enough leaves at once.
    No energy is added: the velocity into the edge is lost, the rest is turned or comes from the drop."""
    R = p[P_R]
    g = p[P_G]
    along = -vel[i, 0] * ny + vel[i, 1] * nx
    vt = abs((vel[i, 0] * nx + vel[i, 1] * ny) * uz - vz[i] * ux)  # in the plane across the cushion, along the edge's circle
    c = min(uz, (vt * vt + 2.0 * g * R * uz) / (3.0 * g * R) - 1e-6)  # a little past where it leaves: it does not return
    if c < uz and c > 0.0:
        sn = math.sqrt(1.0 - c * c)
        shift = R * (sn - ux)
        x = pos[i, 0] + shift * nx
        y = pos[i, 1] + shift * ny
        h = hz[i] - R * (uz - c)
        free = True
        for j in range(pos.shape[0]):
            if j != i and (motion[j] < POCKETED or motion[j] == AIRBORNE):
                hj = hz[j] if motion[j] == AIRBORNE else 0.0
                if (x - pos[j, 0]) ** 2 + (y - pos[j, 1]) ** 2 + (h - hj) ** 2 < 4.0 * R * R:
                    free = False
        if free:
            pos[i, 0] = x
            pos[i, 1] = y
            hz[i] = h
            vt = math.sqrt(vt * vt + 2.0 * g * R * (uz - c))
            ux, uz = sn, c
    vp = vt * uz  # along the tangent, down the far side of the edge from the cushion
    vel[i, 0] = vp * nx - along * ny
    vel[i, 1] = vp * ny + along * nx
    vz[i] = -vt * ux
    # turned at constant speed to part from the edge at ZENO_PART: exactly along the tangent, the search's start would
    # read the rounding of a zero departure as an approach and meet the edge again at once
    _turn_to_part(i, ux * nx, ux * ny, uz, ZENO_PART, vel, vz)


@kernel
def _take_off(i, motion, pocket, vel, spin, hz, vz):
    """Ball i leaves the table: motion OFF_TABLE, at rest."""
    motion[i] = OFF_TABLE
    pocket[i] = -1
    hz[i] = 0.0
    vz[i] = 0.0
    vel[i, 0] = vel[i, 1] = 0.0
    spin[i, 0] = spin[i, 1] = spin[i, 2] = 0.0


@kernel
def finish_event(kind, a, b, target, leaves_a, leaves_b, t, count, max_events, pos, vel, spin, motion, pocket, hz, vz,
                 over, rail, ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b, ev_air):
    """Log a resolved event (``kind`` < 0: none), then BALL_AIRBORNE for each of its balls that left the cloth, and take
    off a ball that met another over the rail: returns the number of events. The loop then refreshes the event's balls
    (``refresh``): called from here, every kernel on the way compiled the refresh in again.

    The log holds at most ``max_events`` rows (the caller logs an event only below that): a take-off or a ball leaving
    the table that finds it full is not logged, and the ball stays in the air (the shot stops at the event cap)."""
    if kind >= 0:
        if count < ev_time.shape[0]:
            record(count, t, kind, a, b, target, pos, vel, spin, motion,
                    ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
            record_air(count, a, b, hz, vz, ev_air)
        count += 1
    for q in (a, b):
        if q >= 0 and (leaves_a if q == a else leaves_b) and count < max_events:
            if count < ev_time.shape[0]:
                record(count, t, EV_AIRBORNE, q, -1, -1, pos, vel, spin, motion,
                        ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
                record_air(count, q, -1, hz, vz, ev_air)
            count += 1
    if kind == EV_BALL_BALL:
        for q in (a, b):
            if over[q] >= 0 and count < max_events:  # it met a ball over the rail: the contact is resolved, it leaves
                k = _over_target(over[q], rail)
                over[q] = -1
                _take_off(q, motion, pocket, vel, spin, hz, vz)
                if count < ev_time.shape[0]:
                    record(count, t, EV_OFF_TABLE, q, -1, k, pos, vel, spin, motion,
                            ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
                    record_air(count, q, -1, hz, vz, ev_air)
                count += 1
    return count


@kernel(inline="always")
def any_airborne(motion):
    """Whether a ball is in the air. When none is, the event loop takes the flat steps again (a hopping break's balls
    land within its first events; the air's steps cost about twice as much per event): their results are the same for
    balls on the cloth, and the air log's rows, zeroed when the first ball left the cloth, are zero for them."""
    for i in range(motion.shape[0]):
        if motion[i] == AIRBORNE:
            return True
    return False


@kernel(inline="always")
def in_the_air(kind, a, b, motion):
    """Whether event (kind, a, b) is one of a ball in the air (``air_event`` resolves it) rather than of balls on the
    cloth: a ball in the air lands, meets a ball, a cushion, jaw or liner, clears them or comes back over the cloth."""
    if kind == EV_TRANSITION or kind == EV_CUSHION or kind == EV_JAW:
        return motion[a] == AIRBORNE
    if kind == EV_BALL_BALL:
        return motion[a] == AIRBORNE or motion[b] == AIRBORNE
    return kind != EV_POCKET


@kernel
def air_event(kind, a, b, t, pos, vel, spin, motion, pocket, segments, jaws, pockets, width, length, rail, p, rail_id,
              last_pair_time, air, over):
    """Resolve an event of a ball in the air (``in_the_air``) at time t, every ball advanced to it: returns what the loop
    logs (``finish_event``), (kind, target, leaves_a, leaves_b), kind -1 for an event not logged."""
    hz = air[0]
    vz = air[1]
    e_table = p[P_E_TABLE]
    target = -1
    leaves_a = False  # ball a / b left the cloth at this event (logged as EV_AIRBORNE after it)
    leaves_b = False
    if kind == EV_TRANSITION and over[a] >= 0:  # over a rail: it comes down on the rail or passes its outer edge
        kind, target = EV_OFF_TABLE, _over_target(over[a], rail)
        over[a] = -1
        _take_off(a, motion, pocket, vel, spin, hz, vz)
    elif kind == EV_TRANSITION and motion[a] == AIRBORNE:  # landing
        hz[a] = 0.0
        vx, vy, up, wx, wy, wz, bounce = slate_bounce(vel[a, 0], vel[a, 1], vz[a], spin[a, 0], spin[a, 1],
                                                      spin[a, 2], e_table, p)
        vel[a, 0] = vx
        vel[a, 1] = vy
        spin[a, 0] = wx
        spin[a, 1] = wy
        spin[a, 2] = wz
        vz[a] = up
        kind = EV_LANDING
        code, k = _landing_region(pos[a, 0], pos[a, 1], width, length, segments, jaws, pockets, p[P_R])
        if code == IN_POCKET:
            kind, target = EV_POCKET, k
            motion[a] = POCKETED
            pocket[a] = k
            vel[a, 0] = vel[a, 1] = vz[a] = 0.0
            spin[a, 0] = spin[a, 1] = spin[a, 2] = 0.0
        elif code != OK:
            kind = EV_OFF_TABLE
            _take_off(a, motion, pocket, vel, spin, hz, vz)
        elif not bounce:
            reclassify(a, vel, spin, motion, p)
    elif kind == EV_BALL_BALL and (motion[a] == AIRBORNE or motion[b] == AIRBORNE):
        since = t - last_pair_time[a, b]
        last_pair_time[a, b] = t
        R = p[P_R]
        air_a = motion[a] == AIRBORNE
        air_b = motion[b] == AIRBORNE
        upper = a if hz[a] >= hz[b] else b
        lower = b if upper == a else a
        zeno = since <= ZENO_WINDOW and _separation(lower, upper, pos, vel, hz, vz) > -ZENO_SPEED
        r3 = ball_ball_3d(pos[a, 0], pos[a, 1], R + hz[a], vel[a, 0], vel[a, 1], vz[a], spin[a, 0], spin[a, 1],
                          spin[a, 2], pos[b, 0], pos[b, 1], R + hz[b], vel[b, 0], vel[b, 1], vz[b], spin[b, 0],
                          spin[b, 1], spin[b, 2], p[P_EB], p)
        vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2] = r3[0], r3[1], r3[3], r3[4], r3[5]
        vel[b, 0], vel[b, 1], spin[b, 0], spin[b, 1], spin[b, 2] = r3[6], r3[7], r3[9], r3[10], r3[11]
        if air_a:
            vz[a] = r3[2]
        else:
            leaves_a = vertical(a, r3[2], e_table, vel, spin, motion, hz, vz, p)
        if air_b:
            vz[b] = r3[8]
        else:
            leaves_b = vertical(b, r3[8], e_table, vel, spin, motion, hz, vz, p)
        if zeno and motion[upper] == AIRBORNE:
            _part_air(upper, lower, pos, vel, spin, motion, hz, vz)
    elif (kind == EV_CUSHION or kind == EV_JAW) and motion[a] == AIRBORNE:  # face or jaw post: vz kept
        target = rail_id[a]
        if kind == EV_CUSHION:
            vx, vy, wx, wy, wz = ball_cushion(vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2],
                                              segments[target, 4], segments[target, 5], p)
        else:
            nx = pos[a, 0] - jaws[target, 0]
            ny = pos[a, 1] - jaws[target, 1]
            d = math.sqrt(nx * nx + ny * ny)
            vx, vy, wx, wy, wz = ball_jaw(vel[a, 0], vel[a, 1], spin[a, 0], spin[a, 1], spin[a, 2], nx / d, ny / d,
                                          jaws[target, 2], p)
        vel[a, 0] = vx
        vel[a, 1] = vy
        spin[a, 0] = wx
        spin[a, 1] = wy
        spin[a, 2] = wz
    elif kind == EV_NOSE:
        target = rail_id[a]
        kind = EV_CUSHION
        nx = segments[target, 4]
        ny = segments[target, 5]
        d = nx * (pos[a, 0] - segments[target, 0]) + ny * (pos[a, 1] - segments[target, 1])
        dz = p[P_R] + hz[a] - p[P_CUSHION_H]
        norm = math.sqrt(d * d + dz * dz)
        vn = (vel[a, 0] * nx + vel[a, 1] * ny) * d / norm + vz[a] * dz / norm
        if rises(-p[P_EC] * vn, p):
            vel[a, 0], vel[a, 1], vz[a] = nose_impact(vel[a, 0], vel[a, 1], vz[a], d * nx / norm, d * ny / norm,
                                                      dz / norm, p[P_EC])
        elif d <= 0.0:
            # lying on the nose, its rebound below min_bounce_height, its centre over the rail: it slides off onto
            # the rail, whose top is above the nose, and leaves the table (as a ball that clears the cushion low)
            kind = EV_OFF_TABLE
            _take_off(a, motion, pocket, vel, spin, hz, vz)
        else:
            _slide_off_nose(a, nx, ny, d / norm, dz / norm, pos, vel, motion, hz, vz, p)
    elif kind == EV_JAW_NOSE:
        target = rail_id[a]
        kind = EV_JAW
        nx, ny, nz = jaw_edge_normal(pos[a, 0], pos[a, 1], p[P_R] + hz[a], jaws[target, 0], jaws[target, 1],
                                     jaws[target, 2], p[P_CUSHION_H])
        vel[a, 0], vel[a, 1], vz[a] = nose_impact(vel[a, 0], vel[a, 1], vz[a], nx, ny, nz, p[P_EC])
    elif kind == EV_LINER:  # the wall of a pocket's hole: frictionless, e_liner, vertical velocity kept
        o = RAIL_LINERS + rail_id[a] * LINER_STRIDE
        nx = rail[o + L_X] - pos[a, 0]
        ny = rail[o + L_Y] - pos[a, 1]
        d = math.sqrt(nx * nx + ny * ny)
        nx /= d
        ny /= d
        if -(vel[a, 0] * nx + vel[a, 1] * ny) < ZENO_SPEED:
            # a slow or grazing contact with the concave wall would repeat in a converging series round it: the
            # liner holds the ball, which drops (it is inside the hole, over the capture circle)
            vel[a, 0] = vel[a, 1] = 0.0
        else:
            vel[a, 0], vel[a, 1], vz[a] = nose_impact(vel[a, 0], vel[a, 1], vz[a], nx, ny, 0.0, p[P_E_LINER])
        kind, target = EV_JAW, _nearest_jaw(pos[a, 0], pos[a, 1], jaws)
    elif kind == EV_LINER_EDGE:
        k = rail_id[a]
        o = RAIL_LINERS + k * LINER_STRIDE
        nx, ny, nz = liner_edge_normal(pos[a, 0], pos[a, 1], p[P_R] + hz[a], rail[o + L_X], rail[o + L_Y],
                                       rail[o + L_R], p[P_CUSHION_H])
        vn = vel[a, 0] * nx + vel[a, 1] * ny + vz[a] * nz
        if not rises(-p[P_E_LINER] * vn, p):
            # the rebound off the edge would rise less than min_bounce_height: the leather absorbs it, as the cloth
            # absorbs such a bounce, and the ball, lying on the edge, would only be driven back into it by gravity
            # in a converging (Zeno) series of ever tinier hops while it slides off it: it slides off to the side
            # its centre lies on, into the hole (it drops into the pocket: every centre the liner allows lies over
            # the capture circle) or onto the rail around the pocket (whose top is above the edge: it leaves the
            # table, as over any rail)
            if (pos[a, 0] - rail[o + L_X]) ** 2 + (pos[a, 1] - rail[o + L_Y]) ** 2 < rail[o + L_R] ** 2:
                kind, target = EV_POCKET, k
                motion[a] = POCKETED
                pocket[a] = k
                hz[a] = 0.0
                vel[a, 0] = vel[a, 1] = vz[a] = 0.0
                spin[a, 0] = spin[a, 1] = spin[a, 2] = 0.0
            else:
                kind, target = EV_OFF_TABLE, _over_target(OVER_POCKET + k, rail)
                _take_off(a, motion, pocket, vel, spin, hz, vz)
        else:
            vel[a, 0], vel[a, 1], vz[a] = nose_impact(vel[a, 0], vel[a, 1], vz[a], nx, ny, nz, p[P_E_LINER])
            kind, target = EV_JAW, _nearest_jaw(pos[a, 0], pos[a, 1], jaws)
    elif kind == EV_LINER_CLEAR:  # over the rail around the pocket (not logged now)
        over[a] = OVER_POCKET + rail_id[a]
        kind = -1
    elif kind == EV_RAIL_RETURN:  # from over the rail, back over the playing area: in the air as any ball (not logged)
        over[a] = -1
        kind = -1
    elif kind == EV_CLEAR or kind == EV_JAW_CLEAR:
        # an airborne ball clears a cushion or facing (or comes over a jaw post): from now on it flies over the
        # rail (of the jaw's cushion) and leaves the table when it comes down on it or passes it (not logged now)
        over[a] = rail_id[a] if kind == EV_CLEAR else rail_id[a] // 2
        kind = -1
    return kind, target, leaves_a, leaves_b
