"""The rules' facts of a shot read off physics event-log rows (see ``nineball_env.rules.facts``), in numba."""

from __future__ import annotations

import numpy as np
from numba import njit

from nineball_env.kernels.codes import N_BALLS
from physics.events import EventKind as E  # the codes of the log rows (numba freezes them; see kernels/__init__)


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
