"""The rules' summary of a shot (``rules.ShotSummary``) read straight off physics event-log rows, in numba.

``rules.summarize`` walks ``ShotEvent`` objects; the env's shots come from the physics core as
(n, 21) log rows (``physics.EventLog.rows``), one array per table. ``summarize_logs`` reads every
table of a batch in one compiled call (no Python object per event) and ``summary`` turns one
table's figures into the frozen ``ShotSummary`` the rules decide on. The physics guarantees what
``rules.summarize`` checks (time order, balls present), so nothing is re-validated here; a test
checks both summaries agree on random physics shots.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nineball_env.rules import ShotSummary
from nineball_env.rules.summary import SIMULTANEOUS_S

N_BALLS = 10
# physics.EventKind codes (a test checks them against the enum)
_BALL_BALL, _CUSHION, _JAW, _POCKET, _OFF_TABLE = 1, 2, 3, 4, 9

#: ball-set bit mask -> frozenset of its balls, for the 2**10 masks of balls 0..9
_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(b for b in range(N_BALLS) if mask >> b & 1) for mask in range(1 << N_BALLS))


@njit(cache=True)
def _summarize_rows(rows, n, k, simultaneous, first_bits, first_time, cushion_bits, pocketed, n_pocketed, off, n_off):
    """Fill row ``k`` of the outputs from the first ``n`` log ``rows`` of one shot (see ``summarize_logs``); cue-ball
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
        if kind == _BALL_BALL:
            b = int(rows[i, 3])
            if a == 0 or b == 0:
                other = b if a == 0 else a
                if t_first < 0.0:
                    t_first = t
                if t - t_first <= simultaneous:
                    bits |= 1 << other
        elif kind == _CUSHION or kind == _JAW:
            last_cushion[a] = t  # time order: the last contact is the latest
        elif kind == _POCKET:
            pocketed[k, n_p] = a
            n_p += 1
        elif kind == _OFF_TABLE:
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
def _summarize_batch(logs, n_events, simultaneous, first_bits, first_time, cushion_bits, pocketed, n_pocketed, off, n_off):
    for k in range(logs.shape[0]):
        _summarize_rows(logs[k], min(n_events[k], logs.shape[1]), k, simultaneous, first_bits, first_time, cushion_bits,
                        pocketed, n_pocketed, off, n_off)


class LogSummaries:
    """Per-table shot facts of a batch of event logs: bit masks of the first-contact and cushioned balls,
    the first-contact time (-1 when none), and the balls pocketed / driven off the table in order."""

    __slots__ = ("first_bits", "first_time", "cushion_bits", "pocketed", "n_pocketed", "off", "n_off")

    def __init__(self, B: int) -> None:
        self.first_bits = np.zeros(B, dtype=np.int64)
        self.first_time = np.zeros(B)
        self.cushion_bits = np.zeros(B, dtype=np.int64)
        self.pocketed = np.full((B, N_BALLS), -1, dtype=np.int64)
        self.n_pocketed = np.zeros(B, dtype=np.int64)
        self.off = np.full((B, N_BALLS), -1, dtype=np.int64)
        self.n_off = np.zeros(B, dtype=np.int64)

    def summary(self, k: int) -> ShotSummary:
        """Table ``k`` as the rules' ``ShotSummary``."""
        t = float(self.first_time[k])
        return ShotSummary(_SETS[int(self.first_bits[k])], None if t < 0.0 else t, _SETS[int(self.cushion_bits[k])],
                           tuple(self.pocketed[k, : self.n_pocketed[k]].tolist()),
                           tuple(self.off[k, : self.n_off[k]].tolist()))


def summarize_logs(logs: np.ndarray, n_events: np.ndarray) -> LogSummaries:
    """Summaries of the shots in ``logs`` (B, capacity, 21) with ``n_events`` (B,) rows each (a log longer
    than the capacity must be summarised from its full rows instead)."""
    B = logs.shape[0]
    out = LogSummaries(B)
    _summarize_batch(logs, np.asarray(n_events, dtype=np.int64), SIMULTANEOUS_S, out.first_bits, out.first_time, out.cushion_bits,
                     out.pocketed, out.n_pocketed, out.off, out.n_off)
    return out


def summarize_rows(rows: np.ndarray) -> ShotSummary:
    """The ``ShotSummary`` of one shot's (n, 21) log rows (``physics.EventLog.rows``, times in order)."""
    return summarize_logs(rows[None], np.array([len(rows)])).summary(0)


__all__ = ["LogSummaries", "summarize_logs", "summarize_rows"]
