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

from nineball_env.kernels.facts import N_BALLS, summarize_into
from nineball_env.rules import ShotSummary
from nineball_env.rules.summary import SIMULTANEOUS_S

#: ball-set bit mask -> frozenset of its balls, for the 2**10 masks of balls 0..9
_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(b for b in range(N_BALLS) if mask >> b & 1) for mask in range(1 << N_BALLS))


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

    def read(self, logs: np.ndarray, n_events: np.ndarray, rows: np.ndarray) -> None:
        """Summarise log i of ``logs`` (B, capacity, 21), its first ``n_events[i]`` rows, into row ``rows[i]``."""
        summarize_into(logs, np.asarray(n_events, dtype=np.int64), np.asarray(rows, dtype=np.int64), SIMULTANEOUS_S,
                       self.first_bits, self.first_time, self.cushion_bits, self.pocketed, self.n_pocketed, self.off,
                       self.n_off)

    def summary(self, k: int) -> ShotSummary:
        """Table ``k`` as the rules' ``ShotSummary``."""
        t = float(self.first_time[k])
        return ShotSummary(_SETS[int(self.first_bits[k])], None if t < 0.0 else t, _SETS[int(self.cushion_bits[k])],
                           tuple(self.pocketed[k, : self.n_pocketed[k]].tolist()),
                           tuple(self.off[k, : self.n_off[k]].tolist()))


def summarize_logs(logs: np.ndarray, n_events: np.ndarray) -> LogSummaries:
    """Summaries of the shots in ``logs`` (B, capacity, 21) with ``n_events`` (B,) rows each (a log longer
    than the capacity must be summarised from its full rows instead)."""
    out = LogSummaries(logs.shape[0])
    out.read(logs, n_events, np.arange(logs.shape[0]))
    return out


def summarize_rows(rows: np.ndarray) -> ShotSummary:
    """The ``ShotSummary`` of one shot's (n, 21) log rows (``physics.EventLog.rows``, times in order)."""
    return summarize_logs(rows[None], np.array([len(rows)])).summary(0)


__all__ = ["LogSummaries", "summarize_logs", "summarize_rows"]
