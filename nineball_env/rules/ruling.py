"""The ruling: a pure function from the rack state, the declaration and a shot's events to what happens next.

The rules themselves are one numba kernel (``kernels.ruling.rule_batch``, which the games call too); this
module is its readable view: it checks the call, packs the ``RackState`` and the shot's event rows, calls
the kernel and unpacks a frozen ``Ruling`` citing docs/rules.md.
Break fouls are reported under their break IDs (R-BREAK-SCRATCH rather than R-FOUL-SCRATCH, ...).
R-FOUL-JUMP-SHOT is never reported: without a stick model only balls move balls (docs/rules.md).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Iterable

import numpy as np

from nineball_env.kernels.codes import (BALL_IN_HAND_NAMES, N_BALLS, PHASE_NAMES, RULES, Declaration, DeclarationCode,
                                        RackCol, RuleId)
from nineball_env.kernels.facts import MOTION_A, ROWS_BALL, ROWS_IN_FLIGHT, ROWS_KIND, ROWS_OK, ROWS_TIME, check_rows
from nineball_env.kernels.ruling import rule_log
from nineball_env.rules.errors import IllegalAction, InvalidEventLog
from nineball_env.rules.events import ShotEvent
from nineball_env.rules.facts import BALL_SETS, SIMULTANEOUS_S, event_rows
from nineball_env.rules.state import BallInHand, Phase, RackState, as_player
from physics.events import EventKind
from physics.state import Motion


@dataclass(frozen=True)
class Ruling:
    """The referee's decision on one action, and the rack state it leads to.

    Attributes:
        before: the rack state the action was taken from.
        declaration: the declaration that came with it.
        fouls: every rule the shot broke, in RuleId order (empty: a legal shot).
        cited: the other rules that decided the outcome (R-CONTINUE, R-SPOT-9, R-WIN-9, ...).
        pocketed: balls pocketed on the shot, in order; object balls stay down (R-FOUL-PENALTY),
            only the 9 can come back (``nine_spotted``).
        off_table: balls driven off the table on the shot, in order.
        nine_spotted: the 9 returns to the table by R-SPOT-9 (never when the rack ends).
        after: the rack state after the action.
    """

    before: RackState
    declaration: Declaration
    fouls: tuple[RuleId, ...]
    cited: tuple[RuleId, ...]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]
    nine_spotted: bool
    after: RackState

    @property
    def foul(self) -> bool:
        """The shot was a foul (several fouls count as one, R-FOUL-PENALTY)."""
        return bool(self.fouls)

    @property
    def shooter(self) -> int:
        """The player who took the action."""
        return self.before.shooter  # type: ignore[return-value]

    @property
    def next_shooter(self) -> int | None:
        """Who acts next (None once the rack is over): the rules decide, not a turn alternator."""
        return self.after.shooter

    @property
    def ball_in_hand(self) -> BallInHand:
        """Where the next shooter may place the cue ball."""
        return self.after.ball_in_hand

    @property
    def phase(self) -> Phase:
        """The next phase."""
        return self.after.phase

    @property
    def on_table(self) -> frozenset[int]:
        """Object balls on the table after the action, the spotted 9 included."""
        return self.after.on_table

    @property
    def foul_counts(self) -> tuple[int, int]:
        """Consecutive-foul counts after the action (R-THREE-FOULS)."""
        return self.after.foul_counts

    @property
    def warnings(self) -> tuple[bool, bool]:
        """Which players now stand on two fouls (R-WARNING)."""
        return self.after.warnings

    @property
    def winner(self) -> int | None:
        """The rack's winner if this action ended it."""
        return self.after.winner

    def describe(self) -> str:
        """One line with the whole decision as ``key=value`` pairs, the format of the golden playthroughs."""
        return describe_row(self.fouls, self.cited, self.nine_spotted, self.after.packed().tolist())


def describe_row(fouls: tuple[RuleId, ...], cited: tuple[RuleId, ...], spotted: bool, after: list[int]) -> str:
    """``Ruling.describe`` of a ruling given by its parts, the rack after it as a packed row (``RackState.packed``)."""
    shooter, winner = after[_SHOOTER], after[_WINNER]
    return (f"fouls={_text(fouls)} next={'-' if shooter < 0 else shooter} bih={BALL_IN_HAND_NAMES[after[_IN_HAND]]} "
            f"phase={PHASE_NAMES[after[_PHASE]]} counts={after[_COUNT0]},{after[_COUNT1]} "
            f"table={_TABLE_TEXT[after[_ON_BITS]]} spotted={'yes' if spotted else 'no'} "
            f"winner={'-' if winner < 0 else winner} cited={_text(cited)}")


@functools.cache
def rule_names(rules: tuple[RuleId, ...]) -> tuple[str, ...]:
    """The rule IDs as plain strings (what infos hold), cached per tuple."""
    return tuple(str(r) for r in rules)


@functools.cache
def _text(rules: tuple[RuleId, ...]) -> str:
    return ",".join(rule_names(rules)) or "-"


_SHOOTER, _PHASE, _IN_HAND, _ON_BITS, _COUNT0, _COUNT1, _WINNER = (int(c) for c in (
    RackCol.SHOOTER, RackCol.PHASE, RackCol.IN_HAND, RackCol.ON_BITS, RackCol.COUNT0, RackCol.COUNT1, RackCol.WINNER))
_TABLE_TEXT = tuple(",".join(str(b) for b in sorted(balls)) or "-" for balls in BALL_SETS)


# ---------------------------------------------------------------------------------------------
# The decision.


def decide(state: RackState, events: Iterable[ShotEvent] = (),
           declaration: Declaration | str = Declaration.SHOT) -> Ruling:
    """Rule on one action: a shot with its time-ordered ``events``, a push-out, the push-out choice or a forfeit.

    Raises IllegalAction (a declaration the phase forbids, an action after the rack ended) or
    InvalidEventLog; the state is frozen, so a rejected call changes nothing.
    """
    _check_state(state)
    declaration = _as_declaration(declaration)
    events = tuple(events)
    _check_allowed(state, declaration, events)
    if declaration is Declaration.FORFEIT:
        return forfeit(state, state.shooter)  # type: ignore[arg-type]
    return _rule(state, declaration, event_rows(events, state.on_table))  # the push-out choice: no events


def decide_log(state: RackState, rows: np.ndarray, declaration: Declaration | str = Declaration.SHOT) -> Ruling:
    """``decide`` for a shot or push-out given by its physics event-log rows (``physics.EventLog.rows``, time
    order; the physics guarantees what ``decide`` checks of ``ShotEvent`` logs), or by ``event_rows``' (n, 4) rows.

    Raises IllegalAction for a declaration the phase forbids or one that is not a shot or push-out, and
    InvalidEventLog for rows the rules cannot read (not a 2-D array of at least 4 numeric columns, a time out of
    order, an unknown event kind or ball number) or the log of an unresolved shot: one that a cap stopped with a
    ball in the air (``physics.SimResult.in_flight``), which no ruling decides.
    """
    _check_state(state)
    declaration = _as_declaration(declaration)
    if declaration not in (Declaration.SHOT, Declaration.PUSH_OUT):
        raise IllegalAction(f"a shot log is ruled as a shot or a push-out, not {declaration.value!r}")
    _check_allowed(state, declaration, ())
    return _rule(state, declaration, _checked_rows(rows))


_F64 = np.dtype(np.float64)
_ROW_PROBLEMS = {
    ROWS_TIME: "expected a finite time [s], from 0 on and not before the previous row's",
    ROWS_KIND: f"expected a whole event kind {int(EventKind.STICK_BALL)}..{int(EventKind.BALL_LANDING)} "
               f"(physics.EventKind)",
    ROWS_BALL: f"expected ball_a a ball number 0..{N_BALLS - 1} and ball_b -1 or another ball (a ball for a "
               f"contact between two)",
}


def _checked_rows(rows: object) -> np.ndarray:
    """``rows`` as the float64 (n, >= 4) array the rules kernel reads, or InvalidEventLog saying what is wrong with it
    (``kernels.facts.check_rows``)."""
    if not (type(rows) is np.ndarray and rows.dtype is _F64 and rows.ndim == 2):
        if rows is None or isinstance(rows, (str, bytes)):
            raise InvalidEventLog(f"rows: expected a 2-D array of event rows (physics.EventLog.rows), got "
                                  f"{type(rows).__name__}")
        try:
            array = np.asarray(rows)
        except (TypeError, ValueError):  # ragged
            array = np.asarray(None)
        if array.dtype.kind not in "fiu":
            raise InvalidEventLog(f"rows: expected a 2-D array of numeric event rows (physics.EventLog.rows), got "
                                  f"{type(rows).__name__} of dtype {array.dtype}")
        if array.ndim != 2:
            raise InvalidEventLog(f"rows: expected a 2-D array of event rows (n, >= 4), got shape {array.shape}")
        rows = np.ascontiguousarray(array, dtype=np.float64)
    if rows.shape[1] < 4:
        raise InvalidEventLog(f"rows: expected at least 4 columns (time, kind, ball_a, ball_b), got shape {rows.shape}")
    code, i = check_rows(rows)
    if code == ROWS_IN_FLIGHT:
        ball = int(rows[i, 2] if rows[i, MOTION_A] == Motion.AIRBORNE else rows[i, 3])
        raise InvalidEventLog(f"rows[{i}]: ball {ball} is still in the air at the end of the log: a cap stopped the "
                              f"shot (physics.SimResult.in_flight), which is unresolved and cannot be ruled; replay "
                              f"it with larger caps")
    if code != ROWS_OK:
        raise InvalidEventLog(f"rows[{i}]: {_ROW_PROBLEMS[code]}, got {rows[i, :4].tolist()}")
    return rows


def _rule(state: RackState, declaration: Declaration, rows: np.ndarray) -> Ruling:
    """The kernel's ruling (``kernels.ruling.rule_log``) on an allowed ``declaration`` from ``state`` with log ``rows``."""
    after, fouls, cited, spotted, pocketed, off = rule_log(rows, state.packed(), int(DeclarationCode[declaration.name]),
                                                           SIMULTANEOUS_S)
    return Ruling(state, declaration, foul_rules(int(fouls)), cited_rules(tuple(cited.tolist())), tuple(pocketed.tolist()),
                  tuple(off.tolist()), bool(spotted), state.unpack(after))


def _check_state(state: object) -> None:
    if not isinstance(state, RackState):
        raise TypeError(f"state: expected a RackState, got {type(state).__name__}")


def _as_declaration(declaration: Declaration | str) -> Declaration:
    """``declaration`` as a Declaration, or IllegalAction naming the allowed values (R-PUSH-DECLARE)."""
    try:
        return declaration if type(declaration) is Declaration else Declaration(declaration)
    except ValueError:
        raise IllegalAction(f"declaration: expected one of {[d.value for d in Declaration]}, "
                            f"got {declaration!r} (R-PUSH-DECLARE)") from None


@functools.cache
def foul_rules(fouls: int) -> tuple[RuleId, ...]:
    """The rules of a kernel's fouls bit mask (bit = ``RuleCode``), in rulebook order."""
    return tuple(r for j, r in enumerate(RULES) if fouls >> j & 1)


@functools.cache
def cited_rules(codes: tuple[int, ...]) -> tuple[RuleId, ...]:
    """The rules of a kernel's cited ``RuleCode``s, in order."""
    return tuple(RULES[c] for c in codes)


def forfeit(state: RackState, player: int) -> Ruling:
    """``player`` concedes the rack, which the opponent wins (R-FORFEIT); allowed at any time before it ends."""
    _check_state(state)
    try:
        player = as_player(player, "player")
    except ValueError as err:
        raise IllegalAction(f"{err} (R-FORFEIT)") from None
    if state.over:
        raise IllegalAction("the rack is over: nothing can be conceded (R-GAME-END)")
    after = replace(state, shooter=None, phase=Phase.RACK_OVER, ball_in_hand=BallInHand.NONE,
                    winner=1 - player, ended_by=RuleId.FORFEIT)
    return Ruling(state, Declaration.FORFEIT, (), (RuleId.FORFEIT,), (), (), False, after)


def _check_allowed(state: RackState, declaration: Declaration, events: tuple) -> None:
    """Reject declarations the phase does not allow (R-GAME-END, R-PUSH-WHO, R-PUSH-CHOICE)."""
    phase = state.phase
    if phase is Phase.RACK_OVER:
        raise IllegalAction(f"the rack is over (won by player {state.winner}, {state.ended_by}): "
                            "no further shots (R-GAME-END)")
    if phase is Phase.PUSH_OUT_CHOICE and declaration is not Declaration.FORFEIT:
        if declaration not in (Declaration.SHOOT, Declaration.PASS_BACK):
            raise IllegalAction(f"after a legal push-out player {state.shooter} must first choose "
                                f"'shoot' or 'pass-back', not {declaration.value!r} (R-PUSH-CHOICE)")
        if events:
            raise IllegalAction("the push-out choice is an action of its own: it takes no shot events (R-PUSH-CHOICE)")
        return
    if declaration is Declaration.FORFEIT:
        if events:
            raise IllegalAction("a forfeit is an action of its own: it takes no shot events (R-FORFEIT)")
        return
    if declaration in (Declaration.SHOOT, Declaration.PASS_BACK):
        raise IllegalAction(f"{declaration.value!r} is a choice only after a legal push-out, "
                            f"not in phase {phase} (R-PUSH-CHOICE)")
    if declaration is Declaration.PUSH_OUT and phase is not Phase.PUSH_OUT_ALLOWED:
        raise IllegalAction(f"a push-out may be declared only on the shot right after a legal break, "
                            f"not in phase {phase} (R-PUSH-WHO)")


__all__ = ["Declaration", "Ruling", "cited_rules", "decide", "decide_log", "describe_row", "forfeit", "foul_rules",
           "rule_names"]
