"""The facts a ruling needs, read off a shot's event log (docs/rules.md, "Terms")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from nineball_env.rules.errors import InvalidEventLog
from nineball_env.rules.events import CUE, ShotEvent, ShotEventKind

#: Cue-ball contacts closer in time than this [s] count as one simultaneous first contact.
SIMULTANEOUS_S = 1e-9


@dataclass(frozen=True)
class ShotSummary:
    """What happened on one shot, in the terms the rulebook uses.

    Attributes:
        first_contact: object balls the cue ball touched first (several only when simultaneous;
            empty when it touched none).
        first_contact_time: time of that contact [s], or None.
        cushioned_after_contact: balls (cue ball included) that touched a cushion or jaw at or after
            the first contact; cushion contacts before it do not count (R-FOUL-NO-RAIL).
        pocketed: balls that fell into a pocket, in the order they dropped (cue ball included).
        off_table: balls that left the table without being pocketed, in order (cue ball included).
    """

    first_contact: frozenset[int]
    first_contact_time: float | None
    cushioned_after_contact: frozenset[int]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]

    @property
    def rail_after_contact(self) -> bool:
        """Some ball touched a cushion after the cue ball's first contact (R-FOUL-NO-RAIL)."""
        return bool(self.cushioned_after_contact)

    @property
    def object_balls_to_cushion(self) -> frozenset[int]:
        """Distinct object balls driven to a cushion after the first contact (R-BREAK-LEGAL)."""
        return self.cushioned_after_contact - {CUE}

    @property
    def object_pocketed(self) -> tuple[int, ...]:
        """Object balls pocketed, in order."""
        return tuple(b for b in self.pocketed if b != CUE)

    @property
    def object_off_table(self) -> tuple[int, ...]:
        """Object balls driven off the table (R-FOUL-JUMP, R-BREAK-JUMP)."""
        return tuple(b for b in self.off_table if b != CUE)

    @property
    def cue_ball_lost(self) -> bool:
        """The cue ball was pocketed or left the table (R-FOUL-SCRATCH, R-BREAK-SCRATCH)."""
        return CUE in self.pocketed or CUE in self.off_table


def summarize(events: Iterable[ShotEvent], on_table: Iterable[int]) -> ShotSummary:
    """Summarise a time-ordered event log of a shot that started with the cue ball and ``on_table``.

    Raises InvalidEventLog for an event out of time order, or naming a ball that was not on the
    table at the start of the shot or had already been pocketed or driven off during it.
    """
    present = {CUE, *on_table}
    gone: set[int] = set()
    live = set(present)  # present and not gone: the fast test; the checks below name the failure
    first: set[int] = set()
    first_time: float | None = None
    cushion_contacts: list[tuple[float, int]] = []
    pocketed: list[int] = []
    off_table: list[int] = []
    last_time = 0.0
    ball_ball, cushion, pocket = ShotEventKind.BALL_BALL, ShotEventKind.CUSHION, ShotEventKind.POCKET
    for i, event in enumerate(events):
        if not isinstance(event, ShotEvent):
            raise InvalidEventLog(f"event {i}: expected a ShotEvent, got {type(event).__name__}")
        time = event.time
        if time < last_time:
            raise InvalidEventLog(f"event {i} ({event}): out of time order (previous event at {last_time:g} s)")
        last_time = time
        kind = event.kind
        ball_a = event.ball_a
        if kind is ball_ball:
            ball_b = event.ball_b
            if ball_a not in live or ball_b not in live:
                _check_balls(i, event, present, gone)
            if ball_a == CUE or ball_b == CUE:
                other = ball_b if ball_a == CUE else ball_a
                if first_time is None:
                    first_time = time
                if time - first_time <= SIMULTANEOUS_S:
                    first.add(other)
            continue
        if ball_a not in live:
            _check_balls(i, event, present, gone)
        if kind is cushion:
            cushion_contacts.append((time, ball_a))
        elif kind is pocket:
            pocketed.append(ball_a)
            gone.add(ball_a)
            live.discard(ball_a)
        else:
            off_table.append(ball_a)
            gone.add(ball_a)
            live.discard(ball_a)
    cushioned = frozenset(b for t, b in cushion_contacts if first_time is not None and t >= first_time)
    return ShotSummary(frozenset(first), first_time, cushioned, tuple(pocketed), tuple(off_table))


def _check_balls(i: int, event: ShotEvent, present: set[int], gone: set[int]) -> None:
    """Raise InvalidEventLog for the first ball of ``event`` not on the table at the start or already gone."""
    for ball in event.balls:
        if ball not in present:
            raise InvalidEventLog(f"event {i} ({event}): ball {ball} was not on the table at the start of the shot")
        if ball in gone:
            raise InvalidEventLog(f"event {i} ({event}): ball {ball} had already left the table")
