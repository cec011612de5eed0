"""The compiled core of the shot geometry: pot options, throw-corrected aims and noise-free shot values, many at once.

These kernels ARE the implementation: ``pots.pot_options`` / ``pots.best_ease``, ``aim.corrected_phi`` and
``leaves.shot_value`` call them with one row, the macro layer (``agents.learned.macro.MacroPlanner``) with every
table (and every candidate shot) of a decision round at once. They reuse the env's geometry
(``nineball_env.kernels.aiming``), its rules kernel (``nineball_env.kernels.ruling``) and the physics' single-shot
entry point (``physics.kernels.entry.run_shot``), so nothing here restates a rule or an equation of motion.

Units: metres, seconds; angles in degrees unless a name says ``_rad``. Pot options are rows of ``OPT_W`` floats
(columns ``O_*``), easiest first.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from nineball_env.kernels.aiming import ghost, path_clear, unit
from nineball_env.kernels.codes import RACK_W, DeclarationCode
from nineball_env.kernels.facts import N_BALLS, summarize_rows
from nineball_env.kernels.placement import is_free
from nineball_env.kernels.ruling import MAX_CITED, rule_batch, rule_log
from nineball_env.kernels.shot import simulate
from physics.events import EventKind as E  # numba freezes the codes (as nineball_env.kernels.facts)
from physics.kernels.codes import FLAG_EVENT_CAP, FLAG_IN_FLIGHT, LOG_W
from physics.kernels.entry import run_shot
from physics.params import P_R

NINE = 9
#: Columns of a pot-option row.
O_TARGET, O_BALL, O_POCKET, O_PHI, O_CUT, O_D_CUE, O_D_OBJ, O_EASE, O_DIRECTION = range(9)
OPT_W = 9
MAX_OPTIONS = 12  # six direct pots and six combinations on the 9
#: Columns of the pocket model array (``agents.shots.pots.PocketModel`` in field order).
M_CORNER_HALF, M_CORNER_FULL, M_CORNER_MAX, M_SHIFT_RATE, M_SHIFT_MAX, M_SIDE_HALF, M_SIDE_SCALE, M_SIDE_MAX, \
    M_MODEL_SIGMA, M_FLOOR_SIGMA = range(10)
COMBO_REACH = 0.6  # [m] the 9 must lie this close to the lowest ball for a combination
COMBO_MAX_CUT = 45.0  # [deg] the widest cut on the 9 of a combination
STATIONARY, ROLLING = 0, 3  # physics.Motion codes
_SHOT = int(DeclarationCode.SHOT)
# numba compiles a kernel once per distinct argument types, and a literal (``True``, ``64``, ``0``) is a type of its
# own: a kernel called with a literal where another call passes a variable is compiled twice, with all it calls. A
# variable set to a literal and changed later (``n = 0`` ... ``n += 1``) is first typed as the literal while numba
# infers types, so its callee is compiled for the literal too, a version that never runs. Values passed to kernels
# are therefore typed (np.int64, np.bool_), never literals (tests/agents/test_agents_compile_once.py).
#: ``run_shot``'s strike flag and the aim's event cap, typed as the env passes them (bool, int64).
STRIKE = np.bool_(True)
AIM_MAX_EVENTS = np.int64(64)
#: The aim's first simulation stops after this many events (the cue ball's first contact is nearly always in them;
#: when it is not, the shot is simulated again with ``AIM_MAX_EVENTS``).
AIM_FIRST_EVENTS = np.int64(3)
AIM_MAX_TIME = 2.0  # [s]
CUE_BALL, NINE_BALL, NO_BALL = np.int64(0), np.int64(NINE), np.int64(-1)
NO_COMBOS = np.bool_(False)
SPOT_MAX_CUT = 80.0  # [deg] the widest cut of a ball-in-hand spot's pot (``pots.pot_rows``' default)
ANYWHERE = np.bool_(False)  # ``placement.is_free``'s kitchen flag: ball in hand anywhere
ROW0 = np.int64(0)  # the row of a one-row output
ONE = np.int64(1)  # one obstacle
SHOT_CODE = np.int64(_SHOT)  # an ordinary shot's DeclarationCode, typed


@njit(cache=True)
def pocket_target(ox, oy, k, aims, axes, m):
    """Where to send a ball at (ox, oy) to drop it in pocket ``k`` and the accepted half-width [m]:
    (ok, tx, ty, half); ok is False when the pocket cannot be reached at that angle (``pots.PocketModel``)."""
    cx, cy = aims[k, 0], aims[k, 1]
    ux, uy = unit(cx - ox, cy - oy)
    a = math.degrees(math.atan2(axes[k, 0] * uy - axes[k, 1] * ux, axes[k, 0] * ux + axes[k, 1] * uy))
    abs_a = abs(a)
    if k == 2 or k == 3:
        if abs_a > m[M_SIDE_MAX]:
            return False, cx, cy, 0.0
        return True, cx, cy, m[M_SIDE_HALF] * (1.0 - (a / m[M_SIDE_SCALE]) ** 2)
    if abs_a > m[M_CORNER_MAX]:
        return False, cx, cy, 0.0
    if abs_a <= m[M_CORNER_FULL]:
        half = m[M_CORNER_HALF]
    else:
        half = m[M_CORNER_HALF] * (m[M_CORNER_MAX] - abs_a) / (m[M_CORNER_MAX] - m[M_CORNER_FULL])
    shift = math.copysign(min(m[M_SHIFT_RATE] * abs_a, m[M_SHIFT_MAX]), a)
    return True, cx + shift * -uy, cy + shift * ux, half


@njit(cache=True)
def pot_probability(d_cue, d_obj, cut, half, sigma_phi, R, m):
    """Chance that a ghost-ball pot drops under a Gaussian aim error ``sigma_phi`` [deg] (``pots.pot_probability``)."""
    if half <= 0.0:
        return 0.0
    cos_cut = max(math.cos(math.radians(cut)), math.cos(math.radians(80.0)))
    s_obj = math.hypot(d_cue * math.radians(sigma_phi) / (2.0 * R * cos_cut), m[M_MODEL_SIGMA])
    s_lat = math.hypot(d_obj * s_obj, m[M_FLOOR_SIGMA])
    return math.erf(half / (math.sqrt(2.0) * s_lat))


@njit(cache=True)
def cut_between(ax, ay, gx, gy, wx, wy):
    """Angle [deg] between the path (ax, ay) -> (gx, gy) and the direction (wx, wy)."""
    ux, uy = unit(gx - ax, gy - ay)
    vx, vy = unit(wx, wy)
    return math.degrees(math.acos(min(max(ux * vx + uy * vy, -1.0), 1.0)))


@njit(cache=True)
def _direct(cx, cy, ox, oy, tx, ty, half, target, ball, k, cue_obs, n_cue_obs, obj_obs, n_obj_obs, width, length,
            R, sigma_phi, max_cut, m, d_extra, row):
    """Fill ``row`` with the option of sending the ball at (ox, oy) (ball ``target``) at (tx, ty), if the ghost ball
    is on the surface, reachable with a cut up to ``max_cut`` and both paths are clear; whether it is."""
    gx, gy, _, _ = ghost(ox, oy, tx, ty, R)
    r_in = R * 0.999
    if not ((r_in <= gx <= width - r_in) and (r_in <= gy <= length - r_in)):
        return False
    d_cue = math.hypot(gx - cx, gy - cy)
    if d_cue < 1e-6:
        return False
    cut = cut_between(cx, cy, gx, gy, tx - ox, ty - oy)
    if cut > max_cut:
        return False
    reach2 = (2.0 * R) ** 2
    if not (path_clear(cx, cy, gx, gy, cue_obs, n_cue_obs, reach2) and path_clear(ox, oy, tx, ty, obj_obs, n_obj_obs,
                                                                                   reach2)):
        return False
    d_obj = math.hypot(tx - ox, ty - oy)
    row[O_TARGET] = target
    row[O_BALL] = ball
    row[O_POCKET] = k
    row[O_PHI] = math.degrees(math.atan2(gy - cy, gx - cx))
    row[O_CUT] = cut
    row[O_D_CUE] = d_cue
    row[O_D_OBJ] = d_obj + d_extra
    row[O_EASE] = pot_probability(d_cue, d_obj, cut, half, sigma_phi, R, m)
    row[O_DIRECTION] = math.degrees(math.atan2(ty - oy, tx - ox))
    return True


@njit(cache=True)
def pot_options_row(cx, cy, pos, on, lowest, aims, axes, m, width, length, R, sigma_phi, combos, max_cut, out):
    """Every clear pot of ball ``lowest`` from a cue ball at (cx, cy), and combinations of it into the 9 when
    ``combos``, easiest first (a stable sort), into ``out`` (MAX_OPTIONS, OPT_W); returns how many.

    ``pos`` (n, 2) and ``on`` (n,) describe the balls (``cx, cy`` may differ from ``pos[0]`` with ball in hand)."""
    others = np.empty((N_BALLS, 2))
    no_nine = np.empty((N_BALLS, 2))
    n_others = np.int64(0)
    n_no_nine = np.int64(0)
    for b in range(1, pos.shape[0]):
        if on[b] and b != lowest:
            others[n_others, 0], others[n_others, 1] = pos[b, 0], pos[b, 1]
            n_others += 1
            if b != NINE:
                no_nine[n_no_nine, 0], no_nine[n_no_nine, 1] = pos[b, 0], pos[b, 1]
                n_no_nine += 1
    ox, oy = pos[lowest, 0], pos[lowest, 1]
    n = 0
    for k in range(6):
        ok, tx, ty, half = pocket_target(ox, oy, k, aims, axes, m)
        if ok and _direct(cx, cy, ox, oy, tx, ty, half, lowest, lowest, k, others, n_others, others, n_others,
                          width, length, R, sigma_phi, max_cut, m, 0.0, out[n]):
            n += 1
    if combos and lowest != NINE and on[NINE]:
        nx, ny = pos[NINE, 0], pos[NINE, 1]
        if math.hypot(nx - ox, ny - oy) < COMBO_REACH:
            reach2 = (2.0 * R) ** 2
            for k in range(6):
                ok, tx, ty, half = pocket_target(nx, ny, k, aims, axes, m)
                if not ok or not path_clear(nx, ny, tx, ty, no_nine, n_no_nine, reach2):
                    continue
                gx, gy, _, _ = ghost(nx, ny, tx, ty, R)
                cut9 = cut_between(ox, oy, gx, gy, tx - nx, ty - ny)
                if cut9 > COMBO_MAX_CUT:
                    continue
                d9 = math.hypot(tx - nx, ty - ny)
                # a miss e at the 9's ghost turns the 9 by e/(2R cos cut9): the window there is that much smaller
                eff_half = half * 2.0 * R * math.cos(math.radians(cut9)) / max(d9, 2.0 * R)
                if _direct(cx, cy, ox, oy, gx, gy, eff_half, lowest, NINE_BALL, k, others, n_others, no_nine, n_no_nine,
                           width, length, R, sigma_phi, max_cut, m, d9, out[n]):
                    n += 1
    for i in range(1, n):  # stable insertion sort, easiest first
        j = i
        while j > 0 and out[j - 1, O_EASE] < out[j, O_EASE]:
            for c in range(OPT_W):
                out[j - 1, c], out[j, c] = out[j, c], out[j - 1, c]
            j -= 1
    return n


@njit(cache=True)
def pot_options_batch(cue, pos, on, lowest, aims, axes, m, width, length, R, sigma_phi, combos, max_cut, out, n_out):
    """``pot_options_row`` for every row: cue (N, 2), pos (N, n, 2), on (N, n), lowest (N,), sigma_phi (N,) [deg];
    options into ``out`` (N, MAX_OPTIONS, OPT_W), counts into ``n_out`` (N,)."""
    for i in range(cue.shape[0]):
        n_out[i] = pot_options_row(cue[i, 0], cue[i, 1], pos[i], on[i], lowest[i], aims, axes, m, width, length, R,
                                   sigma_phi[i], combos, max_cut, out[i])


@njit(cache=True)
def leave_ease(state, aims, axes, m, width, length, R, sigma_phi):
    """Chance of potting the next shot from the resting packed state (n, 9): the best direct pot of the lowest
    ball on the table from the cue ball; 1 when the cue ball or every object ball is off the table."""
    n = state.shape[0]
    pos = np.empty((n, 2))
    on = np.zeros(n, dtype=np.bool_)
    lowest = NO_BALL
    for b in range(n):
        pos[b, 0], pos[b, 1] = state[b, 0], state[b, 1]
        on[b] = state[b, 7] <= ROLLING
        if b > 0 and on[b] and lowest < 0:
            lowest = b
    if not on[0] or lowest < 0:
        return 1.0
    out = np.empty((MAX_OPTIONS, OPT_W))
    k = pot_options_row(pos[0, 0], pos[0, 1], pos, on, lowest, aims, axes, m, width, length, R, sigma_phi, NO_COMBOS,
                        80.0, out)
    return out[0, O_EASE] if k > 0 else 0.0


@njit(cache=True)
def _place(state, b, x, y):
    """Put ball ``b`` of the packed state at rest at (x, y) (``BallState.place``)."""
    state[b, 0], state[b, 1] = x, y
    for c in range(2, 7):
        state[b, c] = 0.0
    state[b, 7] = STATIONARY
    state[b, 8] = -1.0


@njit(cache=True)
def corrected_phi_row(address, template, state, log, shot, status, cx, cy, ox, oy, t, strike, direction, iterations,
                      segments, jaws, pockets, p, width, length, rail, tol):
    """The throw- and squirt-corrected aim [deg] of ``strike`` (V0, phi°, theta°, a, b) from a cue ball at (cx, cy) at
    ball ``t`` alone at (ox, oy): reads the direction the target leaves in after the first collision and moves the
    ghost ball to cancel its difference from ``direction`` [deg] (each of ``iterations`` one simulation of the physics
    through the C function at ``address``, ``nineball_env.kernels.shot``, stopping within 0.01°; the first
    ``AIM_FIRST_EVENTS`` events first: an event-based simulation logs the same first events whatever its event cap,
    and the cue ball's first contact is nearly always among them). ``template`` is an
    empty packed state (n, 9); ``state``, ``log`` (AIM_MAX_EVENTS, LOG_W), ``shot`` (5,) and ``status`` (4,) int64
    scratch buffers."""
    R = p[P_R]
    phi = strike[1]
    want = direction
    for _ in range(iterations):
        got = np.nan
        for cap in (AIM_FIRST_EVENTS, AIM_MAX_EVENTS):  # the first events, all of them only when no contact is there
            state[:] = template
            _place(state, CUE_BALL, cx, cy)
            _place(state, t, ox, oy)
            shot[0] = strike[0]
            shot[1] = math.radians(phi)
            shot[2] = math.radians(strike[2])
            shot[3] = strike[3]
            shot[4] = strike[4]
            count, flags, code, _, _ = simulate(address, state, shot, STRIKE, segments, jaws, pockets, p, width, length,
                                                rail, tol, cap, AIM_MAX_TIME, log, status)
            if code != 0:
                return phi
            contact = False
            for e in range(min(count, cap)):
                a, b = int(log[e, 2]), int(log[e, 3])
                if int(log[e, 1]) == E.BALL_BALL and (a == 0 or b == 0):  # the first collision of the cue ball
                    contact = True
                    if t == a or t == b:
                        c0 = 5 if a == t else 13
                        vx, vy = log[e, c0 + 2], log[e, c0 + 3]
                        if not (vx == 0.0 and vy == 0.0):
                            got = math.degrees(math.atan2(vy, vx))
                    break
            if contact or not flags & FLAG_EVENT_CAP:
                break
        if np.isnan(got):
            break
        error = (got - direction + 180.0) % 360.0 - 180.0  # numba's float % is Python's
        if abs(error) < 0.01:
            break
        want = want - error
        gx = ox - 2.0 * R * math.cos(math.radians(want))
        gy = oy - 2.0 * R * math.sin(math.radians(want))
        phi = math.degrees(math.atan2(gy - cy, gx - cx))
    return phi


@njit(cache=True)
def corrected_phi_batch(address, template, cue, obj, target, direction, shots, iterations, segments, jaws, pockets, p,
                        width, length, rail, tol, out):
    """``corrected_phi_row`` of every row: row i strikes ``shots[i]`` from a cue ball at ``cue[i]`` at ball
    ``target[i]`` alone at ``obj[i]`` to send it off in ``direction[i]`` [deg]; aims into ``out``."""
    state = np.empty_like(template)
    log = np.empty((AIM_MAX_EVENTS, LOG_W))
    shot = np.empty(5)
    status = np.empty(4, dtype=np.int64)
    for i in range(cue.shape[0]):
        out[i] = corrected_phi_row(address, template, state, log, shot, status, cue[i, 0], cue[i, 1], obj[i, 0],
                                   obj[i, 1], target[i], shots[i], direction[i], iterations, segments, jaws, pockets, p,
                                   width, length, rail, tol)


@njit(cache=True)
def run_row(state, row, shot, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time, log):
    """The physics' ``run_shot`` of the strike ``row`` (V0, phi°, theta°, a, b) from the packed ``state`` (n, 9),
    in place, through the buffer ``shot`` (5,) (angles in radians there): (n_events, flags, layout_code, i, j)."""
    shot[0] = row[0]
    shot[1] = math.radians(row[1])
    shot[2] = math.radians(row[2])
    shot[3] = row[3]
    shot[4] = row[4]
    return run_shot(state, shot, STRIKE, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time,
                    log)


@njit(cache=True)
def shot_values_batch(states, racks, which, shots, aims, axes, m, sigma_phi, segments, jaws, pockets, p, width,
                      length, rail, tol, max_events, max_time, simultaneous, out):
    """Noise-free values in [0, 1] (``leaves``) of shots (V0, phi°, theta°, a, b) ``shots[i]`` from packed
    state ``states[which[i]]`` (n, 9), ruled by the rules kernel as an ordinary shot from rack row ``racks[which[i]]``:
    0 for a foul or a layout the physics rejects, 1 when the 9 drops legally, else 0.5 ± 0.5·(the leave's ease) as
    the turn stays or passes. ``sigma_phi[which[i]]`` [deg] is the aim noise of the ease."""
    state = np.empty_like(states[0])
    log = np.empty((max_events, LOG_W))
    shot = np.empty(5)
    first_bits = np.zeros(1, dtype=np.int64)
    first_time = np.zeros(1)
    cushion_bits = np.zeros(1, dtype=np.int64)
    pocketed = np.zeros((1, N_BALLS), dtype=np.int64)
    n_pocketed = np.zeros(1, dtype=np.int64)
    off = np.zeros((1, N_BALLS), dtype=np.int64)
    n_off = np.zeros(1, dtype=np.int64)
    after = np.empty((1, RACK_W), dtype=np.int64)
    fouls = np.empty(1, dtype=np.int64)
    cited = np.empty((1, MAX_CITED), dtype=np.int64)
    n_cited = np.empty(1, dtype=np.int64)
    spotted = np.empty(1, dtype=np.bool_)
    decl = np.full(1, _SHOT, dtype=np.int64)
    R = p[P_R]
    for i in range(shots.shape[0]):
        j = which[i]
        state[:] = states[j]
        count, _, code, _, _ = run_row(state, shots[i], shot, segments, jaws, pockets, p, width, length, rail, tol,
                                       max_events, max_time, log)
        if code != 0:
            out[i] = 0.0
            continue
        summarize_rows(log, min(count, max_events), ROW0, simultaneous, first_bits, first_time, cushion_bits, pocketed,
                       n_pocketed, off, n_off)
        rule_batch(racks[j:j + 1], decl, first_bits, cushion_bits, pocketed, n_pocketed, off, n_off, after, fouls,
                   cited, n_cited, spotted)
        if fouls[0] != 0:
            out[i] = 0.0
            continue
        potted = 0
        nine = False
        for q in range(n_pocketed[0]):
            if pocketed[0, q] != 0:
                potted += 1
            if pocketed[0, q] == NINE:
                nine = True
        if nine:
            out[i] = 1.0
            continue
        e = leave_ease(state, aims, axes, m, width, length, R, sigma_phi[j])
        out[i] = 0.5 + 0.5 * e if potted > 0 else 0.5 - 0.5 * e


@njit(cache=True)
def ruled_shots(states, racks, which, shots, segments, jaws, pockets, p, width, length, rail, tol, max_events,
                max_time, simultaneous, out):
    """Shots (V0, phi°, theta°, a, b) ``shots[i]`` from packed states ``states[which[i]]`` (n, 9), simulated one
    after another with the physics' ``run_shot`` (no thread pool: a process that forks match workers stays safe)
    and ruled as ordinary shots from packed rack rows ``racks[which[i]]`` (the rules' ``rule_log``, as
    ``rules.decide_log``). ``out[i]`` = (status, fouls bit mask, object balls pocketed); status 0 = ruled,
    1 = the layout is refused, 2 = a cap stopped the shot with a ball in the air (not ruled)."""
    work = np.empty_like(states[0])
    log = np.empty((max_events, LOG_W))
    shot = np.empty(5)
    for i in range(shots.shape[0]):
        j = which[i]
        work[:] = states[j]
        count, flags, code, _, _ = run_row(work, shots[i], shot, segments, jaws, pockets, p, width, length, rail,
                                           tol, max_events, max_time, log)
        out[i, 1] = 0
        out[i, 2] = 0
        if code != 0:
            out[i, 0] = 1
            continue
        if flags & FLAG_IN_FLIGHT:
            out[i, 0] = 2
            continue
        _, fouls, _, _, pocketed, _ = rule_log(log[:min(count, max_events)], racks[j], SHOT_CODE, simultaneous)
        out[i, 0] = 0
        out[i, 1] = fouls
        for b in pocketed:
            if b != 0:
                out[i, 2] += 1


@njit(cache=True)
def least_jump_speed(blockers, kh, kz, R, g, clearance, offsets, v_max, d_point):
    """The least cue speed [m/s] (bisection from 0.5 to ``v_max``, to 1 cm/s) whose first flight, launched at ``kh``
    and ``kz`` [m/s per m/s of cue speed] horizontally and up, passes every blocking ball (distance along the path,
    offset) of ``blockers`` (k, 2) with ``clearance`` to spare over touching (the ball's path sampled at its
    distance + ``offsets``), and whose bottom is below the top of the ball at ``d_point`` 2R before it; -1 when
    none does (``jumps.jump_speed``)."""
    lo, hi = 0.5, v_max
    if not _clears(hi, kh, kz, blockers, R, g, clearance, offsets):
        return -1.0
    while hi - lo > 0.01:
        mid = 0.5 * (lo + hi)
        if _clears(mid, kh, kz, blockers, R, g, clearance, offsets):
            hi = mid
        else:
            lo = mid
    if flight_height(d_point - 2.0 * R, hi, kh, kz, g) > 1.6 * R:
        return -1.0
    return hi


@njit(cache=True)
def jump_speed_to(cx, cy, px, py, obstacles, n_obs, kh, kz, R, g, clearance, offsets, v_max):
    """``least_jump_speed`` of a jump from (cx, cy) towards (px, py) over the first ``n_obs`` ball centres of
    ``obstacles``, launched at ``kh``, ``kz`` per m/s of cue speed; -1 when none clears or nothing blocks
    (``jumps.jump_speed``)."""
    if kh <= 0.0 or kz <= 0.0 or n_obs == 0:
        return -1.0
    ux, uy = unit(px - cx, py - cy)
    blockers = np.empty((n_obs, 2))
    for k in range(n_obs):
        rx, ry = obstacles[k, 0] - cx, obstacles[k, 1] - cy
        blockers[k, 0] = rx * ux + ry * uy
        blockers[k, 1] = rx * -uy + ry * ux
    return least_jump_speed(blockers, kh, kz, R, g, clearance, offsets, v_max, math.hypot(px - cx, py - cy))


@njit(cache=True)
def jump_candidate_rows(cue, pos, on, lowest, aims, axes, m, width, length, R, reach2, g, clearance, offsets, v_max,
                        elevations, tips, launch, factors, shots, pockets, blockers, counts):
    """Jump shots at ball ``lowest[i]`` of layout i (``pos[i]`` (n, 2), ``on[i]``) from the cue ball at ``cue[i]``
    when the straight path is blocked (``jumps.jump_candidates``): over the blocking balls at the ball itself and
    at the ghost ball of every pocket whose object-ball path is clear, at each elevation ``elevations[e]`` with the
    tip ``tips[i, e]`` (launched at ``launch[i, e]`` = (kh, kz)) and ``factors`` times the least speed that clears
    (``jump_speed_to``, at most ``v_max[i]``). Per layout the strikes (V0, phi, theta, a, b) into ``shots[i]``,
    the pocket (-1: at the ball) into ``pockets[i]``, the blocking balls as a bit mask into ``blockers[i]`` and
    how many into ``counts[i]``."""
    n = pos.shape[1]
    others = np.empty(n, dtype=np.int64)
    obstacles = np.empty((n, 2))
    points = np.empty((7, 3))
    one = np.empty((1, 2))
    over = np.empty((n, 2))
    for i in range(cue.shape[0]):
        counts[i] = 0
        low = lowest[i]
        cx, cy = cue[i, 0], cue[i, 1]
        ox, oy = pos[i, low, 0], pos[i, low, 1]
        n_others = np.int64(0)
        for b in range(1, n):
            if on[i, b] and b != low:
                others[n_others] = b
                obstacles[n_others, 0], obstacles[n_others, 1] = pos[i, b, 0], pos[i, b, 1]
                n_others += 1
        blocked = False
        for q in range(n_others):
            one[0, 0], one[0, 1] = obstacles[q, 0], obstacles[q, 1]
            if not path_clear(cx, cy, ox, oy, one, ONE, reach2):
                blocked = True
        if not blocked:
            continue
        points[0, 0], points[0, 1], points[0, 2] = ox, oy, -1.0
        n_points = 1
        r_in = R * 0.999
        for k in range(6):
            ok, tx, ty, _ = pocket_target(ox, oy, k, aims, axes, m)
            if not ok:
                continue
            gx, gy, _, _ = ghost(ox, oy, tx, ty, R)
            if not ((r_in <= gx <= width - r_in) and (r_in <= gy <= length - r_in)) or cut_between(
                    cx, cy, gx, gy, tx - ox, ty - oy) > 60.0:
                continue
            if path_clear(ox, oy, tx, ty, obstacles, n_others, reach2):
                points[n_points, 0], points[n_points, 1], points[n_points, 2] = gx, gy, k
                n_points += 1
        for a in range(n_points):
            px, py = points[a, 0], points[a, 1]
            n_over = np.int64(0)
            mask = 0
            for q in range(n_others):
                one[0, 0], one[0, 1] = obstacles[q, 0], obstacles[q, 1]
                if not path_clear(cx, cy, px, py, one, ONE, reach2):
                    over[n_over, 0], over[n_over, 1] = obstacles[q, 0], obstacles[q, 1]
                    n_over += 1
                    mask |= 1 << others[q]
            if n_over == 0:
                continue  # a clear pot: the ordinary pot options cover it
            phi = math.degrees(math.atan2(py - cy, px - cx))
            for e in range(elevations.shape[0]):
                V = jump_speed_to(cx, cy, px, py, over, n_over, launch[i, e, 0], launch[i, e, 1], R, g, clearance,
                                  offsets, v_max[i])
                if V < 0.0:
                    continue
                for f in range(factors.shape[0]):
                    c = counts[i]
                    shots[i, c, 0] = min(V * factors[f], v_max[i])
                    shots[i, c, 1] = phi
                    shots[i, c, 2] = elevations[e]
                    shots[i, c, 3] = 0.0
                    shots[i, c, 4] = tips[i, e]
                    pockets[i, c] = int(points[a, 2])
                    blockers[i, c] = mask
                    counts[i] = c + 1


@njit(cache=True)
def flight_height(s, V0, kh, kz, g):
    """Height [m] of the cue ball's bottom above the cloth at plan distance ``s`` [m] (a number or an array) of a
    first flight launched at cue speed ``V0`` [m/s], ``kh`` and ``kz`` horizontally and up per m/s of it."""
    vh = kh * V0
    return (kz / kh) * s - 0.5 * g * (s / vh) ** 2


@njit(cache=True)
def _clears(V0, kh, kz, blockers, R, g, clearance, offsets):
    """Whether the first flight at cue speed V0 passes every blocker with ``clearance`` to spare."""
    reach = (2.0 * R + clearance) ** 2
    for k in range(blockers.shape[0]):
        along, offset = blockers[k, 0], blockers[k, 1]
        for q in range(offsets.shape[0]):
            s = along + offsets[q]
            if not s > 0.0:
                continue
            h = flight_height(s, V0, kh, kz, g)
            if h < 0.0 or (s - along) ** 2 + offset ** 2 + max(h, 0.0) ** 2 < reach:
                return False
    return True


@njit(cache=True)
def settled_states(states, which, shots, segments, jaws, pockets, p, width, length, rail, tol, max_events, max_time,
                   finals, codes):
    """The packed state (n, 9) each shot (V0, phi°, theta°, a, b) ``shots[i]`` from ``states[which[i]]`` leaves
    (``finals[i]``: the physics' ``run_shot`` with these caps, one shot after another) and its layout code
    (``codes[i]``, 0 when the physics accepts the layout)."""
    log = np.empty((max_events, LOG_W))
    shot = np.empty(5)
    for i in range(shots.shape[0]):
        finals[i] = states[which[i]]
        _, _, codes[i], _, _ = run_row(finals[i], shots[i], shot, segments, jaws, pockets, p, width, length, rail,
                                       tol, max_events, max_time, log)


@njit(cache=True)
def cue_spot_points(pos, on, lowest, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, points,
                    pocket_of, free, counts):
    """Ball-in-hand spots behind ball ``lowest[i]`` of layout i (``pos[i]`` (n, 2), ``on[i]``): for every pocket it
    can reach (``pocket_target``), the points ``dist[j]`` [m] from the ball on the line from the pocket turned by
    the angle of cosine ``c[j]`` and sine ``s[j]``. Per layout into ``points[i]`` (pocket by pocket), their pocket
    into ``pocket_of[i]``, whether each is a legal free spot (``placement.is_free``, anywhere on the table) into
    ``free[i]`` and how many into ``counts[i]`` (``pots.cue_spots``)."""
    others = np.empty((pos.shape[1], 2))
    for i in range(pos.shape[0]):
        n_others = np.int64(0)  # typed, not a literal (see STRIKE above)
        for b in range(1, pos.shape[1]):
            if on[i, b]:
                others[n_others, 0], others[n_others, 1] = pos[i, b, 0], pos[i, b, 1]
                n_others += 1
        ox, oy = pos[i, lowest[i], 0], pos[i, lowest[i], 1]
        n = 0
        for k in range(6):
            ok, tx, ty, _ = pocket_target(ox, oy, k, aims, axes, m)
            if not ok:
                continue
            bx, by = unit(ox - tx, oy - ty)
            for j in range(dist.shape[0]):
                points[i, n, 0] = ox + dist[j] * (c[j] * bx - s[j] * by)
                points[i, n, 1] = oy + dist[j] * (s[j] * bx + c[j] * by)
                pocket_of[i, n] = k
                free[i, n] = is_free(points[i, n, 0], points[i, n, 1], others, n_others, R, width, length, head_y,
                                     ANYWHERE, rims, margin)
                n += 1
        counts[i] = n


@njit(cache=True)
def spot_pots(pos, on, lowest, sigma, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, points,
              options, found):
    """The ball-in-hand spots of ``cue_spot_points`` (into ``points`` (N, per, 2)) and their pots: for each free
    spot, the first clear pot of ball ``lowest[i]`` into the spot's pocket from a cue ball there (``pot_options_row``
    without combinations, aim noise ``sigma[i]`` [deg]) into ``options[i, j]`` (OPT_W) and whether there is one into
    ``found[i, j]`` (``pots.cue_spots``)."""
    N, per = pos.shape[0], points.shape[1]
    pocket_of = np.empty((N, per), dtype=np.int64)
    free = np.zeros((N, per), dtype=np.bool_)
    counts = np.empty(N, dtype=np.int64)
    cue_spot_points(pos, on, lowest, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, points,
                    pocket_of, free, counts)
    others = np.empty((pos.shape[1], 2))
    targets = np.empty((6, 3))  # per pocket: the target point and half window (``pocket_target``)
    clear = np.empty(6, dtype=np.bool_)
    reach2 = (2.0 * R) ** 2
    for i in range(N):
        # ``pot_options_row``'s direct pot into the spot's pocket alone (its other pockets' pots are not looked at):
        # the same obstacles (the object balls but ``lowest[i]``, which no cue position changes) and arguments
        low = lowest[i]
        n_others = np.int64(0)
        for b in range(1, pos.shape[1]):
            if on[i, b] and b != low:
                others[n_others, 0], others[n_others, 1] = pos[i, b, 0], pos[i, b, 1]
                n_others += 1
        ox, oy = pos[i, low, 0], pos[i, low, 1]
        for k in range(6):  # a pocket whose path from the ball is blocked has no pot from any spot (``_direct``)
            ok, targets[k, 0], targets[k, 1], targets[k, 2] = pocket_target(ox, oy, k, aims, axes, m)
            clear[k] = ok and path_clear(ox, oy, targets[k, 0], targets[k, 1], others, n_others, reach2)
        for j in range(per):
            found[i, j] = False
            if j >= counts[i] or not free[i, j]:
                continue
            k = pocket_of[i, j]
            found[i, j] = clear[k] and _direct(points[i, j, 0], points[i, j, 1], ox, oy, targets[k, 0], targets[k, 1],
                                               targets[k, 2], low, low, k, others, n_others, others, n_others, width,
                                               length, R, sigma[i], SPOT_MAX_CUT, m, 0.0, options[i, j])
