"""The event log of one shot: what happened, to which balls, when, in time order."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Iterator, NamedTuple

import numpy as np

from physics.state import BallState

# Columns of a logged ball state (post-event), used to sample trajectories.
STATE_COLS = 8  # x, y, vx, vy, wx, wy, wz, motion


class EventKind(IntEnum):
    """Kinds of events (the kernels use the integer values)."""

    STICK_BALL = 0  # the cue strikes the cue ball (t = 0)
    BALL_BALL = 1
    BALL_CUSHION = 2  # target = cushion segment index
    BALL_JAW = 3  # target = jaw index (a rounded pocket jaw counts as a cushion, RULES.md)
    BALL_POCKET = 4  # target = pocket index
    SLIDING_ROLLING = 5
    ROLLING_SPINNING = 6
    ROLLING_STATIONARY = 7
    SPINNING_STATIONARY = 8
    BALL_OFF_TABLE = 9  # reserved for an airborne model


class Event(NamedTuple):
    """One logged event; ``ball_b`` and ``target`` are -1 when not used."""

    time: float
    kind: EventKind
    ball_a: int
    ball_b: int
    target: int


@dataclass(frozen=True, eq=False)
class EventLog:
    """Time-ordered events as arrays (one row per event).

    Attributes:
        time, kind, ball_a, ball_b, target: per-event columns.
        state_a, state_b: (n, 8) post-event state (x, y, vx, vy, wx, wy, wz, motion) of ball_a / ball_b.
    """

    time: np.ndarray
    kind: np.ndarray
    ball_a: np.ndarray
    ball_b: np.ndarray
    target: np.ndarray
    state_a: np.ndarray
    state_b: np.ndarray

    def __len__(self) -> int:
        return int(self.time.shape[0])

    def __getitem__(self, i: int) -> Event:
        return Event(float(self.time[i]), EventKind(int(self.kind[i])), int(self.ball_a[i]),
                     int(self.ball_b[i]), int(self.target[i]))

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self)):
            yield self[i]

    def of_kind(self, *kinds: EventKind) -> list[Event]:
        mask = np.isin(self.kind, [int(k) for k in kinds])
        return [self[int(i)] for i in np.flatnonzero(mask)]

    def pocketed(self) -> list[int]:
        """Balls pocketed during the shot, in the order they dropped."""
        return [e.ball_a for e in self.of_kind(EventKind.BALL_POCKET)]


@dataclass(frozen=True, eq=False)
class SimResult:
    """Outcome of ``physics.simulate``.

    Attributes:
        initial: the state the shot started from (after validation; not the struck state).
        state: final state (every ball at rest or pocketed unless a cap was hit).
        events: the event log.
        hit_event_cap: the event cap stopped the simulation early.
        hit_time_cap: the simulated-time cap stopped the simulation early.
        duration: simulated time of the last event [s].
    """

    initial: BallState
    state: BallState
    events: EventLog
    hit_event_cap: bool
    hit_time_cap: bool

    @property
    def duration(self) -> float:
        return float(self.events.time[-1]) if len(self.events) else 0.0

    @property
    def n_events(self) -> int:
        return len(self.events)
