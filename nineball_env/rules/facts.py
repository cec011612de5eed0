"""The facts a ruling needs, read off a shot's event log (docs/rules.md, "Terms") by the ``kernels.facts`` kernel.

``ShotFacts`` holds the facts of B shots as arrays (what the rules kernel reads): bit masks of the
balls the cue ball touched first and of the balls that touched a cushion at or after that contact
(earlier ones do not count, R-FOUL-NO-RAIL), the first-contact time, and the balls pocketed / driven off
the table in order. Physics log rows (``physics.EventLog.rows``) and checked ``ShotEvent`` records
(``event_rows``) are read by the same kernel (``ShotEventKind`` values are the physics event codes).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from nineball_env.kernels.facts import N_BALLS, summarize_into
from nineball_env.rules.errors import InvalidEventLog
from nineball_env.rules.events import CUE, ShotEvent, ShotEventKind

#: Cue-ball contacts closer in time than this [s] count as one simultaneous first contact.
SIMULTANEOUS_S = 1e-9
#: ball-set bit mask -> frozenset of its balls, for the 2**10 masks of balls 0..9
BALL_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(b for b in range(N_BALLS) if mask >> b & 1) for mask in range(1 << N_BALLS))


class ShotFacts:
    """The facts of ``B`` shots as the rules kernel reads them, one row per shot (empty rows: no shot)."""

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
        """Read log i of ``logs`` (n, capacity, >= 4 columns: time, kind, ball_a, ball_b), its first
        ``n_events[i]`` rows, into row ``rows[i]``."""
        summarize_into(logs, np.asarray(n_events, dtype=np.int64), np.asarray(rows, dtype=np.int64), SIMULTANEOUS_S,
                       self.first_bits, self.first_time, self.cushion_bits, self.pocketed, self.n_pocketed, self.off,
                       self.n_off)


def event_rows(events: Iterable[ShotEvent], on_table: Iterable[int]) -> np.ndarray:
    """Check a shot's event log and return it as (n, 4) rows (time, kind, ball_a, ball_b) for the kernel.

    Raises InvalidEventLog for a record that is not a ``ShotEvent``, an event out of time order, or one
    naming a ball that was not on the table at the start of the shot or had already left it.
    """
    present = {CUE, *on_table}
    gone: set[int] = set()
    rows = []
    last_time = 0.0
    for i, event in enumerate(events):
        if not isinstance(event, ShotEvent):
            raise InvalidEventLog(f"event {i}: expected a ShotEvent, got {type(event).__name__}")
        if event.time < last_time:
            raise InvalidEventLog(f"event {i} ({event}): out of time order (previous event at {last_time:g} s)")
        last_time = event.time
        for ball in event.balls:
            if ball not in present:
                raise InvalidEventLog(f"event {i} ({event}): ball {ball} was not on the table at the start of the shot")
            if ball in gone:
                raise InvalidEventLog(f"event {i} ({event}): ball {ball} had already left the table")
        if event.kind in (ShotEventKind.POCKET, ShotEventKind.OFF_TABLE):
            gone.add(event.ball_a)
        rows.append((event.time, float(event.kind), event.ball_a, event.ball_b))
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


__all__ = ["SIMULTANEOUS_S", "ShotFacts", "event_rows"]
