"""The state of one rack between shots: who shoots, what is on the table, the phase and the foul counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from nineball_env.kernels.codes import (BALL_IN_HAND, NO_PLAYER, PHASES, RACK_ENDINGS, RULES, BallInHand,
                                        BallInHandCode, Phase, PhaseCode, RackCol, RuleCode, RuleId)
from nineball_env.rules.events import NINE, OBJECT_BALLS
from nineball_env.rules.facts import BALL_SETS

PLAYERS = (0, 1)


def as_player(value: object, what: str) -> int:
    """``value`` as player 0 or 1, or a ValueError naming ``what``."""
    if isinstance(value, bool) or value not in PLAYERS:
        raise ValueError(f"{what}: expected player 0 or 1, got {value!r}")
    return int(value)  # type: ignore[call-overload]


@dataclass(frozen=True)
class RackState:
    """One rack at the start of a shot (or after its end); frozen, so a rejected call changes nothing.

    Attributes:
        breaker: the player who breaks (broke) this rack.
        shooter: the player to act next; None once the rack is over.
        on_table: object balls on the table (the cue ball is always in play).
        phase: see ``Phase``.
        ball_in_hand: where the shooter may place the cue ball before the shot.
        foul_counts: consecutive fouls of players 0 and 1 (R-THREE-FOULS); 3 only for a rack lost by them.
        winner: the player who won the rack, or None while it runs.
        ended_by: R-WIN-9, R-THREE-FOULS or R-FORFEIT once the rack is over.
    """

    breaker: int = 0
    shooter: int | None = 0
    on_table: frozenset[int] = OBJECT_BALLS
    phase: Phase = Phase.BREAK
    ball_in_hand: BallInHand = BallInHand.KITCHEN
    foul_counts: tuple[int, int] = (0, 0)
    winner: int | None = None
    ended_by: RuleId | None = None

    def __post_init__(self) -> None:
        def set_(name: str, value: object) -> None:
            object.__setattr__(self, name, value)  # normalise a field of the frozen instance

        set_("breaker", as_player(self.breaker, "breaker"))
        on_table, phase, ball_in_hand, counts = self.on_table, self.phase, self.ball_in_hand, self.foul_counts
        ball_set = _BALL_SETS.get(on_table) if type(on_table) is frozenset else None
        if (ball_set is not None and type(phase) is Phase and type(ball_in_hand) is BallInHand  # the usual case:
                and type(counts) is tuple and len(counts) == 2 and type(counts[0]) is int  # nothing to convert
                and type(counts[1]) is int):
            on_table = ball_set
        else:
            try:
                on_table = frozenset(int(b) for b in on_table)
                phase = Phase(phase)
                ball_in_hand = BallInHand(ball_in_hand)
                counts = tuple(int(c) for c in counts)
            except (TypeError, ValueError) as err:
                raise ValueError(f"RackState: {err}") from None
        if not on_table <= OBJECT_BALLS:
            raise ValueError(f"on_table: expected object balls 1..9, got {sorted(on_table)}")
        if len(counts) != 2 or not all(0 <= c <= 3 for c in counts):
            raise ValueError(f"foul_counts: expected two counts in 0..3, got {self.foul_counts!r}")
        set_("on_table", on_table)
        set_("phase", phase)
        set_("ball_in_hand", ball_in_hand)
        set_("foul_counts", counts)
        if phase is Phase.RACK_OVER:
            set_("winner", as_player(self.winner, "winner"))
            if self.ended_by not in RACK_ENDINGS:
                raise ValueError(f"ended_by: expected one of {sorted(RACK_ENDINGS)}, got {self.ended_by!r}")
            set_("ended_by", RuleId(self.ended_by))
            if self.shooter is not None or ball_in_hand is not BallInHand.NONE:
                raise ValueError("a rack that is over has no shooter and no ball in hand (R-GAME-END)")
            winner: int = self.winner  # type: ignore[assignment]
            lost_on_fouls = self.ended_by is RuleId.THREE_FOULS
            if lost_on_fouls != (counts[1 - winner] == 3) or counts[winner] == 3:
                raise ValueError(f"foul_counts {counts}: three fouls must be exactly how the rack was lost")
            return
        set_("shooter", as_player(self.shooter, "shooter"))
        if self.winner is not None or self.ended_by is not None:
            raise ValueError(f"a running rack has no winner (phase {phase})")
        if NINE not in on_table:
            raise ValueError("on_table: the 9 stays on the table until the rack ends (R-WIN-9, R-SPOT-9)")
        if 3 in counts:
            raise ValueError(f"foul_counts {counts}: a third consecutive foul ends the rack (R-THREE-FOULS)")
        if (phase is Phase.BREAK) != (ball_in_hand is BallInHand.KITCHEN):
            raise ValueError("ball in hand in the kitchen belongs to the break and only to it (R-BREAK-POS)")
        if phase is Phase.BREAK and self.shooter != self.breaker:
            raise ValueError("the breaker takes the break")
        if phase in (Phase.PUSH_OUT_ALLOWED, Phase.PUSH_OUT_CHOICE) and ball_in_hand is not BallInHand.NONE:
            raise ValueError(f"no ball in hand in phase {phase}: it follows a legal break or push-out")

    def packed(self) -> np.ndarray:
        """This state as one read-only int64 row (``kernels.codes.RackCol`` columns), as the kernels read it
        (packed once per state: the state is frozen)."""
        row = self.__dict__.get(_ROW)
        if row is None:
            row = np.array((NO_PLAYER if self.shooter is None else self.shooter, PhaseCode[self.phase.name],
                            BallInHandCode[self.ball_in_hand.name], sum(1 << b for b in self.on_table),
                            *self.foul_counts, self.breaker, NO_PLAYER if self.winner is None else self.winner,
                            -1 if self.ended_by is None else RuleCode[self.ended_by.name]), dtype=np.int64)
            row.flags.writeable = False
            self.__dict__[_ROW] = row  # a cache beside the fields: not compared, hashed or shown
        return row

    @classmethod
    def from_packed(cls, row: np.ndarray) -> RackState:
        """A packed row (``packed``) back as a validated RackState."""
        return cls(**_fields(row))

    def unpack(self, row: np.ndarray) -> RackState:
        """The rules kernel's next state (a packed row) of this state, built without re-validation: the kernel
        only derives valid states from valid ones. Anything else (user input, tests) goes through the validating
        constructor, ``from_packed`` or ``replace``."""
        new = object.__new__(RackState)
        new.__dict__.update(_fields(row))  # a frozen dataclass: fill the instance dict directly, as __init__ would
        return new

    @classmethod
    def start(cls, breaker: int = 0, on_table: Iterable[int] = OBJECT_BALLS) -> RackState:
        """A fresh rack before the break: the breaker has ball in hand in the kitchen (R-BREAK-POS)."""
        return cls(breaker=breaker, shooter=breaker, on_table=frozenset(on_table))

    @property
    def over(self) -> bool:
        """The rack has ended (R-GAME-END)."""
        return self.phase is Phase.RACK_OVER

    @property
    def lowest(self) -> int:
        """The lowest-numbered object ball on the table: the ball to hit first (R-LOWEST)."""
        return min(self.on_table)

    @property
    def warnings(self) -> tuple[bool, bool]:
        """Which players stand on two consecutive fouls (R-WARNING)."""
        return (self.foul_counts[0] == 2, self.foul_counts[1] == 2)


_ROW = "_packed_row"
#: each set of object balls by itself: a frozenset equal to one (of ints, or numbers equal to them) reads as that set
_BALL_SETS: dict[frozenset[int], frozenset[int]] = {b: b for b in BALL_SETS}


def _fields(row: np.ndarray) -> dict[str, object]:
    """The RackState fields of a packed row."""
    r = row.tolist()
    shooter, winner, ended_by = r[RackCol.SHOOTER], r[RackCol.WINNER], r[RackCol.ENDED_BY]
    return {"breaker": r[RackCol.BREAKER], "shooter": None if shooter < 0 else shooter,
            "on_table": BALL_SETS[r[RackCol.ON_BITS]], "phase": PHASES[r[RackCol.PHASE]],
            "ball_in_hand": BALL_IN_HAND[r[RackCol.IN_HAND]], "foul_counts": (r[RackCol.COUNT0], r[RackCol.COUNT1]),
            "winner": None if winner < 0 else winner, "ended_by": None if ended_by < 0 else RULES[ended_by]}
