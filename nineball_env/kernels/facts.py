"""The rules' facts of a shot read off physics event-log rows (see ``nineball_env.rules.facts``), in numba."""

from __future__ import annotations

import numpy as np
from numba import njit

import math

from nineball_env.kernels.codes import N_BALLS
from physics.events import EventKind as E  # the codes of the log rows (numba freezes them; see kernels/__init__)
from physics.kernels.codes import LOG_STATE_A, LOG_STATE_B, LOG_W, S_MOTION
from physics.state import Motion

# What ``check_rows`` finds wrong with a log's rows (``rules.decide_log`` words each one)
ROWS_OK, ROWS_TIME, ROWS_KIND, ROWS_BALL, ROWS_IN_FLIGHT = range(5)
FIRST_KIND, LAST_KIND = float(min(E)), float(max(E))  # the event kinds' codes
AIRBORNE = float(Motion.AIRBORNE)
MOTION_A, MOTION_B = LOG_STATE_A + S_MOTION, LOG_STATE_B + S_MOTION  # the motion columns of ball_a's, ball_b's states


@njit(cache=True)
def check_rows(rows):
    """The first row of a shot's log (n, >= 4: time, kind, ball_a, ball_b; physics rows carry the balls' states) that
    ``summarize_rows`` would misread, as (code, row); (ROWS_OK, -1) when there is none.

    Times finite, from 0 on, in order (ROWS_TIME); kinds whole ``EventKind`` codes (ROWS_KIND); ball_a a ball number,
    ball_b -1 or one, another ball for a contact between two (ROWS_BALL). In physics rows (LOG_W columns) no
    ball may end the log in the air (ROWS_IN_FLIGHT, its last row): a cap stopped that shot, which is unresolved
    (``physics.SimResult.in_flight``)."""
    last_row = np.full(N_BALLS, -1)
    last_motion = np.zeros(N_BALLS)
    states = rows.shape[1] >= LOG_W
    previous = 0.0
    for i in range(rows.shape[0]):
        t = rows[i, 0]
        if not (math.isfinite(t) and t >= previous):
            return ROWS_TIME, i
        previous = t
        kind = rows[i, 1]
        if not (FIRST_KIND <= kind <= LAST_KIND and kind == math.floor(kind)):
            return ROWS_KIND, i
        a = rows[i, 2]
        b = rows[i, 3]
        if not (0.0 <= a < N_BALLS and a == math.floor(a) and -1.0 <= b < N_BALLS and b == math.floor(b)):
            return ROWS_BALL, i
        if int(kind) == E.BALL_BALL and (b < 0.0 or b == a):
            return ROWS_BALL, i
        if states:
            for ball, column in ((int(a), MOTION_A), (int(b), MOTION_B)):
                if ball >= 0:
                    last_row[ball] = i
                    last_motion[ball] = rows[i, column]
    for ball in range(N_BALLS):
        if last_row[ball] >= 0 and last_motion[ball] == AIRBORNE:
            return ROWS_IN_FLIGHT, last_row[ball]
    return ROWS_OK, -1


@njit(cache=True)
def summarize_rows(rows, n, k, simultaneous, first_bits, first_time, cushion_bits, pocketed, n_pocketed, off, n_off):
    """Fill row ``k`` of the outputs from the first ``n`` log ``rows`` of one shot (see ``summarize_into``); cue-ball
    contacts within ``simultaneous`` [s] of the first count as first contacts (passed in, not read as a global,
    so numba's cache can never keep a stale value)."""
    last_cushion = np.full(N_BALLS, -1.0)
    t_first = -1.0
    bits = 0
    n_p = 0
    n_o = 0
    for i in range(n):
        kind = int(rows[i, 1])
        t = rows[i, 0]
        a = int(rows[i, 2])
        if kind == E.BALL_BALL:
            b = int(rows[i, 3])
            if a == 0 or b == 0:
                other = b if a == 0 else a
                if t_first < 0.0:
                    t_first = t
                if t - t_first <= simultaneous:
                    bits |= 1 << other
        elif kind == E.BALL_CUSHION or kind == E.BALL_JAW:
            last_cushion[a] = t  # time order: the last contact is the latest
        elif kind == E.BALL_POCKET:
            pocketed[k, n_p] = a
            n_p += 1
        elif kind == E.BALL_OFF_TABLE:
            off[k, n_o] = a
            n_o += 1
    cushioned = 0
    if t_first >= 0.0:
        for ball in range(N_BALLS):
            if last_cushion[ball] >= t_first:
                cushioned |= 1 << ball
    first_bits[k] = bits
    first_time[k] = t_first
    cushion_bits[k] = cushioned
    n_pocketed[k] = n_p
    n_off[k] = n_o


@njit(cache=True)
def summarize_into(logs, n_events, rows_of, simultaneous, first_bits, first_time, cushion_bits, pocketed, n_pocketed,
                   off, n_off):
    """Summarise the first ``n_events[i]`` rows of each log ``logs[i]`` (capped at the capacity) into row
    ``rows_of[i]`` of the outputs."""
    for i in range(logs.shape[0]):
        summarize_rows(logs[i], min(n_events[i], logs.shape[1]), rows_of[i], simultaneous, first_bits, first_time,
                        cushion_bits, pocketed, n_pocketed, off, n_off)
