"""The compiled core of ``agents.shots.playout``: play many candidate shots and rule them, and describe positions.

``play_rows`` simulates shot rows from packed states (the physics' single-shot entry point), rules each one with the
env's rules kernel and returns the rack row after it and the balls where they stopped (the 9 spotted when the rules
spot it), so a caller can value every outcome at once. ``position_features`` turns a packed state and its rack row
into numbers a value network reads, from the point of view of the player to act.

Units: metres, seconds, angles in degrees unless a name says otherwise.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.shots.kernels import MAX_OPTIONS, NO_COMBOS, O_CUT, O_D_CUE, O_EASE, OPT_W, ROW0, pocket_target, \
    pot_options_row, pot_probability, run_row
from nineball_env.kernels.aiming import path_clear
from nineball_env.kernels.codes import RACK_W, BallInHandCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.facts import N_BALLS, summarize_rows
from nineball_env.kernels.ruling import MAX_CITED, rule_batch
from physics.kernels.codes import FLAG_IN_FLIGHT, LOG_W
from physics.params import P_R

NINE = 9
ROLLING = 3  # physics.Motion codes up to this one are on the table
STATIONARY = 0
#: The rack row a rejected layout gets in column SHOOTER (never a player, never NO_PLAYER).
REJECTED = -2
#: ``pot_options_row``'s combination flag, typed (a literal compiles the callee once more: ``agents.shots.kernels``).
COMBOS = np.bool_(True)
#: Distance [m] behind a ball at which ``position_features`` puts a cue ball to rate how pottable the ball is.
POTTABLE_FROM = 0.3
#: Slots of object balls in ``position_features`` (the lowest first) and how many of them get a pottability.
SLOTS, RATED = 9, 4
#: Feature layout (see ``position_features``).
F_IN_HAND, F_PUSH, F_MY1, F_MY2, F_OPP1, F_OPP2, F_CUE_X, F_CUE_Y, F_LEFT = range(9)
F_SLOT0 = 9  # SLOTS × (present, x, y, is the 9)
F_RATED0 = F_SLOT0 + 4 * SLOTS  # RATED × (pottability, clear pockets / 6)
F_EASE = F_RATED0 + 2 * RATED  # the cue ball's shot on the lowest: ease, options / 6, cut / 90, distance / length
F_OPTIONS, F_CUT, F_DIST, F_BLOCKED, F_TO_LOWEST, F_COMBO = F_EASE + 1, F_EASE + 2, F_EASE + 3, F_EASE + 4, \
    F_EASE + 5, F_EASE + 6
N_FEATURES = F_COMBO + 1


@njit(cache=True)
def _spot_nine(state, foot_x, foot_y, R):
    """Put the 9 on the foot spot (or the first free point behind it on the long string): R-SPOT-9, as
    ``rules.spot_nine`` does for the balls left on the table."""
    y = foot_y
    for _ in range(40):
        free = True
        for b in range(state.shape[0]):
            if b != NINE and state[b, 7] <= ROLLING and math.hypot(state[b, 0] - foot_x, state[b, 1] - y) < 2.0 * R:
                free = False
                break
        if free:
            break
        y += 0.25 * R
    state[NINE, 0], state[NINE, 1] = foot_x, y
    for c in range(2, 7):
        state[NINE, c] = 0.0
    state[NINE, 7] = STATIONARY
    state[NINE, 8] = -1.0


@njit(cache=True)
def play_rows(states, racks, which, shots, declaration, segments, jaws, pockets, p, width, length, rail, tol,
              max_events, max_time, simultaneous, foot_x, foot_y, out_states, out_after):
    """Simulate shot rows (V0, phi°, theta°, a, b) ``shots[i]`` from packed state ``states[which[i]]`` (n, 9), rule them
    with declaration code ``declaration[i]`` from rack row ``racks[which[i]]``, and write the rack row after each shot
    (``out_after``, (N, RACK_W)) and the balls at rest (``out_states``, (N, n, 9); the 9 spotted when the rules spot
    it). A layout the physics rejects, or a shot the caps stop with a ball in the air (its log cannot be ruled), gets
    ``REJECTED`` as its shooter and its starting state."""
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
    decl = np.empty(1, dtype=np.int64)
    R = p[P_R]
    for i in range(shots.shape[0]):
        j = which[i]
        state[:] = states[j]
        count, flags, code, _, _ = run_row(state, shots[i], shot, segments, jaws, pockets, p, width, length, rail,
                                           tol, max_events, max_time, log)
        if code != 0 or flags & FLAG_IN_FLIGHT:
            out_states[i] = states[j]
            out_after[i] = racks[j]
            out_after[i, C.SHOOTER] = REJECTED
            continue
        summarize_rows(log, min(count, max_events), ROW0, simultaneous, first_bits, first_time, cushion_bits, pocketed,
                       n_pocketed, off, n_off)
        decl[0] = declaration[i]
        rule_batch(racks[j:j + 1], decl, first_bits, cushion_bits, pocketed, n_pocketed, off, n_off, after, fouls,
                   cited, n_cited, spotted)
        if spotted[0]:
            _spot_nine(state, foot_x, foot_y, R)
        out_states[i] = state
        out_after[i] = after[0]


@njit(cache=True)
def _pottability(pos, on, ball, aims, axes, m, R, sigma_phi):
    """How pottable ball ``ball`` is wherever the cue ball is: the best chance over the pockets of a straight pot
    from ``POTTABLE_FROM`` behind it whose object-ball path is clear, and how many pockets are clear."""
    obstacles = np.empty((N_BALLS, 2))
    n_obs = np.int64(0)
    for b in range(1, pos.shape[0]):
        if on[b] and b != ball:
            obstacles[n_obs, 0], obstacles[n_obs, 1] = pos[b, 0], pos[b, 1]
            n_obs += 1
    ox, oy = pos[ball, 0], pos[ball, 1]
    best = 0.0
    clear = 0
    for k in range(6):
        ok, tx, ty, half = pocket_target(ox, oy, k, aims, axes, m)
        if not ok or not path_clear(ox, oy, tx, ty, obstacles, n_obs, (2.0 * R) ** 2):
            continue
        clear += 1
        e = pot_probability(POTTABLE_FROM, math.hypot(tx - ox, ty - oy), 0.0, half, sigma_phi, R, m)
        if e > best:
            best = e
    return best, clear


@njit(cache=True)
def position_features(states, racks, aims, axes, m, width, length, R, sigma_phi, out):
    """The value net's input (N, N_FEATURES) for packed states (N, n, 9) with rack rows (N, RACK_W), seen by the
    player to act (``racks[i, SHOOTER]``): ball in hand, push-out allowed, both players' fouls, the cue ball, the
    object balls in the order they must be played (the lowest first), how pottable the first ``RATED`` are, and the
    cue ball's best shot on the lowest (``pot_options_row``). Rows whose rack is over are left at 0."""
    n = states.shape[1]
    pos = np.empty((n, 2))
    on = np.zeros(n, dtype=np.bool_)
    options = np.empty((MAX_OPTIONS, OPT_W))
    order = np.empty(n, dtype=np.int64)
    obstacles = np.empty((N_BALLS, 2))
    for i in range(states.shape[0]):
        out[i, :] = 0.0
        shooter = racks[i, C.SHOOTER]
        if shooter < 0:
            continue
        in_hand = racks[i, C.IN_HAND] != BallInHandCode.NONE
        for b in range(n):
            pos[b, 0], pos[b, 1] = states[i, b, 0], states[i, b, 1]
            on[b] = states[i, b, 7] <= ROLLING
        if in_hand:
            on[0] = False
        left = 0
        for b in range(1, n):
            if on[b]:
                order[left] = b
                left += 1
        mine, theirs = racks[i, C.COUNT0 + shooter], racks[i, C.COUNT0 + 1 - shooter]
        out[i, F_IN_HAND] = 1.0 if in_hand else 0.0
        out[i, F_PUSH] = 1.0 if racks[i, C.PHASE] == PhaseCode.PUSH_OUT_ALLOWED else 0.0
        out[i, F_MY1] = 1.0 if mine == 1 else 0.0
        out[i, F_MY2] = 1.0 if mine >= 2 else 0.0
        out[i, F_OPP1] = 1.0 if theirs == 1 else 0.0
        out[i, F_OPP2] = 1.0 if theirs >= 2 else 0.0
        if on[0]:
            out[i, F_CUE_X] = pos[0, 0] / width
            out[i, F_CUE_Y] = pos[0, 1] / length
        out[i, F_LEFT] = left / 9.0
        for s in range(min(left, SLOTS)):
            b = order[s]
            c = F_SLOT0 + 4 * s
            out[i, c] = 1.0
            out[i, c + 1] = pos[b, 0] / width
            out[i, c + 2] = pos[b, 1] / length
            out[i, c + 3] = 1.0 if b == NINE else 0.0
        for s in range(min(left, RATED)):
            e, clear = _pottability(pos, on, order[s], aims, axes, m, R, sigma_phi)
            out[i, F_RATED0 + 2 * s] = e
            out[i, F_RATED0 + 2 * s + 1] = clear / 6.0
        if left == 0 or not on[0]:
            continue
        lowest = order[0]
        k = pot_options_row(pos[0, 0], pos[0, 1], pos, on, lowest, aims, axes, m, width, length, R, sigma_phi,
                            NO_COMBOS, 80.0, options)
        if k > 0:
            out[i, F_EASE] = options[0, O_EASE]
            out[i, F_OPTIONS] = k / 6.0
            out[i, F_CUT] = options[0, O_CUT] / 90.0
            out[i, F_DIST] = options[0, O_D_CUE] / length
        n_obs = np.int64(0)
        for b in range(1, n):
            if on[b] and b != lowest:
                obstacles[n_obs, 0], obstacles[n_obs, 1] = pos[b, 0], pos[b, 1]
                n_obs += 1
        blocked = not path_clear(pos[0, 0], pos[0, 1], pos[lowest, 0], pos[lowest, 1], obstacles, n_obs,
                                 (2.0 * R) ** 2)
        out[i, F_BLOCKED] = 1.0 if blocked else 0.0
        out[i, F_TO_LOWEST] = math.hypot(pos[lowest, 0] - pos[0, 0], pos[lowest, 1] - pos[0, 1]) / length
        k = pot_options_row(pos[0, 0], pos[0, 1], pos, on, lowest, aims, axes, m, width, length, R, sigma_phi, COMBOS,
                            80.0, options)
        if k > 0:
            out[i, F_COMBO] = options[0, O_EASE]

