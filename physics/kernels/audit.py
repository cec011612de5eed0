"""The physics audit, in numba: a simulated shot checked from its event log against the table and the laws it must
keep, at every event and at sampled times along the trajectories (``physics.audit`` is its Python view;
``benchmarks/soak.py`` runs it over many random shots, tests run it on single shots).

On the cloth (``audit_shot``): every ball inside the cushions, nothing NaN, no two balls overlapping by more than
RUN_TOL, the total energy never rising (but at the strike), and at rest a legal layout. In 3-D (``audit_air_shot``,
a shot with balls in the air and its EventLog.air): no two balls closer than 2R − RUN_TOL, a ball in the air above
the cloth, over the playing area or over the rail above the rail's top, never in a liner, a cushion's rubber or a
jaw post, never beyond the rail's outer edge, and taken off the table only over the rail or on its outline
(docs/table.md); the energy with m·g·h. Each kind of problem sets its counter (A_*) to 1.
"""

import math

import numpy as np
from numba import prange

from physics.kernels.codes import (
    AIR_H_A, AIRBORNE, EV_OFF_TABLE, EV_STICK, LOG_A, LOG_KIND, LOG_STATE_A, LOG_TIME, LOGGED_W, POCKETED, S_MOTION,
    S_X, S_Y, STATE_W, STATIONARY,
)
from physics.kernels.jit import kernel
from physics.kernels.layout import IN_POCKET, NOT_FINITE, OUTSIDE, OVERLAP, OVERLAP_TOL, check_layout
from physics.kernels.motion import evolve, transition_time
from physics.kernels.rail import edge_gap, outline_gap
from physics.params import P_CUSHION_H, P_G, P_M, P_R
from physics.table import (
    L_M1X, L_M1Y, L_M2X, L_M2Y, L_R, L_X, L_Y, LINER_STRIDE, RAIL_HEIGHT, RAIL_LINERS, RAIL_N_LINERS, RAIL_WIDTH,
)

RUN_TOL = 1e-6  # [m] overlap / cushion penetration allowed along the trajectories
ENERGY_TOL = 1e-9  # relative rise of the total energy counted as a rise
# audit counters
A_OUT_REST, A_OVERLAP_REST, A_NAN, A_OUT_RUN, A_OVERLAP_RUN, A_ENERGY, A_NOT_AT_REST = range(7)
N_AUDIT = 7
AUDIT_NAMES = ("outside_at_rest", "overlap_at_rest", "nan", "outside_sampled", "overlap_sampled", "energy_rises",
               "not_at_rest_uncapped")
# the airborne audit's further counters (audit_air_shot): an airborne centre nearer than R to a cushion's rubber (its
# face up to the nose height and the rounded nose edge above it) or to a jaw post (its side and its top edge); a ball
# taken off the table (BALL_OFF_TABLE) with its centre over the playing area, not over the rail or on its outline;
# one taken off beyond the rail's outer edge, or in the air beyond it while still on the table (docs/table.md)
A_IN_NOSE, A_IN_JAW, A_OFF_OVER_CLOTH, A_OFF_BEYOND_RAIL = 7, 8, 9, 10
N_AIR_AUDIT = 11
AIR_AUDIT_NAMES = AUDIT_NAMES + ("inside_nose", "inside_jaw", "off_table_over_cloth", "off_table_beyond_rail")


@kernel(inline="always")
def _energy(m, R, vx, vy, wx, wy, wz, motion):
    if motion >= POCKETED:
        return 0.0
    return 0.5 * m * (vx * vx + vy * vy) + 0.2 * m * R * R * (wx * wx + wy * wy + wz * wz)


@kernel
def _at(seg, seg_t, i, t, p):
    """Ball i's state at time t from its last logged state (one motion state: transitions are logged)."""
    st = int(seg[i, S_MOTION])
    dt = t - seg_t[i]
    if st == STATIONARY or st >= POCKETED or dt <= 0.0:
        return seg[i, 0], seg[i, 1], seg[i, 2], seg[i, 3], seg[i, 4], seg[i, 5], seg[i, 6]
    tau = transition_time(st, seg[i, 2], seg[i, 3], seg[i, 4], seg[i, 5], seg[i, 6], p)
    return evolve(st, seg[i, 0], seg[i, 1], seg[i, 2], seg[i, 3], seg[i, 4], seg[i, 5], seg[i, 6], min(dt, tau), p)


@kernel
def _check_at(seg, seg_t, t, p, W, L, segments, jaws, pockets, pos, vel, spin, motion, audit):
    """Layout check of every ball at time t (tolerance RUN_TOL); counts a problem once per shot."""
    n = seg.shape[0]
    for i in range(n):
        x, y, vx, vy, wx, wy, wz = _at(seg, seg_t, i, t, p)
        pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1] = x, y, vx, vy
        spin[i, 0], spin[i, 1], spin[i, 2] = wx, wy, wz
        motion[i] = int(seg[i, S_MOTION])
    for _ in range(n):  # a ball in a capture circle is within rounding of its pocket event: check the others
        code, i, _ = check_layout(pos, vel, spin, motion, W, L, segments, jaws, pockets, p[P_R], RUN_TOL)
        if code != IN_POCKET:
            break
        motion[i] = POCKETED
    if code == NOT_FINITE:
        audit[A_NAN] = 1
    elif code == OUTSIDE:
        audit[A_OUT_RUN] = 1
    elif code == OVERLAP:
        audit[A_OVERLAP_RUN] = 1


@kernel(entry=True)
def audit_shot(init, log, n_events, final, capped, samples, p, W, L, segments, jaws, pockets, audit):
    """Audit one simulated shot from its full log; sets audit[A_*] = 1 for each kind of problem found."""
    n = init.shape[0]
    R = p[P_R]
    m = p[P_M]
    seg = np.empty((n, LOGGED_W))
    seg_t = np.zeros(n)
    for i in range(n):
        for c in range(LOGGED_W):
            seg[i, c] = init[i, c]
    pos = np.empty((n, 2))
    vel = np.empty((n, 2))
    spin = np.empty((n, 3))
    motion = np.empty(n, dtype=np.int64)
    e_prev = np.inf
    s = 0
    for k in range(n_events):
        te = log[k, LOG_TIME]
        while s < samples.shape[0] and samples[s] < te:
            _check_at(seg, seg_t, samples[s], p, W, L, segments, jaws, pockets, pos, vel, spin, motion, audit)
            s += 1
        e_pre = 0.0
        for i in range(n):
            x, y, vx, vy, wx, wy, wz = _at(seg, seg_t, i, te, p)
            e_pre += _energy(m, R, vx, vy, wx, wy, wz, int(seg[i, S_MOTION]))
        for which in range(2):
            ball = int(log[k, LOG_A + which])
            if ball < 0:
                continue
            base = LOG_STATE_A + LOGGED_W * which
            for c in range(LOGGED_W):
                seg[ball, c] = log[k, base + c]
            seg_t[ball] = te
        e_post = 0.0
        for i in range(n):
            x, y, vx, vy, wx, wy, wz = _at(seg, seg_t, i, te, p)
            e_post += _energy(m, R, vx, vy, wx, wy, wz, int(seg[i, S_MOTION]))
        if int(log[k, LOG_KIND]) != EV_STICK:  # the stick adds energy; nothing else may
            if e_post > e_prev * (1.0 + ENERGY_TOL) + 1e-15 or e_pre > e_prev * (1.0 + ENERGY_TOL) + 1e-15:
                audit[A_ENERGY] = 1
        e_prev = e_post
        _check_at(seg, seg_t, te, p, W, L, segments, jaws, pockets, pos, vel, spin, motion, audit)
    while s < samples.shape[0]:
        _check_at(seg, seg_t, samples[s], p, W, L, segments, jaws, pockets, pos, vel, spin, motion, audit)
        s += 1
    # at rest: the final state must be a legal layout for the next shot
    for i in range(n):
        pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1] = final[i, 0], final[i, 1], final[i, 2], final[i, 3]
        spin[i, 0], spin[i, 1], spin[i, 2] = final[i, 4], final[i, 5], final[i, 6]
        motion[i] = int(final[i, S_MOTION]) if final[i, S_MOTION] == final[i, S_MOTION] else -1
    for i in range(n):
        for c in range(STATE_W):
            if not math.isfinite(final[i, c]):
                audit[A_NAN] = 1
        if not capped and STATIONARY < motion[i] < POCKETED:
            audit[A_NOT_AT_REST] = 1
    if audit[A_NAN] == 0:
        code, _, _ = check_layout(pos, vel, spin, motion, W, L, segments, jaws, pockets, R, OVERLAP_TOL)
        if code == OUTSIDE or code == IN_POCKET:  # either is a layout the next shot cannot start from
            audit[A_OUT_REST] = 1
        elif code == OVERLAP:
            audit[A_OVERLAP_REST] = 1
        elif code == NOT_FINITE:
            audit[A_NAN] = 1


@kernel(parallel=True, entry=True)
def audit_batch(inits, logs, n_events, finals, capped, samples, p, W, L, segments, jaws, pockets, audits):
    """``audit_shot`` on every table whose whole log is in ``logs`` (the others are audited alone)."""
    for b in prange(inits.shape[0]):
        if n_events[b] <= logs.shape[1]:
            audit_shot(inits[b], logs[b], n_events[b], finals[b], capped[b], samples[b], p, W, L, segments, jaws,
                       pockets, audits[b])



@kernel
def _at3(seg, seg_air, seg_t, i, t, p):
    """Ball i at time t in 3-D: (x, y, h, vx, vy, vz, wx, wy, wz); in the air a parabola, on the cloth ``_at``."""
    dt = t - seg_t[i]
    if int(seg[i, S_MOTION]) == AIRBORNE and dt > 0.0:
        g = p[P_G]
        return (seg[i, 0] + seg[i, 2] * dt, seg[i, 1] + seg[i, 3] * dt, seg_air[i, 0] + seg_air[i, 1] * dt - 0.5 * g * dt * dt,
                seg[i, 2], seg[i, 3], seg_air[i, 1] - g * dt, seg[i, 4], seg[i, 5], seg[i, 6])
    if int(seg[i, S_MOTION]) == AIRBORNE:
        return (seg[i, 0], seg[i, 1], seg_air[i, 0], seg[i, 2], seg[i, 3], seg_air[i, 1], seg[i, 4], seg[i, 5],
                seg[i, 6])
    x, y, vx, vy, wx, wy, wz = _at(seg, seg_t, i, t, p)
    return x, y, 0.0, vx, vy, 0.0, wx, wy, wz


@kernel
def _liner_gap(x, y, zc, rail, R, zr):
    """3-D distance from an airborne centre to the nearest pocket liner's solid (the rail behind its arc, from the
    cloth to the nose height zr; flight.py notes) minus R: negative inside it; inf away from every liner."""
    gap = np.inf
    for k in range(int(rail[RAIL_N_LINERS])):
        o = RAIL_LINERS + k * LINER_STRIDE
        dx = x - rail[o + L_X]
        dy = y - rail[o + L_Y]
        rl = rail[o + L_R]
        rho = math.hypot(dx, dy)
        if (rho >= rl + R or rail[o + L_M1X] * dx + rail[o + L_M1Y] * dy < 0.0
                or rail[o + L_M2X] * dx + rail[o + L_M2Y] * dy < 0.0):
            continue
        if rho >= rl:
            g = zc - zr - R if zc > zr else -(rho - rl) - R
        elif zc <= zr:
            g = rl - rho - R
        else:
            g = math.hypot(rl - rho, zc - zr) - R
        gap = min(gap, g)
    return gap


@kernel
def _rubber_gaps(x, y, zc, segments, jaws, R, zn, depth):
    """3-D distances from an airborne centre to the cushions' rubber and to the jaw posts, each minus R (negative:
    inside it): (cushion, jaw). A cushion's solid is behind its line over its length (``depth`` deep: the rail), from
    the cloth up to the nose height zn, so a centre in front of the line meets its face below zn and its nose edge
    (the line at zn) above; a jaw is a post of its radius up to zn with its top edge, the circle at zn (flight.py)."""
    gc = np.inf
    for k in range(segments.shape[0]):
        x1, y1, nx, ny = segments[k, 0], segments[k, 1], segments[k, 4], segments[k, 5]
        ex, ey = segments[k, 2] - x1, segments[k, 3] - y1
        s = ((x - x1) * ex + (y - y1) * ey) / (ex * ex + ey * ey)
        d = nx * (x - x1) + ny * (y - y1)
        if not 0.0 <= s <= 1.0 or d < -depth or d >= R:
            continue
        w = zc - zn
        if d <= 0.0:
            g = max(w, 0.0) - R
        elif w <= 0.0:
            g = d - R
        else:
            g = math.hypot(d, w) - R
        gc = min(gc, g)
    gj = np.inf
    for k in range(jaws.shape[0]):
        rho = math.hypot(x - jaws[k, 0], y - jaws[k, 1])
        rj = jaws[k, 2]
        if rho >= rj + R:
            continue
        w = zc - zn
        if rho <= rj:
            g = max(w, 0.0) - R
        elif w <= 0.0:
            g = rho - rj - R
        else:
            g = math.hypot(rho - rj, w) - R
        gj = min(gj, g)
    return gc, gj


@kernel
def _check_at3(seg, seg_air, seg_t, t, p, W, L, segments, jaws, pockets, rail, pos, vel, spin, motion, h, audit):
    """3-D check of every ball at time t: NaN, 3-D overlap, inside the table (on the cloth: the layout check;
    in the air: within the cushion lines, over a pocket mouth or above the noses, not below the cloth, never nearer
    than R to a pocket's liner, to a cushion's rubber (A_IN_NOSE) or to a jaw post (A_IN_JAW))."""
    n = seg.shape[0]
    R = p[P_R]
    for i in range(n):
        x, y, z, vx, vy, vz, wx, wy, wz = _at3(seg, seg_air, seg_t, i, t, p)
        pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1] = x, y, vx, vy
        spin[i, 0], spin[i, 1], spin[i, 2] = wx, wy, wz
        h[i] = z
        motion[i] = int(seg[i, S_MOTION])
        for v in (x, y, z, vx, vy, vz, wx, wy, wz):
            if not math.isfinite(v):
                audit[A_NAN] = 1
                return
    for i in range(n):
        if motion[i] >= POCKETED and motion[i] != AIRBORNE:
            continue
        if motion[i] == AIRBORNE:
            # over the playing area (the cloth, a pocket's mouth or hole), or over the rail with its bottom above the
            # rail's top (below it, it is inside the rail: it went through a cushion or should have left the table),
            # and never beyond the rail's outer edge (it leaves the table there)
            if edge_gap(pos[i, 0], pos[i, 1], W, L, rail) < -RUN_TOL:
                audit[A_OFF_BEYOND_RAIL] = 1
            over_rail = outline_gap(pos[i, 0], pos[i, 1], segments, jaws, rail) < -RUN_TOL
            if (h[i] < -RUN_TOL or (over_rail and h[i] < rail[RAIL_HEIGHT] - RUN_TOL)
                    or _liner_gap(pos[i, 0], pos[i, 1], R + h[i], rail, R, p[P_CUSHION_H]) < -RUN_TOL):
                audit[A_OUT_RUN] = 1
            if min(pos[i, 0], W - pos[i, 0], pos[i, 1], L - pos[i, 1]) < R:  # only there is a cushion or a jaw within R
                gc, gj = _rubber_gaps(pos[i, 0], pos[i, 1], R + h[i], segments, jaws, R, p[P_CUSHION_H],
                                      rail[RAIL_WIDTH])
                if gc < -RUN_TOL:
                    audit[A_IN_NOSE] = 1
                if gj < -RUN_TOL:
                    audit[A_IN_JAW] = 1
        for j in range(i + 1, n):
            if motion[j] >= POCKETED and motion[j] != AIRBORNE:
                continue
            dx, dy, dz = pos[i, 0] - pos[j, 0], pos[i, 1] - pos[j, 1], h[i] - h[j]
            if dx * dx + dy * dy + dz * dz < (2.0 * R - RUN_TOL) ** 2:
                audit[A_OVERLAP_RUN] = 1
    for i in range(n):  # the cloth's layout check, without the balls in the air (they are checked above)
        if motion[i] == AIRBORNE:
            motion[i] = POCKETED
    for _ in range(n):
        code, i, _ = check_layout(pos, vel, spin, motion, W, L, segments, jaws, pockets, R, RUN_TOL)
        if code != IN_POCKET:
            break
        motion[i] = POCKETED
    if code == OUTSIDE:
        audit[A_OUT_RUN] = 1
    elif code == NOT_FINITE:
        audit[A_NAN] = 1


@kernel
def _energy3(m, R, g, s):
    x, y, z, vx, vy, vz, wx, wy, wz = s
    return 0.5 * m * (vx * vx + vy * vy + vz * vz) + 0.2 * m * R * R * (wx * wx + wy * wy + wz * wz) + m * g * z


@kernel(entry=True)
def audit_air_shot(init, log, air, n_events, final, samples, p, W, L, segments, jaws, pockets, rail, audit):
    """``audit_shot`` in 3-D for a shot with balls in the air: ``air`` is its EventLog.air (n_events, 4), ``rail``
    the table's ``Table.rail`` (its liners are audited); ``audit`` holds N_AIR_AUDIT counters (AIR_AUDIT_NAMES)."""
    if audit.shape[0] < N_AIR_AUDIT:
        raise ValueError("audit: expected N_AIR_AUDIT (11) counters, the airborne audit's (AIR_AUDIT_NAMES)")
    n = init.shape[0]
    R = p[P_R]
    m = p[P_M]
    g = p[P_G]
    seg = np.empty((n, LOGGED_W))
    seg_air = np.zeros((n, 2))
    seg_t = np.zeros(n)
    for i in range(n):
        for c in range(LOGGED_W):
            seg[i, c] = init[i, c]
    pos = np.empty((n, 2))
    vel = np.empty((n, 2))
    spin = np.empty((n, 3))
    h = np.empty(n)
    motion = np.empty(n, dtype=np.int64)
    e_prev = np.inf
    s = 0
    for k in range(n_events):
        te = log[k, LOG_TIME]
        while s < samples.shape[0] and samples[s] < te:
            _check_at3(seg, seg_air, seg_t, samples[s], p, W, L, segments, jaws, pockets, rail, pos, vel, spin, motion, h,
                       audit)
            s += 1
        e_pre = 0.0
        for i in range(n):
            if int(seg[i, S_MOTION]) < POCKETED or int(seg[i, S_MOTION]) == AIRBORNE:
                e_pre += _energy3(m, R, g, _at3(seg, seg_air, seg_t, i, te, p))
        for which in range(2):
            ball = int(log[k, LOG_A + which])
            if ball < 0:
                continue
            for c in range(LOGGED_W):
                seg[ball, c] = log[k, LOG_STATE_A + LOGGED_W * which + c]
            seg_air[ball, 0] = air[k, AIR_H_A + 2 * which]
            seg_air[ball, 1] = air[k, AIR_H_A + 2 * which + 1]
            seg_t[ball] = te
        if int(log[k, LOG_KIND]) == EV_OFF_TABLE:  # where it left: over the rail or on its outline, never over the cloth
            if outline_gap(log[k, LOG_STATE_A + S_X], log[k, LOG_STATE_A + S_Y], segments, jaws, rail) > RUN_TOL:
                audit[A_OFF_OVER_CLOTH] = 1
            if edge_gap(log[k, LOG_STATE_A + S_X], log[k, LOG_STATE_A + S_Y], W, L, rail) < -RUN_TOL:
                audit[A_OFF_BEYOND_RAIL] = 1
        e_post = 0.0
        for i in range(n):
            if int(seg[i, S_MOTION]) < POCKETED or int(seg[i, S_MOTION]) == AIRBORNE:
                e_post += _energy3(m, R, g, _at3(seg, seg_air, seg_t, i, te, p))
        if int(log[k, LOG_KIND]) != EV_STICK:  # the stick adds energy; nothing else may
            if e_post > e_prev * (1.0 + ENERGY_TOL) + 1e-15 or e_pre > e_prev * (1.0 + ENERGY_TOL) + 1e-15:
                audit[A_ENERGY] = 1
        e_prev = e_post
        _check_at3(seg, seg_air, seg_t, te, p, W, L, segments, jaws, pockets, rail, pos, vel, spin, motion, h, audit)
    while s < samples.shape[0]:
        _check_at3(seg, seg_air, seg_t, samples[s], p, W, L, segments, jaws, pockets, rail, pos, vel, spin, motion, h, audit)
        s += 1
    for i in range(n):  # at rest: nobody in the air, a legal layout for the next shot
        pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1] = final[i, 0], final[i, 1], final[i, 2], final[i, 3]
        spin[i, 0], spin[i, 1], spin[i, 2] = final[i, 4], final[i, 5], final[i, 6]
        motion[i] = int(final[i, S_MOTION]) if final[i, S_MOTION] == final[i, S_MOTION] else -1
        for c in range(STATE_W):
            if not math.isfinite(final[i, c]):
                audit[A_NAN] = 1
        if STATIONARY < motion[i] < POCKETED or motion[i] == AIRBORNE:
            audit[A_NOT_AT_REST] = 1
    if audit[A_NAN] == 0:
        code, _, _ = check_layout(pos, vel, spin, motion, W, L, segments, jaws, pockets, R, OVERLAP_TOL)
        if code == OUTSIDE or code == IN_POCKET:
            audit[A_OUT_REST] = 1
        elif code == OVERLAP:
            audit[A_OVERLAP_REST] = 1

