"""Racks in numba: the rack order drawn from a table's generator (R-RACK), a new rack and a new match dealt, a
finished rack scored (R-MATCH), and the 9 spotted (R-SPOT-9). ``rules.rack_order`` and ``rules.spot_nine`` are
these kernels' readable views; the compiled turn (``kernels.turn``) calls them on the tables' arrays."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from nineball_env.kernels.codes import N_BALLS, Cfg
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.draws import random_interval
from physics.state import Motion

_ON_TABLE_MAX, _STATIONARY = float(Motion.ROLLING), float(Motion.STATIONARY)
SPOT_GAP = 1e-8  # [m] a spotted 9 clears the ball that blocks it by this
TOUCH_TOL = 1e-9  # [m] two centres closer than 2R - TOUCH_TOL overlap (a spotted 9 needs at least 2R - TOUCH_TOL)
_NINE = 9


@njit(cache=True)
def rack_order(gen, out):
    """The balls of the diamond by slot into ``out`` (9,): the 1 at the apex, the 9 in the centre, 2-8 shuffled by
    ``Generator.permutation(np.arange(2, 9))`` of the generator ``gen`` (R-RACK; ``rules.rack_order``)."""
    others = np.arange(2, 9)
    for i in range(others.shape[0] - 1, 0, -1):  # numpy's shuffle: Fisher-Yates from the top
        j = random_interval(gen, i)
        others[i], others[j] = others[j], others[i]
    out[0] = 1
    out[1], out[2], out[3] = others[0], others[1], others[2]
    out[4] = _NINE
    out[5], out[6], out[7], out[8] = others[3], others[4], others[5], others[6]


@njit(cache=True)
def new_rack(k, gen, balls, rack, next_breaker, slots, start_rows, off_table):
    """Table k's next rack, broken by ``next_breaker[k]``: a tight rack from its generator (R-RACK), the cue ball
    in the breaker's hand in the kitchen. ``slots`` (9, 2) are the diamond's centres, ``start_rows`` (2, RACK_W)
    the fresh rack of each breaker, ``off_table`` (10, 9) the balls all off the table."""
    order = np.empty(9, dtype=np.int64)
    rack_order(gen, order)
    for b in range(off_table.shape[0]):  # (element by element: numba's array assignment costs seconds to compile)
        for c in range(off_table.shape[1]):
            balls[k, b, c] = off_table[b, c]
    for s in range(9):
        b = order[s]
        balls[k, b, 0], balls[k, b, 1] = slots[s, 0], slots[s, 1]
        balls[k, b, 7] = _STATIONARY
    for c in range(start_rows.shape[1]):
        rack[k, c] = start_rows[next_breaker[k], c]


@njit(cache=True)
def deal(k, breaker, gen, balls, rack, won, next_breaker, done, slots, start_rows, off_table):
    """A new match on table k broken by ``breaker``."""
    won[k, 0] = 0
    won[k, 1] = 0
    done[k] = False
    next_breaker[k] = breaker
    new_rack(k, gen, balls, rack, next_breaker, slots, start_rows, off_table)


@njit(cache=True)
def score(k, gen, balls, rack, won, next_breaker, done, cfg, slots, start_rows, off_table):
    """Table k's rack is over: score it and pick the next breaker (R-MATCH), and deal the next rack unless the
    match is decided."""
    winner = rack[k, C.WINNER]
    won[k, winner] += 1
    next_breaker[k] = winner if cfg[Cfg.WINNER_BREAKS] != 0.0 else 1 - rack[k, C.BREAKER]
    done[k] = won[k, winner] >= cfg[Cfg.RACE_TO]
    if not done[k]:
        new_rack(k, gen, balls, rack, next_breaker, slots, start_rows, off_table)


@njit(cache=True)
def spot_nine_at(ox, oy, n, x, foot_y, length, R):
    """Where the 9 is spotted among the first ``n`` ball centres (ox, oy) (R-SPOT-9): the foot spot (x, foot_y),
    else the nearest free point behind it on the long string (toward the foot cushion), else the nearest free
    point in front of it. Candidates: the foot spot, and for each ball near the line the two points where the 9
    just clears it. (found, y); not found when the whole centre line is blocked."""
    clearance = 2 * R + SPOT_GAP
    touching = 2 * R - TOUCH_TOL
    behind, front = math.inf, -math.inf
    for c in range(-1, 2 * n):
        if c < 0:
            y = foot_y
        else:
            i = c // 2
            dx = abs(ox[i] - x)
            if not dx < clearance:
                continue
            half = math.sqrt(clearance * clearance - dx * dx)
            y = oy[i] - half if c % 2 == 0 else oy[i] + half
        if not R <= y <= length - R:
            continue
        clear = True
        for i in range(n):
            if not math.hypot(x - ox[i], y - oy[i]) >= touching:  # (a NaN distance is not clear)
                clear = False
                break
        if not clear:
            continue
        if y >= foot_y:
            behind = min(behind, y)
        else:
            front = max(front, y)
    if behind < math.inf:
        return True, behind
    if front > -math.inf:
        return True, front
    return False, 0.0


@njit(cache=True)
def spot_nine(state, in_hand, foot_x, foot_y, length, R):
    """Spot the 9 in one table's packed balls (R-SPOT-9; the cue ball is left out when it goes in hand, since
    spotting comes first): at rest, off any pocket. False when no point on the long string is free."""
    ox = np.empty(N_BALLS)
    oy = np.empty(N_BALLS)
    n = np.int64(0)  # typed, not a literal: spot_nine_at compiles once (``rules.rack`` passes an int64)
    for b in range(N_BALLS):
        if b != _NINE and state[b, 7] <= _ON_TABLE_MAX and not (b == 0 and in_hand):
            ox[n], oy[n] = state[b, 0], state[b, 1]
            n += 1
    found, y = spot_nine_at(ox, oy, n, foot_x, foot_y, length, R)
    if not found:
        return False
    state[_NINE, 0], state[_NINE, 1] = foot_x, y
    for j in range(2, 7):
        state[_NINE, j] = 0.0
    state[_NINE, 7] = _STATIONARY
    state[_NINE, 8] = -1.0
    return True
