"""The shot's event record: what the rules read from a simulation.

``ShotEvent`` records (built with ``hit``, ``rail``, ``pocket`` and ``off``) are the hand-written form of a
shot, checked on construction; ``ShotEventKind`` reuses the physics' event codes, so ``rules.decide_log`` rules
a physics event log's rows directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from nineball_env.kernels.codes import N_BALLS
from nineball_env.rules.errors import InvalidEventLog
from physics.events import EventKind

CUE = 0
NINE = 9
OBJECT_BALLS: frozenset[int] = frozenset(range(1, N_BALLS))


class ShotEventKind(IntEnum):
    """The events a ruling reads, with the physics' codes; a pocket-jaw contact is a ``CUSHION`` (docs/rules.md, "Terms")."""

    BALL_BALL = EventKind.BALL_BALL  # ball_a touches ball_b
    CUSHION = EventKind.BALL_CUSHION  # ball_a touches a cushion segment or pocket jaw (target: its index, or -1)
    POCKET = EventKind.BALL_POCKET  # ball_a falls into pocket ``target``
    OFF_TABLE = EventKind.BALL_OFF_TABLE  # ball_a leaves the playing surface without being pocketed


_KIND_VALUES = frozenset(int(k) for k in ShotEventKind)
_WORDS = {ShotEventKind.BALL_BALL: "hit", ShotEventKind.CUSHION: "rail", ShotEventKind.POCKET: "pocket",
          ShotEventKind.OFF_TABLE: "off"}


def _whole(value: Any, what: str) -> int:
    """``value`` as an int when it is a whole number (an int, a numpy integer or an integral finite float),
    else InvalidEventLog naming ``what``: 2.5, inf, NaN, True and "2" are not event codes."""
    if not isinstance(value, (bool, np.bool_)) and (isinstance(value, (int, np.integer)) or (
            isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer())):
        return int(value)
    raise InvalidEventLog(f"{what}: expected a whole number, got {value!r}")


def _ball(value: Any, what: str) -> int:
    """``value`` as a ball number 0..9 (a whole number, as ``_whole``), else InvalidEventLog naming ``what``."""
    ball = _whole(value, what)
    if not 0 <= ball < N_BALLS:
        raise InvalidEventLog(f"{what}: expected a ball number 0..{N_BALLS - 1}, got {ball}")
    return ball


@dataclass(frozen=True)
class ShotEvent:
    """One event of a shot: ``time`` [s] from the strike, its kind, the ball(s) and the cushion/pocket index.

    ``ball_b`` is the second ball of a ``BALL_BALL`` event and -1 otherwise; ``target`` is -1 when unknown.
    """

    time: float
    kind: ShotEventKind
    ball_a: int
    ball_b: int = -1
    target: int = -1

    def __post_init__(self) -> None:
        try:  # text and bools are not times; NaN fails the test below
            time = math.nan if isinstance(self.time, (bool, str, bytes)) else float(self.time)
        except (TypeError, ValueError):
            time = math.nan
        if not (math.isfinite(time) and time >= 0.0):
            raise InvalidEventLog(f"time: expected a finite time >= 0 s, got {self.time!r}")
        code = _whole(self.kind, "kind")
        if code not in _KIND_VALUES:
            raise InvalidEventLog(f"kind: expected one of {sorted(_KIND_VALUES)} (ShotEventKind), got {self.kind!r}")
        kind = ShotEventKind(code)
        target = _whole(self.target, "target")
        ball_a = _ball(self.ball_a, "ball_a")
        if kind is ShotEventKind.BALL_BALL:
            ball_b = _ball(self.ball_b, "ball_b")
            if ball_b == ball_a:
                raise InvalidEventLog(f"ball-ball event: a ball cannot touch itself (ball {ball_a})")
        elif self.ball_b != -1:
            raise InvalidEventLog(f"{kind.name} event: ball_b must be -1, got {self.ball_b!r}")
        else:
            ball_b = -1
        for name, value in (("time", time), ("kind", kind), ("ball_a", ball_a), ("ball_b", ball_b),
                            ("target", target)):
            object.__setattr__(self, name, value)

    @property
    def balls(self) -> tuple[int, ...]:
        """The ball(s) this event names."""
        return (self.ball_a, self.ball_b) if self.kind is ShotEventKind.BALL_BALL else (self.ball_a,)

    def __str__(self) -> str:  # as the helper that builds it reads: "hit 0 1 @0.1", "pocket 9 p5 @0.3"
        where = f" p{self.target}" if self.kind is ShotEventKind.POCKET else ""
        return f"{_WORDS[self.kind]} {' '.join(map(str, self.balls))}{where} @{self.time:g}"


def hit(a: int, b: int, t: float) -> ShotEvent:
    """Ball ``a`` touches ball ``b`` at time ``t``."""
    return ShotEvent(t, ShotEventKind.BALL_BALL, a, b)


def rail(ball: int, t: float, cushion: int = -1) -> ShotEvent:
    """``ball`` touches a cushion or pocket jaw at time ``t``."""
    return ShotEvent(t, ShotEventKind.CUSHION, ball, target=cushion)


def pocket(ball: int, pocket_id: int, t: float) -> ShotEvent:
    """``ball`` falls into pocket ``pocket_id`` (0..5) at time ``t``."""
    return ShotEvent(t, ShotEventKind.POCKET, ball, target=pocket_id)


def off(ball: int, t: float) -> ShotEvent:
    """``ball`` leaves the table (not pocketed) at time ``t``."""
    return ShotEvent(t, ShotEventKind.OFF_TABLE, ball)
