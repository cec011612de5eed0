"""The steps of the event loop (loop.py) for balls on the cloth, which air.py's steps for balls in the air use too:
the per-shot caches, the next event, the advance of every ball, the cached event times of a ball, the sustained-
contact rules, the log, and the safety net at the end.

Small helpers that take arrays and run in the inner loops of the refresh (per pair, per cushion) are inlined
(``inline="always"``); the per-event ones (``reclassify``, ``sustained`` ...) are calls: numba re-translates an
inlined function at every call site, which cost about 10 % of the cold compile and measured no faster. Both ways of
sharing code cost per array and per call, though: a call passes each array as a struct, and an inlined function binds
each array argument to a variable of its own, which numba reference-counts (an atomic increment and decrement, about 7
ns, that LLVM's pruning does not remove when the body branches). So the loop's own event body, run once per event, is
written out in the loop; these helpers take as few arrays as they can.

Ties between events at the same time are broken in a fixed order — motion transitions,
then ball–ball pairs (i < j, lowest i first), then cushions, jaws, pockets (lowest ball
first) — so reruns are bit-identical.
"""

import math

import numpy as np

from physics.kernels.codes import (
    EV_BALL_BALL, EV_CUSHION, EV_JAW, EV_OFF_TABLE, EV_POCKET, EV_TRANSITION, FLAG_UNRESOLVED, OFF_TABLE, POCKETED,
    ROLLING, SLIDING, STATIONARY,
)
from physics.kernels.detect import (
    CONTACT_BAND, ball_ball_time, ball_circle_time, ball_segment_time, straight_circle_time,
)
from physics.kernels.jit import kernel
from physics.kernels.layout import IN_POCKET, OK, ball_region
from physics.kernels.motion import acceleration, classify, evolve, transition_time
from physics.params import P_R

INF = np.inf
# While the same pair touches again within this time, its contact is elastic: the
# "TC model" (Luding & McNamara 1998) that stops inelastic collapse in chains of touching balls.
CHAIN_WINDOW = 1e-9  # [s]
# A pair that meets again within ZENO_WINDOW at an approach speed below ZENO_SPEED is in
# sustained contact: one ball's cloth friction keeps driving it into the other, and the
# bounces form a geometric (Zeno) series. After such a contact both balls take their
# end-of-sliding state at once, v ← v − (2/7)u (angular momentum about the cloth contact is
# conserved, Alciatore TP 4-1), which removes the driving force and ends the series.
# If they still close on each other after that (a rolling ball pressing past another at a
# thin angle), each ball's velocity is turned, at constant speed, just enough for the pair to
# part at ZENO_PART (a ball slower than that stops): the sustained-contact slide of one ball
# around the other, with no energy added.
# The same holds for a ball and the cushions: a sliding ball that its own spin drives back into a
# rail (massé, or english along the rail) bounces in a geometric series. A ball that touches a
# cushion or jaw again within ZENO_WINDOW at an approach speed below ZENO_SPEED is in sustained
# contact, and the contact phase ends at once (``end_rail_contact``).
# A ball in sustained contact with two different things within JAM_WINDOW (wedged between a facing
# and a ball, or between two balls) is jammed: each contact phase turns it into the other, so it stops
# (its side spin goes on), which ends the cycle and adds no energy.
ZENO_WINDOW = 0.25  # [s]
JAM_WINDOW = 0.01  # [s]
RAIL_CONTACT, JAW_CONTACT = 1000, 2000  # contact ids in the jam test: ball j is j, cushion k RAIL_CONTACT + k
ZENO_SPEED = 0.05  # [m/s]
ZENO_PART = 1e-3  # [m/s]


@kernel(inline="always", refcounts=True)
def new_caches(n):
    """The per-shot caches of n balls: (t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box,
    last_pair_time, memory, air, over).

    Absolute event times, inf when none: per ball its motion transition (t_trans), cushion or jaw (t_rail, its kind
    rail_kind and target rail_id) and pocket (t_pocket, pocket_id), per pair their contact (t_pair); per ball its
    acceleration on the cloth (acc, n × 2) and the box round its path until its transition (box, n × 4: x range,
    y range). The contact memory: per pair the last contact (last_pair_time), per ball (memory, 3 × n) the last
    cushion time, the last sustained contact's time and with what (a contact id, as a float). For balls in the air
    (air.py): per ball the height of its bottom above the cloth [m] and its vertical velocity [m/s] (air, 2 × n) and
    the rail it flies over (over, -1: none).

    Each its own allocation: views of one block measured about 10 % slower on flat shots (numba reference-counts the
    block, not the view, for every array a function binds, and those atomic counts on one address queue up)."""
    return (np.full(n, INF), np.full((n, n), INF), np.full(n, INF), np.full(n, -1, dtype=np.int64),
            np.full(n, -1, dtype=np.int64), np.full(n, INF), np.full(n, -1, dtype=np.int64), np.zeros((n, 2)),
            np.zeros((n, 4)), np.full((n, n), -INF), np.full((3, n), -INF), np.zeros((2, n)),
            np.full(n, -1, dtype=np.int64))


@kernel
def record(i_ev, t, kind, a, b, target, pos, vel, spin, motion,
            ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b):
    ev_time[i_ev] = t
    ev_kind[i_ev] = kind
    ev_a[i_ev] = a
    ev_b[i_ev] = b
    ev_target[i_ev] = target
    for which in range(2):
        ball = a if which == 0 else b
        out = ev_state_a if which == 0 else ev_state_b
        if ball < 0:
            for k in range(8):
                out[i_ev, k] = 0.0
            continue
        out[i_ev, 0] = pos[ball, 0]
        out[i_ev, 1] = pos[ball, 1]
        out[i_ev, 2] = vel[ball, 0]
        out[i_ev, 3] = vel[ball, 1]
        out[i_ev, 4] = spin[ball, 0]
        out[i_ev, 5] = spin[ball, 1]
        out[i_ev, 6] = spin[ball, 2]
        out[i_ev, 7] = motion[ball]


@kernel
def axis_range(x, v, a, T):
    """Range of x + v t + ½ a t² over t in [0, T]."""
    end = x + v * T + 0.5 * a * T * T
    lo = min(x, end)
    hi = max(x, end)
    if a != 0.0:
        ts = -v / a
        if 0.0 < ts < T:
            ext = x + v * ts + 0.5 * a * ts * ts
            lo = min(lo, ext)
            hi = max(hi, ext)
    return lo, hi


@kernel(inline="always")
def path_box(i, tau, pos, vel, acc, motion, box):
    """Axis-aligned box around ball i's centre path until its next transition (a point if it does not move)."""
    st = motion[i]
    if st == SLIDING or st == ROLLING:
        box[i, 0], box[i, 1] = axis_range(pos[i, 0], vel[i, 0], acc[i, 0], tau)
        box[i, 2], box[i, 3] = axis_range(pos[i, 1], vel[i, 1], acc[i, 1], tau)
    else:
        box[i, 0] = box[i, 1] = pos[i, 0]
        box[i, 2] = box[i, 3] = pos[i, 1]


@kernel(inline="always")
def boxes_apart(box, i, j, gap):
    """Whether the path boxes of balls i and j stay more than ``gap`` apart on some axis."""
    return (box[i, 0] - gap > box[j, 1] or box[j, 0] - gap > box[i, 1]
            or box[i, 2] - gap > box[j, 3] or box[j, 2] - gap > box[i, 3])


@kernel(inline="always")
def circle_off_box(box, i, cx, cy, r):
    """Whether a circle (cx, cy, r) lies clear of ball i's path box."""
    return cx + r < box[i, 0] or cx - r > box[i, 1] or cy + r < box[i, 2] or cy - r > box[i, 3]


@kernel
def refresh_ball(i, skip, t, pos, vel, spin, motion, segments, jaws, pockets, p,
                  t_trans, t_pair, t_rail, rail_kind, rail_id, t_pocket, pocket_id, acc, box):
    """Recompute every cached event time that involves ball i (absolute times).

    The pair with ball ``skip`` (-1: none) is left to that ball's own refresh, which follows
    and sees both balls' new motion.
    """
    n = pos.shape[0]
    R = p[P_R]
    st = motion[i]
    if st >= POCKETED:
        t_trans[i] = INF
        t_rail[i] = INF
        t_pocket[i] = INF
        for j in range(n):
            t_pair[i, j] = INF
            t_pair[j, i] = INF
        return
    x, y = pos[i, 0], pos[i, 1]
    vx, vy = vel[i, 0], vel[i, 1]
    tau = transition_time(st, vx, vy, spin[i, 0], spin[i, 1], spin[i, 2], p)
    t_trans[i] = t + tau
    ax, ay = acceleration(st, vx, vy, spin[i, 0], spin[i, 1], p)
    acc[i, 0] = ax
    acc[i, 1] = ay
    moving = st == SLIDING or st == ROLLING
    path_box(i, tau, pos, vel, acc, motion, box)
    # ball–ball
    for j in range(n):
        if j == i or j == skip:
            continue
        tij = INF
        sj = motion[j]
        j_moving = sj == SLIDING or sj == ROLLING
        if sj < POCKETED and (moving or j_moving) and not boxes_apart(box, i, j, 2.0 * R):
            window = min(tau, t_trans[j] - t)
            handled = False
            if not j_moving:  # a moving ball against a resting one: often a straight path
                handled, dt = straight_circle_time(x, y, vx, vy, ax, ay, pos[j, 0], pos[j, 1], 2.0 * R, window)
            elif not moving:
                handled, dt = straight_circle_time(pos[j, 0], pos[j, 1], vel[j, 0], vel[j, 1], acc[j, 0], acc[j, 1],
                                                   x, y, 2.0 * R, window)
            if not handled:
                dt = ball_ball_time(x, y, vx, vy, ax, ay, pos[j, 0], pos[j, 1], vel[j, 0], vel[j, 1],
                                    acc[j, 0], acc[j, 1], R, window)
            tij = t + dt
        t_pair[i, j] = tij
        t_pair[j, i] = tij
    # cushions, jaws, pockets
    best = INF
    kind = -1
    ident = -1
    if moving:
        for k in range(segments.shape[0]):
            if (min(segments[k, 0], segments[k, 2]) - R > box[i, 1] or max(segments[k, 0], segments[k, 2]) + R < box[i, 0]
                    or min(segments[k, 1], segments[k, 3]) - R > box[i, 3]
                    or max(segments[k, 1], segments[k, 3]) + R < box[i, 2]):
                continue  # the path box never comes within R of this cushion
            dt = ball_segment_time(x, y, vx, vy, ax, ay, segments[k, 0], segments[k, 1], segments[k, 2],
                                   segments[k, 3], segments[k, 4], segments[k, 5], R, tau)
            if dt < best:
                best, kind, ident = dt, EV_CUSHION, k
        for k in range(jaws.shape[0]):
            if circle_off_box(box, i, jaws[k, 0], jaws[k, 1], jaws[k, 2] + R):
                continue
            handled, dt = straight_circle_time(x, y, vx, vy, ax, ay, jaws[k, 0], jaws[k, 1], jaws[k, 2] + R, tau)
            if not handled:
                dt = ball_circle_time(x, y, vx, vy, ax, ay, jaws[k, 0], jaws[k, 1], jaws[k, 2] + R, tau)
            if dt < best:
                best, kind, ident = dt, EV_JAW, k
    t_rail[i] = t + best
    rail_kind[i] = kind
    rail_id[i] = ident
    bestp = INF
    pid = -1
    if moving:
        for k in range(pockets.shape[0]):
            if circle_off_box(box, i, pockets[k, 0], pockets[k, 1], pockets[k, 2]):
                continue
            handled, dt = straight_circle_time(x, y, vx, vy, ax, ay, pockets[k, 0], pockets[k, 1], pockets[k, 2], tau)
            if not handled:
                dt = ball_circle_time(x, y, vx, vy, ax, ay, pockets[k, 0], pockets[k, 1], pockets[k, 2], tau)
            if dt < bestp:
                bestp, pid = dt, k
    t_pocket[i] = t + bestp
    pocket_id[i] = pid


@kernel
def advance_all(pos, vel, spin, motion, dt, p):
    """Move every ball dt seconds along its current closed-form trajectory."""
    if dt <= 0.0:
        return
    for i in range(pos.shape[0]):
        st = motion[i]
        if st == STATIONARY or st >= POCKETED:
            continue
        x, y, vx, vy, wx, wy, wz = evolve(st, pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1],
                                          spin[i, 0], spin[i, 1], spin[i, 2], dt, p)
        pos[i, 0] = x
        pos[i, 1] = y
        vel[i, 0] = vx
        vel[i, 1] = vy
        spin[i, 0] = wx
        spin[i, 1] = wy
        spin[i, 2] = wz


@kernel
def reclassify(i, vel, spin, motion, p):
    motion[i] = classify(vel[i, 0], vel[i, 1], spin[i, 0], spin[i, 1], spin[i, 2], p[P_R])
    if motion[i] == STATIONARY:
        vel[i, 0] = 0.0
        vel[i, 1] = 0.0
        spin[i, 0] = 0.0
        spin[i, 1] = 0.0
        spin[i, 2] = 0.0


@kernel
def snap_to_rolling(i, vel, spin, p):
    """Give ball i the rolling state its sliding phase would end in: v ← v − (2/7)u, ω_xy locked to v."""
    R = p[P_R]
    ux = vel[i, 0] - R * spin[i, 1]
    uy = vel[i, 1] + R * spin[i, 0]
    vel[i, 0] -= 2.0 / 7.0 * ux
    vel[i, 1] -= 2.0 / 7.0 * uy
    spin[i, 0] = -vel[i, 1] / R
    spin[i, 1] = vel[i, 0] / R


@kernel
def turn_away(i, nx, ny, target, vel, spin, p):
    """Turn ball i's (rolling) velocity at constant speed so that v·n = target; stop it if too slow."""
    R = p[P_R]
    speed = math.sqrt(vel[i, 0] * vel[i, 0] + vel[i, 1] * vel[i, 1])
    vn = vel[i, 0] * nx + vel[i, 1] * ny
    if vn <= target:
        return
    if speed <= abs(target):
        vel[i, 0] = 0.0
        vel[i, 1] = 0.0
    else:
        tx, ty = -ny, nx
        vt = vel[i, 0] * tx + vel[i, 1] * ty
        new_vt = math.sqrt(speed * speed - target * target)
        if vt < 0.0:
            new_vt = -new_vt
        vel[i, 0] = target * nx + new_vt * tx
        vel[i, 1] = target * ny + new_vt * ty
    spin[i, 0] = -vel[i, 1] / R
    spin[i, 1] = vel[i, 0] / R


@kernel
def end_rail_contact(i, nx, ny, vel, spin, p):
    """End ball i's sustained contact with a cushion of inward normal (nx, ny) as one contact phase.

    The cloth ends the sliding, v ← v − (2/7)u; the cushion takes the velocity into it (a normal
    impulse through the centre, inelastic, so no torque and no energy added), the ball rolls on
    along the rail, turned at constant speed just enough to leave it at ZENO_PART (it stops if slower).
    """
    R = p[P_R]
    snap_to_rolling(i, vel, spin, p)
    vn = vel[i, 0] * nx + vel[i, 1] * ny
    if vn < 0.0:
        vel[i, 0] -= vn * nx
        vel[i, 1] -= vn * ny
        spin[i, 0] = -vel[i, 1] / R
        spin[i, 1] = vel[i, 0] / R
    turn_away(i, -nx, -ny, -ZENO_PART, vel, spin, p)


@kernel
def sustained(i, contact, t, last_zeno_time, last_zeno_with, vel, spin):
    """Note that ball i ended a sustained contact with ``contact`` at t; stop it when it is jammed."""
    if t - last_zeno_time[i] <= JAM_WINDOW and last_zeno_with[i] != contact:
        vel[i, 0] = 0.0
        vel[i, 1] = 0.0
        spin[i, 0] = 0.0
        spin[i, 1] = 0.0
    last_zeno_time[i] = t
    last_zeno_with[i] = contact


@kernel
def part_pair(a, b, pos, vel, spin, p):
    """Make balls a and b separate at ZENO_PART at least, turning (never speeding up) their velocities."""
    nx = pos[b, 0] - pos[a, 0]
    ny = pos[b, 1] - pos[a, 1]
    d = math.sqrt(nx * nx + ny * ny)
    nx /= d
    ny /= d
    va = vel[a, 0] * nx + vel[a, 1] * ny
    vb = vel[b, 0] * nx + vel[b, 1] * ny
    if vb - va >= ZENO_PART:
        return
    # the ball that drives the approach more turns first, to part at half the margin each way
    turn_away(a, nx, ny, min(va, vb - ZENO_PART) if va > -vb else -0.5 * ZENO_PART, vel, spin, p)
    va = vel[a, 0] * nx + vel[a, 1] * ny
    if vb - va < ZENO_PART:
        turn_away(b, -nx, -ny, -(va + ZENO_PART), vel, spin, p)
    va = vel[a, 0] * nx + vel[a, 1] * ny
    vb = vel[b, 0] * nx + vel[b, 1] * ny
    if vb - va < ZENO_PART:  # both too slow to part: stop both
        for i in (a, b):
            vel[i, 0] = 0.0
            vel[i, 1] = 0.0
            spin[i, 0] = 0.0
            spin[i, 1] = 0.0


@kernel(inline="always")
def next_event(t_trans, t_pair, t_rail, rail_kind, t_pocket):
    """The earliest cached event, ties in the fixed order of the module notes: (time, kind, ball a, ball b); a
    motion transition is EV_TRANSITION."""
    n = t_trans.shape[0]
    te = INF
    kind = -1
    a = -1
    b = -1
    for i in range(n):
        if t_trans[i] < te:
            te, kind, a, b = t_trans[i], EV_TRANSITION, i, -1
    for i in range(n):
        for j in range(i + 1, n):
            if t_pair[i, j] < te:
                te, kind, a, b = t_pair[i, j], EV_BALL_BALL, i, j
    for i in range(n):
        if t_rail[i] < te:
            te, kind, a, b = t_rail[i], rail_kind[i], i, -1
    for i in range(n):
        if t_pocket[i] < te:
            te, kind, a, b = t_pocket[i], EV_POCKET, i, -1
    return te, kind, a, b


@kernel
def safety_net(t, count, flags, max_events, pos, vel, spin, motion, pocket, segments, jaws, pockets, width, length, p,
                ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b):
    """After the last event: a ball off the playing surface is flagged and taken off; one in a capture circle
    drops. Returns (number of events, flags). An event that finds the log full (``max_events`` rows: a shot stopped
    at the event cap, where every ball is where its last event left it, so none has been seen here) is not logged
    and flags the shot unresolved."""
    n = pos.shape[0]
    for i in range(n):
        if motion[i] >= POCKETED:
            continue
        code, k = ball_region(pos[i, 0], pos[i, 1], width, length, segments, jaws, pockets, p[P_R], CONTACT_BAND)
        if code == OK:
            continue
        vel[i, 0] = vel[i, 1] = 0.0
        spin[i, 0] = spin[i, 1] = spin[i, 2] = 0.0
        if code == IN_POCKET:
            motion[i] = POCKETED
            pocket[i] = k
            kind = EV_POCKET
        else:
            motion[i] = OFF_TABLE
            pocket[i] = -1
            kind = EV_OFF_TABLE
            flags |= FLAG_UNRESOLVED
        if count >= max_events:
            flags |= FLAG_UNRESOLVED
            continue
        if count < ev_time.shape[0]:
            record(count, t, kind, i, -1, k, pos, vel, spin, motion,
                    ev_time, ev_kind, ev_a, ev_b, ev_target, ev_state_a, ev_state_b)
        count += 1
    return count, flags


