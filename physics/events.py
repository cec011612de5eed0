"""The event log of one shot: what happened, to which balls, when, in time order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple

import numpy as np

from physics.kernels.codes import (
    AIR_H_A, AIR_H_B, LOG_A, LOG_B, LOG_KIND, LOG_STATE_A, LOG_STATE_B, LOG_TARGET, LOG_TIME, LOGGED_W, S_MOTION,
    EventKind,
)
from physics.state import BallState, Motion


_new = object.__new__  # the fast constructors below fill a frozen record's fields in one dict update

class Event(NamedTuple):
    """One logged event; ``ball_b`` and ``target`` are -1 when not used."""

    time: float
    kind: EventKind
    ball_a: int
    ball_b: int
    target: int


@dataclass(frozen=True, eq=False)
class EventLog:
    """Time-ordered events, one row per event, as one packed (n, LOG_W = 21) array with column views.

    Columns (the LOG_* of ``kernels.codes``): time, kind, ball_a, ball_b, target, then the post-event state
    (x, y, vx, vy, wx, wy, wz, motion) of ball_a and of ball_b. ``air`` (n, 4), only for a shot in which a
    ball left the cloth (``physics.simulate``; a batch's logs have none): the height of the bottom above the
    cloth and the vertical velocity of ball_a and of ball_b after each event (zero for a ball on the cloth).
    """

    rows: np.ndarray
    air: np.ndarray | None = None

    @property
    def time(self) -> np.ndarray:
        return self.rows[:, LOG_TIME]

    @property
    def kind(self) -> np.ndarray:
        return self.rows[:, LOG_KIND].astype(np.int64)

    @property
    def ball_a(self) -> np.ndarray:
        return self.rows[:, LOG_A].astype(np.int64)

    @property
    def ball_b(self) -> np.ndarray:
        return self.rows[:, LOG_B].astype(np.int64)

    @property
    def target(self) -> np.ndarray:
        return self.rows[:, LOG_TARGET].astype(np.int64)

    @property
    def state_a(self) -> np.ndarray:
        return self.rows[:, LOG_STATE_A:LOG_STATE_A + LOGGED_W]

    @property
    def state_b(self) -> np.ndarray:
        return self.rows[:, LOG_STATE_B:LOG_STATE_B + LOGGED_W]

    @property
    def air_a(self) -> np.ndarray:
        """(height above the cloth [m], vertical velocity [m/s]) of ball_a after each event: zeros for a log in which
        no ball left the cloth; ValueError for one that has balls in the air but no air columns (a batch's log)."""
        return self.air[:, AIR_H_A:AIR_H_A + 2] if self.air is not None else self._on_the_cloth()

    @property
    def air_b(self) -> np.ndarray:
        """``air_a`` of ball_b."""
        return self.air[:, AIR_H_B:AIR_H_B + 2] if self.air is not None else self._on_the_cloth()

    def _on_the_cloth(self) -> np.ndarray:
        """The air columns of a log without them: zeros, when no ball left the cloth (no take-off, landing or ball
        in the air logged)."""
        kinds = self.rows[:, LOG_KIND]
        motions = (self.state_a[:, S_MOTION], self.state_b[:, S_MOTION])
        if (np.any(motions[0] == Motion.AIRBORNE) or np.any(motions[1] == Motion.AIRBORNE)
                or np.any((kinds == EventKind.BALL_AIRBORNE) | (kinds == EventKind.BALL_LANDING))):
            raise ValueError("air: this log has balls in the air but no heights (a batch's logs hold none): "
                             "BatchResult.result(k) or physics.simulate gives them")
        return np.zeros((len(self), 2))

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def __getitem__(self, i: int) -> Event:
        r = self.rows[i]
        return Event(float(r[LOG_TIME]), EventKind(int(r[LOG_KIND])), int(r[LOG_A]), int(r[LOG_B]), int(r[LOG_TARGET]))

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self)):
            yield self[i]

    def of_kind(self, *kinds: EventKind) -> list[Event]:
        mask = np.isin(self.rows[:, LOG_KIND], [float(k) for k in kinds])
        return [self[int(i)] for i in np.flatnonzero(mask)]

    def pocketed(self) -> list[int]:
        """Balls pocketed during the shot, in the order they dropped."""
        return [e.ball_a for e in self.of_kind(EventKind.BALL_POCKET)]

    @classmethod
    def _of(cls, rows: np.ndarray, air: np.ndarray | None) -> EventLog:
        """``EventLog(rows, air)`` for the simulator's hot path: the fields set at once, without the frozen
        dataclass's one ``object.__setattr__`` per field (0.35 µs a log, 1 % of a shot)."""
        log = _new(cls)
        log.__dict__.update(rows=rows, air=air)
        return log


@dataclass(frozen=True, eq=False)
class SimResult:
    """Outcome of ``physics.simulate``.

    Attributes:
        initial: the state the shot started from (after validation; not the struck state).
        state: final state (every ball at rest or pocketed unless a cap was hit).
        events: the event log.
        hit_event_cap: the event cap stopped the simulation early.
        hit_time_cap: the simulated-time cap stopped the simulation early.
        unresolved: a ball the simulation could not keep on the cloth was taken off the table where it
            lay (motion OFF_TABLE, a BALL_OFF_TABLE event); the state is still a legal layout.
        in_flight: a cap (``hit_event_cap`` or ``hit_time_cap``) stopped the shot with a ball in the air, so the
            shot is unresolved: where that ball comes down is not known. It keeps motion AIRBORNE at its plan
            position in ``state`` (which no shot can start from), and no event logs it off the table, so the rules
            must not rule the shot (``rules.decide_log`` refuses its log); the caller replays it with larger caps
            or decides where the ball goes.
        duration: simulated time of the last event [s].
    """

    _initial: BallState | np.ndarray  # a BallState, or its packed (n, 9) array, unpacked on first use
    state: BallState
    events: EventLog
    hit_event_cap: bool
    hit_time_cap: bool
    unresolved: bool = False
    in_flight: bool = False

    @classmethod
    def _of(cls, initial: np.ndarray, state: BallState, events: EventLog, hit_event_cap: bool, hit_time_cap: bool,
            unresolved: bool, in_flight: bool) -> SimResult:
        """``SimResult(...)`` for the simulator's hot path, as ``EventLog._of`` (0.5 µs a shot)."""
        result = _new(cls)
        result.__dict__.update(_initial=initial, state=state, events=events, hit_event_cap=hit_event_cap,
                               hit_time_cap=hit_time_cap, unresolved=unresolved, in_flight=in_flight)
        return result

    @property
    def initial(self) -> BallState:
        if isinstance(self._initial, np.ndarray):
            object.__setattr__(self, "_initial", BallState.from_packed(self._initial))
        return self._initial

    @property
    def duration(self) -> float:
        return float(self.events.rows[-1, LOG_TIME]) if len(self.events) else 0.0

    @property
    def n_events(self) -> int:
        return len(self.events)
