"""The compiled stages of a batched geometric decision round (``agents.players.ghost_ball``) for many tables at once:
its geometry (``plan_rows``: the break spot, the push-out choice, ball-in-hand spots, the pot to play with its speed,
spin and throw-corrected aim, else the safety or kick, and the encoded actions), and the noisy samples and the choice
of its jumps (``jump_round``: the candidates, their simulations with and without noise, the choice).

Each kernel is one call for every row of a round, so a round costs a few kernel calls and no Python per table; one
row is a batch of one. They reuse the shot geometry (``agents.shots.kernels``) and the env's placement, aiming, noise
and action kernels, so nothing here restates a rule of placement, the noise or the action encoding. Units: metres,
seconds, m/s; angles in degrees.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.protocol_kernels import observed_rows
from agents.shots.kernels import (AIM_MAX_EVENTS, ANYWHERE, MAX_OPTIONS, NO_COMBOS, O_BALL, O_CUT, O_D_CUE, O_D_OBJ,
                                  O_DIRECTION, O_EASE, O_PHI, O_TARGET, OPT_W, ROLLING, SHOT_CODE, SPOT_MAX_CUT, STRIKE,
                                  corrected_phi_row, jump_candidate_rows, pot_options_row, spot_pots)
from nineball_env.kernels.aiming import path_clear
from nineball_env.kernels.codes import BallInHandCode, PhaseCode, RackCol
from nineball_env.kernels.placement import nearest_free
from nineball_env.kernels.round import encode_action, perturbed
from nineball_env.kernels.ruling import rule_log
from nineball_env.kernels.shot import simulate
from physics.kernels.codes import FLAG_IN_FLIGHT, LOG_W, POCKETED, S_MOTION, S_POCKET, STATE_W, STATIONARY

#: Columns of the numbers ``rolling_speed`` reads: rolling resistance, gravity, ball-ball restitution, cue mass and
#: ball mass, and the exponent 2.0 of its squares, read at run time so that a square is libm's pow(x, 2.0) as
#: Python's ``x ** 2`` (the formula was Python's first): the x * x numba makes of a constant exponent differs from it
#: in the last bit for about one x in a thousand.
U_R, G, E_B, CUE_MASS, MASS, SQUARE = range(6)
#: Safety speeds [m/s]: into a cluster of balls, a one-rail kick, and the plain hit when no kick is clear.
CLUSTER_SPEED, KICK_SPEED, BLIND_SPEED = 6.0, 3.0, 2.5
#: Columns of ``plan_rows``' config row (``GhostBallConfig``'s thresholds and speeds, the speed range of its shots).
C_ARRIVE, C_STUN_CUT, C_COMBO_MIN, C_SAFETY_BELOW, C_PUSH_BELOW, C_PASS_BACK, C_BREAK_SPEED, C_V_MIN, C_V_MAX = range(9)
#: ``plan_rows``' stage bits: what the simulations must still decide for a row.
ASK_PUSH, ASK_JUMP = 1, 2
#: Intent codes of the rows (``INTENT_NAMES``: ``agents.protocol.INTENTS``' names).
BREAK, POT, SAFETY, PUSH_OUT, CHOICE, JUMP, JUMP_POT = range(7)
INTENT_NAMES = ("break", "pot", "safety", "push-out", "choice", "jump", "jump-pot")
P_BREAK, P_CHOICE, P_PUSH_ALLOWED = (int(PhaseCode.BREAK), int(PhaseCode.PUSH_OUT_CHOICE),
                                     int(PhaseCode.PUSH_OUT_ALLOWED))
NO_HAND, IN_KITCHEN = int(BallInHandCode.NONE), int(BallInHandCode.KITCHEN)
P_NORMAL = int(PhaseCode.NORMAL)
NONE = np.int64(-1)  # no option (typed: ``choose``'s indices are int64)
KITCHEN = np.bool_(True)  # ``placement.nearest_free``'s kitchen flag on the break
COMBOS = np.bool_(True)


@njit(cache=True)
def rolling_speed(d_cue, d_obj, cut, arrive, phys):
    """Cue speed V0 [m/s] that sends the object ball ``d_obj`` to the pocket with about ``arrive`` left after the
    cue ball travelled ``d_cue`` to a cut of ``cut`` (``phys``: the ``U_R``... columns, ``pots.physics_row``); the one
    implementation, ``pots.rolling_speed_for`` calls it from Python."""
    decel = 2.0 * phys[U_R] * phys[G]
    cos_cut = max(math.cos(math.radians(cut)), 0.25)
    v_obj = math.sqrt(arrive ** phys[SQUARE] + decel * d_obj) * 7.0 / 5.0
    v_contact = v_obj / (cos_cut * (1.0 + phys[E_B]) / 2.0)
    v_start = math.sqrt(v_contact ** phys[SQUARE] + decel * d_cue) * 7.0 / 5.0
    strike = 2.0 * phys[CUE_MASS] / (phys[CUE_MASS] + phys[MASS])
    return v_start / strike


@njit(cache=True)
def direction(sx, sy, ex, ey):
    """The aim [deg, CCW from +x] from (sx, sy) towards (ex, ey) (``aim.direction_deg``)."""
    return math.degrees(math.atan2(ey - sy, ex - sx))


@njit(cache=True)
def spot_rows(pos, on, lowest, sigma, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, gap, out):
    """Ball-in-hand spots of layouts ``pos`` (N, n, 2), ``on`` (N, n) behind ball ``lowest[i]``: of the spots with a
    clear pot (``kernels.spot_pots``, aim noise ``sigma[i]`` [deg]), easiest first (a stable sort), the first best
    by ease less 0.02 for a dead-straight pot (cut < 2°); without one, the nearest free point 0.3 m below the lowest
    ball (``placement.nearest_free``). ``out[i]`` = (found, x, y); found 0: no free spot at all."""
    N, per = pos.shape[0], 6 * dist.shape[0]
    points = np.empty((N, per, 2))
    options = np.empty((N, per, OPT_W))
    found = np.empty((N, per), dtype=np.bool_)
    spot_pots(pos, on, lowest, sigma, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, points,
              options, found)
    ease = np.empty(per)
    score = np.empty(per)
    spot = np.empty(per, dtype=np.int64)
    others = np.empty((pos.shape[1], 2))
    best = np.empty(4)
    for i in range(N):
        k = 0
        for j in range(per):
            if found[i, j]:
                ease[k] = options[i, j, O_EASE]
                score[k] = options[i, j, O_EASE] - (0.02 if options[i, j, O_CUT] < 2.0 else 0.0)
                spot[k] = j
                k += 1
        if k:
            order = np.argsort(-ease[:k], kind="mergesort")  # easiest first, stable
            top = order[0]
            for q in order[1:]:
                if score[q] > score[top]:
                    top = q
            out[i, 0], out[i, 1], out[i, 2] = 1.0, points[i, spot[top], 0], points[i, spot[top], 1]
            continue
        n_others = np.int64(0)
        for b in range(1, pos.shape[1]):
            if on[i, b]:
                others[n_others, 0], others[n_others, 1] = pos[i, b, 0], pos[i, b, 1]
                n_others += 1
        low = lowest[i]
        nearest_free(pos[i, low, 0], pos[i, low, 1] - 0.3, others, n_others, R, width, length, head_y, ANYWHERE, rims,
                     gap, best)
        out[i, 0], out[i, 1], out[i, 2] = best[0], best[1], best[2]


@njit(cache=True)
def safety_row(cx, cy, pos, on, low, R, reach2, width, length, phys, v_min, v_max, obstacles, out):
    """The safety from a cue ball at (cx, cy) in the layout ``pos`` (n, 2), ``on`` (n,) at ball ``low``, as a strike
    (V0, phi, theta, a, b) into ``out`` (5,): a full hit with a little draw, hard enough to reach a rail
    (``CLUSTER_SPEED`` into a cluster: two other balls within 0.15 m), when the path is clear; else the shortest
    clear one-rail kick (mirror image across each cushion line); else a plain hit at the ball. ``reach2`` is
    (2R)² [m²] as Python's ``aim.path_clear`` squares it; ``obstacles`` (n, 2) a buffer."""
    ox, oy = pos[low, 0], pos[low, 1]
    k = np.int64(0)
    close = 0
    for b in range(1, 10):
        if on[b] and b != low:
            obstacles[k, 0], obstacles[k, 1] = pos[b, 0], pos[b, 1]
            if math.hypot(pos[b, 0] - ox, pos[b, 1] - oy) < 0.15:
                close += 1
            k += 1
    out[2], out[3], out[4] = 0.0, 0.0, 0.0
    if path_clear(cx, cy, ox, oy, obstacles, k, reach2):
        V = rolling_speed(math.hypot(ox - cx, oy - cy), 0.6, 0.0, 0.4, phys)
        if close >= 2:
            V = CLUSTER_SPEED
        out[0], out[1], out[4] = min(max(V, v_min), v_max), direction(cx, cy, ox, oy), -0.2
        return
    best_len = np.inf
    out[0], out[1] = BLIND_SPEED, direction(cx, cy, ox, oy)
    for q in range(4):
        v = (R, width - R, R, length - R)[q]
        ix, iy = (2.0 * v - ox, oy) if q < 2 else (ox, 2.0 * v - oy)
        dx, dy = ix - cx, iy - cy
        d_axis, c_axis = (dx, cx) if q < 2 else (dy, cy)
        if abs(d_axis) < 1e-9:
            continue
        t = (v - c_axis) / d_axis
        if not 0.0 < t < 1.0:
            continue
        rx, ry = cx + t * dx, cy + t * dy
        if path_clear(cx, cy, rx, ry, obstacles, k, reach2) and path_clear(rx, ry, ox, oy, obstacles, k, reach2):
            d = math.hypot(dx, dy)
            if d < best_len:
                best_len = d
                out[0], out[1] = KICK_SPEED, direction(cx, cy, ix, iy)


#: Columns of ``refined_rows``' refinement row: the speed's octaves per unit of u, the side and vertical tip offsets
#: per unit of u, the base 2.0 of the speed factor (read at run time: a constant base lets the compiler turn pow
#: into exp2, which differs from Python's ``2.0 ** x`` in the last bit), the pots' arrival speed [m/s].
F_OCTAVES, F_TIP_A, F_TIP_B, F_BASE, F_ARRIVE = range(5)


@njit(cache=True)
def refined_rows(slot, options, u, cues, pos, on, lowest, R, reach2, width, length, phys, v_min, v_max, refine,
                 shots):
    """The macro layer's strikes (``agents.learned.macro``) before the pots' throw correction, for N rows: where
    ``slot[i]`` < options.shape[1], the ghost-ball pot of option row ``options[i, slot[i]]`` at ``rolling_speed``
    (to arrive at ``refine[F_ARRIVE]``), else GhostBall's safety (``safety_row``) from the cue ball ``cues[i]`` in
    layout ``pos[i]``, ``on[i]`` at ball ``lowest[i]``; its speed times base ** (octaves · u[i, 2]) kept in
    [v_min, v_max], tip offsets a = tip_a · u[i, 4], b = tip_b · u[i, 3] (``refine``: the ``F_*`` columns), no
    elevation. Strikes (V0, phi, theta, a, b) into ``shots`` (N, 5)."""
    obstacles = np.empty((pos.shape[1], 2))
    for i in range(slot.shape[0]):
        if slot[i] < options.shape[1]:
            o = options[i, slot[i]]
            V = rolling_speed(o[O_D_CUE], o[O_D_OBJ], o[O_CUT], refine[F_ARRIVE], phys)
            shots[i, 1] = o[O_PHI]
        else:
            safety_row(cues[i, 0], cues[i, 1], pos[i], on[i], lowest[i], R, reach2, width, length, phys, v_min, v_max,
                       obstacles, shots[i])
            V = shots[i, 0]
        factor = refine[F_BASE] ** (refine[F_OCTAVES] * u[i, 2])
        shots[i, 0] = min(max(V * factor, v_min), v_max)
        shots[i, 2] = 0.0
        shots[i, 3] = refine[F_TIP_A] * u[i, 4]
        shots[i, 4] = refine[F_TIP_B] * u[i, 3]


@njit(cache=True)
def choose(options, n, combo_min_ease):
    """The index of the option to play among ``options`` (n of them, easiest first): the easiest direct pot, or the
    easiest combination on the 9 when its ease is at least ``combo_min_ease`` and beats the direct pot; -1: none."""
    direct = NONE
    combo = NONE
    for q in range(n):
        if options[q, O_BALL] != options[q, O_TARGET]:
            if combo < 0:
                combo = q
        elif direct < 0:
            direct = q
    if combo >= 0 and options[combo, O_EASE] >= combo_min_ease and (
            direct < 0 or options[combo, O_EASE] > options[direct, O_EASE]):
        return combo
    return direct


@njit(cache=True)
def plan_rows(pos, on, lowest, racks, aim, scale, aims, axes, m, dist, c, s, R, reach2, width, length, head_y, rims,
              margin, gap, phys, cfg, template, address, iterations, segments, jaws, pockets, p, rail, tol, shots,
              has_shot, placed, spots, pass_back, intent, stage, cues, best, out):
    """GhostBall's round up to its simulations, for layouts ``pos`` (N, n, 2), ``on`` (N, n) with the rack state
    ``racks`` (N, RACK_W) (its phase and ball in hand), ball to hit ``lowest`` and aim noise ``aim`` [deg] of each
    (``cfg`` the ``C_*`` columns of the config): the break from behind the head string (a free spot, kitchen), the push-out
    choice (pass back when the best pot's ease is below ``C_PASS_BACK``), ball-in-hand spots (``spot_rows``), the
    pot to play (``choose``), its speed and spin, its aim corrected for throw (``kernels.corrected_phi_row``,
    ``iterations`` simulations at most, 0: none; the physics through the C function at ``address``, so that this
    kernel carries no copy of it: ``template`` and the arguments from ``segments`` to ``tol`` are its), else the
    safety (``safety_row``). Per row the strike (V0, phi, theta, a, b) into ``shots``, whether there is one, the spot
    (when ``placed``), the pass-back flag, the intent (``INTENTS`` index), the cue ball's centre ``cues`` and the
    chosen pot ``best`` (OPT_W); ``stage`` the bits of what the simulations must still decide: ``ASK_PUSH`` a push-out
    may beat it, ``ASK_JUMP`` a jump may beat the safety; -1 when the break or ball in hand finds no free spot. Last,
    every row's action (``encode_rows``, action scale ``scale[i]``) into ``out`` (N, 9) float32.
    Returns the stage bits of all rows together (-1 when a row found no free spot)."""
    N, n = pos.shape[0], pos.shape[1]
    phase, in_hand = racks[:, RackCol.PHASE], racks[:, RackCol.IN_HAND]
    hand = np.empty(N, dtype=np.int64)
    n_hand = 0
    for i in range(N):
        if phase[i] != P_BREAK and phase[i] != P_CHOICE and in_hand[i] != NO_HAND:
            hand[n_hand] = i
            n_hand += 1
    hand = hand[:n_hand]
    found = np.empty((n_hand, 3))
    spot_rows(pos[hand], on[hand], lowest[hand], aim[hand], aims, axes, m, dist, c, s, R, width, length, head_y, rims,
              margin, gap, found)
    others = np.empty((n, 2))
    where = np.empty(4)
    options = np.empty((MAX_OPTIONS, OPT_W))
    state = np.empty_like(template)  # the throw correction's scratch
    log = np.empty((AIM_MAX_EVENTS, LOG_W))
    shot = np.empty(5)
    status = np.empty(4, dtype=np.int64)
    for i in range(N):
        shots[i, 0], shots[i, 1], shots[i, 2], shots[i, 3], shots[i, 4] = 1.0, 0.0, 0.0, 0.0, 0.0
        has_shot[i], placed[i], pass_back[i], stage[i] = True, False, False, 0
        spots[i, 0], spots[i, 1] = 0.0, 0.0
        cues[i, 0], cues[i, 1] = pos[i, 0, 0], pos[i, 0, 1]
        best[i, :] = 0.0
        low = lowest[i]
        if phase[i] == P_BREAK:
            n_others = np.int64(0)
            for b in range(1, n):
                if on[i, b]:
                    others[n_others, 0], others[n_others, 1] = pos[i, b, 0], pos[i, b, 1]
                    n_others += 1
            nearest_free(width / 2.0, head_y - 0.03, others, n_others, R, width, length, head_y, KITCHEN, rims, gap,
                         where)
            if where[0] == 0.0:
                stage[i] = -1
                continue
            shots[i, 0], shots[i, 1] = cfg[C_BREAK_SPEED], direction(where[1], where[2], pos[i, low, 0], pos[i, low, 1])
            placed[i], spots[i, 0], spots[i, 1], intent[i] = True, where[1], where[2], BREAK
            continue
        if phase[i] == P_CHOICE:
            k = pot_options_row(cues[i, 0], cues[i, 1], pos[i], on[i], low, aims, axes, m, width, length, R, aim[i],
                                COMBOS, SPOT_MAX_CUT, options)
            pass_back[i] = (options[0, O_EASE] if k > 0 else 0.0) < cfg[C_PASS_BACK]
            has_shot[i], intent[i] = False, CHOICE
            continue
        if in_hand[i] != NO_HAND:
            q = np.searchsorted(hand, i)
            if found[q, 0] == 0.0:
                stage[i] = -1
                continue
            placed[i], spots[i, 0], spots[i, 1] = True, found[q, 1], found[q, 2]
            cues[i, 0], cues[i, 1] = found[q, 1], found[q, 2]
        k = pot_options_row(cues[i, 0], cues[i, 1], pos[i], on[i], low, aims, axes, m, width, length, R, aim[i],
                            COMBOS, SPOT_MAX_CUT, options)
        at = choose(options, k, cfg[C_COMBO_MIN])
        ease = options[at, O_EASE] if at >= 0 else 0.0
        if phase[i] == P_PUSH_ALLOWED and (at < 0 or ease < cfg[C_PUSH_BELOW]):
            stage[i] |= ASK_PUSH
        if at < 0 or ease < cfg[C_SAFETY_BELOW]:
            safety_row(cues[i, 0], cues[i, 1], pos[i], on[i], low, R, reach2, width, length, phys, cfg[C_V_MIN],
                       cfg[C_V_MAX], others, shots[i])
            stage[i] |= ASK_JUMP
            intent[i] = SAFETY
            continue
        best[i, :] = options[at]
        o = options[at]
        V = rolling_speed(o[O_D_CUE], o[O_D_OBJ], o[O_CUT], cfg[C_ARRIVE], phys)
        shots[i, 0], shots[i, 1] = min(max(V, cfg[C_V_MIN]), cfg[C_V_MAX]), o[O_PHI]
        shots[i, 4] = -0.3 if o[O_CUT] < cfg[C_STUN_CUT] else 0.0
        t = np.int64(o[O_TARGET])
        shots[i, 1] = corrected_phi_row(address, template, state, log, shot, status, cues[i, 0], cues[i, 1],
                                        pos[i, t, 0], pos[i, t, 1], t, shots[i], o[O_DIRECTION], iterations, segments,
                                        jaws, pockets, p, width, length, rail, tol)
        intent[i] = POT
    encode_rows(shots, has_shot, placed, spots, racks, np.zeros(N, dtype=np.bool_), pass_back, R, width, length,
                head_y, scale, out)
    asks = 0
    for i in range(N):
        if stage[i] < 0:
            return -1
        asks |= stage[i]
    return asks


@njit(cache=True)
def start_state(start, pos, on, balls, r, cx, cy):
    """The packed state (n, 9) row ``r`` decides from into ``start`` (``_Rows.states``): ``balls[r]`` when ``balls``
    has rows, else the balls at rest at ``pos[r]`` where ``on[r]`` and off the table elsewhere; the cue ball at rest
    at (cx, cy)."""
    for b in range(start.shape[0]):
        if balls.shape[0]:
            for c in range(STATE_W):
                start[b, c] = balls[r, b, c]
        else:
            for c in range(STATE_W):
                start[b, c] = 0.0
            start[b, 0], start[b, 1] = pos[r, b, 0], pos[r, b, 1]
            start[b, S_MOTION] = STATIONARY if on[r, b] else POCKETED
            start[b, S_POCKET] = -1.0
    start[0, 0], start[0, 1] = cx, cy
    for c in range(2, 7):
        start[0, c] = 0.0
    start[0, S_MOTION], start[0, S_POCKET] = STATIONARY, -1.0


@njit(cache=True)
def push_roll(address, start, low, sigma, rolls, aims, axes, m, width, length, R, segments, jaws, pockets, p, rail, tol,
              max_events, max_time, work, ends, kept, options, shot, log, status):
    """GhostBall's push-out from packed state ``start`` (n, 9) at ball ``low``: every soft roll of ``rolls`` (K, 5)
    simulated (the physics through the C function at ``address``, these caps), the best direct pot of what each
    leaves (``pot_options_row``, aim noise ``sigma`` [deg]) when it keeps every ball on the table as it was and
    the cue ball on it. Returns the index of the first roll whose best pot's ease is nearest 0.5, -1 when no roll
    keeps the balls, -2 - k when the physics refuses the layout of roll k. ``work`` (n, 9), ``ends`` (n, 2),
    ``kept`` (n,) bool, ``options``, ``shot``, ``log``, ``status``: scratch buffers."""
    nb = start.shape[0]
    top, top_gap = np.int64(-1), np.inf
    for k in range(rolls.shape[0]):
        for b in range(nb):
            for c in range(STATE_W):
                work[b, c] = start[b, c]
        shot[0] = rolls[k, 0]
        shot[1] = math.radians(rolls[k, 1])
        shot[2] = math.radians(rolls[k, 2])
        shot[3] = rolls[k, 3]
        shot[4] = rolls[k, 4]
        _, _, code, _, _ = simulate(address, work, shot, STRIKE, segments, jaws, pockets, p, width, length, rail, tol,
                                    max_events, max_time, log, status)
        if code != 0:
            return -2 - k
        keeps = work[0, S_MOTION] <= ROLLING
        for b in range(nb):
            kept[b] = work[b, S_MOTION] <= ROLLING
            ends[b, 0], ends[b, 1] = work[b, 0], work[b, 1]
            if kept[b] != (start[b, S_MOTION] <= ROLLING):
                keeps = False
        if not keeps:
            continue
        n = pot_options_row(work[0, 0], work[0, 1], ends, kept, low, aims, axes, m, width, length, R, sigma, NO_COMBOS,
                            SPOT_MAX_CUT, options)
        gap = abs((options[0, O_EASE] if n > 0 else 0.0) - 0.5)
        if gap < top_gap:  # the first of the nearest
            top, top_gap = k, gap
    return top


#: The most a sample or candidate can be worth (``jump_worth``: a legal pot), what the pruning of ``jump_round`` bounds
#: the samples not yet simulated by.
TOP_WORTH = 2.0
#: ``jump_round``'s return when a simulation stopped with a ball in the air: the caller rules it with the largest caps
#: (``outcome.ruled_rows``) into ``known`` and calls again.
REPLAY = np.int64(-1)


@njit(cache=True)
def jump_worth(address, start, row, rack, work, shot, log, out, segments, jaws, pockets, p, width, length, rail, tol,
               max_events, max_time, simultaneous):
    """The worth of strike ``row`` (V0, phi°, theta°, a, b) from packed state ``start`` as an ordinary shot from the
    packed ``rack`` (GhostBall's ``_worth``: the physics through the C function at ``address``, the rules'
    ``rule_log``): 0 for a foul or a layout the physics refuses, 2 when it pots, 1 otherwise; -1 when a cap stopped
    it with a ball in the air (the caller replays it). ``work``, ``shot``, ``log``, ``out``: scratch buffers."""
    for b in range(start.shape[0]):
        for c in range(start.shape[1]):
            work[b, c] = start[b, c]
    shot[0] = row[0]
    shot[1] = math.radians(row[1])
    shot[2] = math.radians(row[2])
    shot[3] = row[3]
    shot[4] = row[4]
    count, flags, code, _, _ = simulate(address, work, shot, STRIKE, segments, jaws, pockets, p, width, length, rail,
                                        tol, max_events, max_time, log, out)
    if code != 0:
        return 0.0
    if flags & FLAG_IN_FLIGHT:
        return -1.0
    _, fouls, _, _, pocketed, _ = rule_log(log[:min(count, max_events)], rack, SHOT_CODE, simultaneous)
    if fouls != 0:
        return 0.0
    for b in pocketed:
        if b != 0:
            return TOP_WORTH
    return 1.0


@njit(cache=True)
def jump_round(address, cue, pos, on, lowest, balls, racks, safeties, sigma, silent, aims, axes, m, width, length, R,
               reach2, g, clearance, offsets, v_max, elevations, tips, launch, factors, finalists, n, e, limits,
               segments, jaws, pockets, p, rail, tol, max_events, max_time, simultaneous, known, replay, strikes, kind):
    """GhostBall's jumps for M rows in one call: row r's cue ball at ``cue[r]`` in layout ``pos[r]``, ``on[r]``
    (packed balls ``balls[r]`` when ``balls`` has rows, else at rest where ``on``), its kick or safety
    ``safeties[r]``. Its candidates (``kernels.jump_candidate_rows``, the arguments from ``aims`` to ``factors``)
    are simulated without noise (``jump_worth``, as the deciding player's ordinary shot from ``racks[r]``), in order,
    until ``finalists`` of them are worth ``TOP_WORTH`` (no later one can displace them); its finalists are the best
    ``finalists`` worth more than 0 (the earlier of equals first). Each finalist is then simulated ``n`` times under
    the noise (``perturbed``: sample s of finalist j with the errors ``e[(j + 1) n + s]`` scaled by ``sigma[r]``
    unless ``silent[r]``), and the safety with ``e[s]``; the finalist with the best mean worth (the first of equals)
    wins when it beats the safety's. A finalist is dropped once its remaining samples, all at ``TOP_WORTH``, could not
    lift it above the best before it and the safety; the safety's sampling stops once the outcome is settled: the
    choice is the one of all the samples, from fewer simulations.
    The strike into ``strikes[r]`` and kind into ``kind[r]`` (0: at the ball, 1: a jump pot), -1 without one.
    Worth of a shot a cap stopped in the air comes from ``known[r, slot]`` (slot c < MAX: candidate c; MAX + j n + s:
    sample s of finalist j - 1, j = 0 the safety); when that is NaN, (r, slot) and the strike go to ``replay`` and
    the call returns ``REPLAY``; else the number of simulations run."""
    M, nb = cue.shape[0], pos.shape[1]
    per = 7 * elevations.shape[0] * factors.shape[0]
    shots = np.empty((M, per, 5))
    pocket_of = np.empty((M, per), dtype=np.int64)
    blockers = np.empty((M, per), dtype=np.int64)
    counts = np.empty(M, dtype=np.int64)
    jump_candidate_rows(cue, pos, on, lowest, aims, axes, m, width, length, R, reach2, g, clearance, offsets, v_max,
                        elevations, tips, launch, factors, shots, pocket_of, blockers, counts)
    start = np.empty((nb, STATE_W))
    work = np.empty((nb, STATE_W))
    rack = np.empty(racks.shape[1], dtype=np.int64)
    log = np.empty((max_events, LOG_W))
    shot = np.empty(5)
    out = np.empty(4, dtype=np.int64)
    values = np.empty(per)
    finals = np.empty(finalists, dtype=np.int64)
    sample = np.empty(5)
    runs = 0
    for r in range(M):
        kind[r] = -1
        size = counts[r]
        if size == 0:
            continue
        start_state(start, pos, on, balls, r, cue[r, 0], cue[r, 1])  # the packed state and rack of the row
        for c in range(racks.shape[1]):
            rack[c] = racks[r, c]
        rack[RackCol.PHASE], rack[RackCol.IN_HAND] = P_NORMAL, NO_HAND
        tops = 0
        evaluated = 0
        for q in range(size):  # noise-free, until the finalists are settled
            w = jump_worth(address, start, shots[r, q], rack, work, shot, log, out, segments, jaws, pockets, p, width,
                           length, rail, tol, max_events, max_time, simultaneous)
            runs += 1
            if w < 0.0:
                w = known[r, q]
                if np.isnan(w):
                    replay[0], replay[1] = r, q
                    for c in range(5):
                        replay[2 + c] = shots[r, q, c]
                    return REPLAY
            values[q] = w
            evaluated = q + 1
            if w == TOP_WORTH:
                tops += 1
                if tops == finalists:
                    break
        order = np.argsort(-values[:evaluated], kind="mergesort")
        nf = 0
        for q in order:
            if nf == finalists or not values[q] > 0.0:
                break
            finals[nf] = q
            nf += 1
        if nf == 0:
            continue
        top, top_sum = -1, -np.inf
        for j in range(1, nf + 2):  # the finalists, then the safety (j = nf + 1, its errors first: k = s)
            safety = j == nf + 1
            base = safeties[r] if safety else shots[r, finals[j - 1]]
            total = 0.0
            for s in range(n):
                k = s if safety else j * n + s
                if silent[r]:
                    for c in range(5):
                        sample[c] = base[c]
                else:
                    sample[0], sample[1], sample[2], sample[3], sample[4] = perturbed(
                        base[0], base[1], base[2], base[3], base[4], e[k], sigma[r], R, limits)
                w = jump_worth(address, start, sample, rack, work, shot, log, out, segments, jaws, pockets, p, width,
                               length, rail, tol, max_events, max_time, simultaneous)
                runs += 1
                if w < 0.0:
                    w = known[r, per + k]
                    if np.isnan(w):
                        replay[0], replay[1] = r, per + k
                        for c in range(5):
                            replay[2 + c] = sample[c]
                        return REPLAY
                total += w
                rest = TOP_WORTH * (n - 1 - s)
                if safety:
                    if total >= top_sum or total + rest < top_sum:
                        break  # settled: the safety reaches the best finalist, or cannot
                elif total + rest <= top_sum:
                    break  # cannot beat the best finalist before it
            if safety:
                if total < top_sum:
                    c = finals[top]
                    strikes[r, :] = shots[r, c]
                    kind[r] = 1 if pocket_of[r, c] >= 0 else 0
            elif total > top_sum and s == n - 1:
                top, top_sum = j - 1, total
    return runs


#: ``decide_round``'s returns: done; a row found no free spot for the cue ball; a jump stopped in the air (replay it:
#: ``jump_round``'s ``REPLAY``); a rack is over (``replay[0]`` the row); the physics refused a push-out's layout
#: (``replay[0]`` the row, ``replay[2:7]`` the roll); the simulations need the physics (``address`` is 0 or the
#: jumps' launches ``tips``, ``launch`` have no rows: the caller builds them and calls again).
ROUND_DONE, ROUND_NO_SPOT, ROUND_REPLAY, ROUND_OVER, ROUND_REFUSED, ROUND_PHYSICS = range(6)


@njit(cache=True)
def decide_round(obs, pos_at, on_at, phase_at, n_phase, hand_at, n_hand, fouls_at, breaker_at, pos, on, racks, lowest,
                 balls, aim, scale, sigma, silent, tips, launch, aims, axes, m, dist, c, s, R, reach2, width, length,
                 head_y, rims, margin, gap, phys, cfg, template, aim_address, iterations, segments, jaws, pockets, p,
                 rail, tol, address, jumps, rolls, push_events, push_time, g, clearance, offsets, elevations, factors,
                 finalists, n, e, limits, max_events, max_time, simultaneous, known, replay, shots, has_shot, placed,
                 spots, pass_back, intent, stage, cues, best, push, out):
    """GhostBall's whole round (``GhostBallAgent._round``) in one call: the layouts and racks read from the
    observations ``obs`` when it has rows (``protocol_kernels.observed_rows``, the arguments from ``pos_at`` to
    ``breaker_at``, into ``pos``, ``on``, ``racks``, ``lowest``), else as given (``balls``: the packed balls of view
    rows, or no rows); the geometry (``plan_rows``, the arguments from ``aims`` to ``tol`` and the outputs from
    ``shots`` to ``best``, ``out``); the push-outs it asks for (``push_roll`` of ``rolls``, capped at ``push_events``,
    ``push_time``) and, with ``jumps``, the jumps of the rows that stay a safety (``jump_round`` of those rows, the
    arguments from ``g`` to ``simultaneous``, the tips and launches ``tips``, ``launch`` and noise ``sigma``,
    ``silent`` per row, the worth of shots stopped in the air from ``known`` (N, W)), the simulations through the
    physics' C function at ``address``; the changed rows' actions encoded again (``push[i]``: a push-out).
    Returns ``ROUND_DONE`` or why it stopped (``ROUND_*``; ``ROUND_REPLAY``: ``replay`` as ``jump_round`` fills it,
    its row a row of this round)."""
    N, nb = pos.shape[0], pos.shape[1]
    if obs.shape[0]:
        over = observed_rows(obs, pos_at, on_at, phase_at, n_phase, hand_at, n_hand, fouls_at, breaker_at, width,
                             length, R, pos, on, racks, lowest)
        if over >= 0:
            replay[0] = over
            return ROUND_OVER
    asks = plan_rows(pos, on, lowest, racks, aim, scale, aims, axes, m, dist, c, s, R, reach2, width, length, head_y,
                     rims, margin, gap, phys, cfg, template, aim_address, iterations, segments, jaws, pockets, p, rail,
                     tol, shots, has_shot, placed, spots, pass_back, intent, stage, cues, best, out)
    if asks < 0:
        return ROUND_NO_SPOT
    if asks == 0:
        return ROUND_DONE
    if (address == 0 or tips.shape[0] != N) and ((asks & ASK_PUSH) != 0 or (jumps and (asks & ASK_JUMP) != 0)):
        return ROUND_PHYSICS
    changed = False
    for i in range(N):
        push[i] = False
    if (asks & ASK_PUSH) != 0:
        start = np.empty((nb, STATE_W))
        work = np.empty((nb, STATE_W))
        ends = np.empty((nb, 2))
        kept = np.empty(nb, dtype=np.bool_)
        options = np.empty((MAX_OPTIONS, OPT_W))
        shot = np.empty(5)
        log = np.empty((push_events, LOG_W))
        status = np.empty(4, dtype=np.int64)
        for i in range(N):
            if (stage[i] & ASK_PUSH) == 0:
                continue
            start_state(start, pos, on, balls, i, cues[i, 0], cues[i, 1])
            roll = push_roll(address, start, lowest[i], aim[i], rolls, aims, axes, m, width, length, R, segments,
                             jaws, pockets, p, rail, tol, push_events, push_time, work, ends, kept, options, shot, log,
                             status)
            if roll < -1:
                replay[0] = i
                for q in range(5):
                    replay[2 + q] = rolls[-2 - roll, q]
                return ROUND_REFUSED
            if roll >= 0:
                for q in range(5):
                    shots[i, q] = rolls[roll, q]
                intent[i], push[i], changed = PUSH_OUT, True, True
    M = 0
    if jumps and (asks & ASK_JUMP) != 0:
        for i in range(N):
            if (stage[i] & ASK_JUMP) != 0 and not push[i]:
                M += 1
    if M:
        weak = np.empty(M, dtype=np.int64)
        M = 0
        for i in range(N):
            if (stage[i] & ASK_JUMP) != 0 and not push[i]:
                weak[M] = i
                M += 1
        v_max = np.empty(M)
        for r in range(M):
            v_max[r] = scale[weak[r], 1]
        w_balls = balls[weak] if balls.shape[0] else balls
        w_known = known[weak]
        strikes = np.zeros((M, 5))
        kind = np.empty(M, dtype=np.int64)
        if jump_round(address, cues[weak], pos[weak], on[weak], lowest[weak], w_balls, racks[weak], shots[weak],
                      sigma[weak], silent[weak], aims, axes, m, width, length, R, reach2, g, clearance, offsets, v_max,
                      elevations, tips[weak], launch[weak], factors, finalists, n, e, limits, segments, jaws, pockets,
                      p, rail, tol, max_events, max_time, simultaneous, w_known, replay, strikes, kind) == REPLAY:
            replay[0] = weak[int(replay[0])]
            return ROUND_REPLAY
        for r in range(M):
            if kind[r] >= 0:
                i = weak[r]
                for q in range(5):
                    shots[i, q] = strikes[r, q]
                intent[i] = JUMP if kind[r] == 0 else JUMP_POT
                changed = True
    if changed:
        encode_rows(shots, has_shot, placed, spots, racks, push, pass_back, R, width, length, head_y, scale, out)
    return ROUND_DONE


@njit(cache=True)
def encode_rows(shots, has_shot, placed, spots, racks, push_out, pass_back, R, width, length, head_y, scale, out):
    """The actions (``actions.shot_to_action``) of N decisions into ``out`` (N, 9) float32: strike ``shots[i]``
    when ``has_shot[i]``, the cue ball at ``spots[i]`` when ``placed[i]`` (in the kitchen's box when the rack state
    ``racks[i]`` has the ball in hand in the kitchen), the push-out and pass-back flags; ``scale[i]`` = (v_min,
    v_max, tip_max, theta_max)."""
    box = np.empty(4)
    u = np.empty(out.shape[1])
    for i in range(shots.shape[0]):
        box[0], box[1], box[2], box[3] = 0.0, 0.0, 0.0, 0.0
        if placed[i]:
            y_hi = head_y if racks[i, RackCol.IN_HAND] == IN_KITCHEN else length - R
            box[0], box[1], box[2], box[3] = R, width - R, R, y_hi
        s = shots[i]
        encode_action(u, has_shot[i], s[0], s[1], s[2], s[3], s[4], placed[i], spots[i, 0], spots[i, 1], box,
                      push_out[i], pass_back[i], scale[i])
        for j in range(out.shape[1]):
            out[i, j] = u[j]
