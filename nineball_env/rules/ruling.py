"""The ruling: a pure function from the rack state, the declaration and a shot's events to what happens next.

The decision reads like docs/rules.md: summarise the event log (``summary.summarize``), list every foul
(``break_fouls`` / ``shot_fouls`` / ``push_out_fouls``), then apply the penalty or the reward.
Break fouls are reported under their break IDs (R-BREAK-SCRATCH rather than R-FOUL-SCRATCH, ...).
R-FOUL-JUMP-SHOT is never reported: without a stick model only balls move balls (docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Iterable

from nineball_env.rules.errors import IllegalAction
from nineball_env.rules.events import NINE, ShotEvent
from nineball_env.rules.ids import RuleId
from nineball_env.rules.state import BallInHand, Phase, RackState, as_player
from nineball_env.rules.summary import ShotSummary, summarize


class Declaration(StrEnum):
    """What the player declares with an action (R-PUSH-DECLARE, R-PUSH-CHOICE)."""

    SHOT = "shot"  # an ordinary shot (the break included)
    PUSH_OUT = "push-out"  # a shot declared as a push-out (R-PUSH-WHO)
    SHOOT = "shoot"  # after a legal push-out: the opponent plays on from the position left
    PASS_BACK = "pass-back"  # after a legal push-out: the opponent hands the shot back to the pusher
    FORFEIT = "forfeit"  # the player to act concedes the rack (R-FORFEIT); see also ``forfeit``


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
        """One line with the whole decision, the format of the golden playthroughs."""
        return format_outcome(self)


def _text(values: Iterable[object]) -> str:
    items = [str(v) for v in values]
    return ",".join(items) if items else "-"


def format_outcome(ruling: Ruling) -> str:
    """``key=value`` pairs of a ruling, as written in tests/rules/golden."""
    a = ruling.after
    return " ".join([
        f"fouls={_text(ruling.fouls)}",
        f"next={'-' if a.shooter is None else a.shooter}",
        f"bih={a.ball_in_hand}",
        f"phase={a.phase}",
        f"counts={a.foul_counts[0]},{a.foul_counts[1]}",
        f"table={_text(sorted(a.on_table))}",
        f"spotted={'yes' if ruling.nine_spotted else 'no'}",
        f"winner={'-' if a.winner is None else a.winner}",
        f"cited={_text(ruling.cited)}",
    ])


# ---------------------------------------------------------------------------------------------
# Fouls: one function per kind of shot, each line one rule.


def break_fouls(state: RackState, s: ShotSummary) -> list[RuleId]:
    """Every rule a break broke (R-BREAK-FIRST, R-BREAK-LEGAL, R-BREAK-SCRATCH, R-BREAK-JUMP).

    R-BREAK-LEGAL is judged on its own: any object ball pocketed, or four distinct object balls at a
    cushion after the cue ball's first contact (whichever ball that was; none without a contact).
    """
    fouls = []
    if state.lowest not in s.first_contact:  # simultaneous contacts: in the shooter's favour
        fouls.append(RuleId.BREAK_FIRST)
    if not s.object_pocketed and len(s.object_balls_to_cushion) < 4:
        fouls.append(RuleId.BREAK_LEGAL)
    if s.cue_ball_lost:
        fouls.append(RuleId.BREAK_SCRATCH)
    if s.object_off_table:
        fouls.append(RuleId.BREAK_JUMP)
    return fouls


def push_out_fouls(state: RackState, s: ShotSummary) -> list[RuleId]:
    """Fouls on a push-out: all but R-FOUL-WRONG-BALL and R-FOUL-NO-RAIL (R-PUSH-FREE)."""
    fouls = []
    if s.cue_ball_lost:
        fouls.append(RuleId.FOUL_SCRATCH)
    if s.object_off_table:
        fouls.append(RuleId.FOUL_JUMP)
    return fouls


def shot_fouls(state: RackState, s: ShotSummary) -> list[RuleId]:
    """Every rule an ordinary shot broke (R-FOUL-WRONG-BALL, R-FOUL-NO-RAIL, R-FOUL-SCRATCH, R-FOUL-JUMP).

    Without any contact only R-FOUL-WRONG-BALL applies: R-FOUL-NO-RAIL asks for a cushion *after* a contact.
    """
    fouls = []
    if state.lowest not in s.first_contact:  # R-LOWEST; simultaneous contacts: in the shooter's favour
        fouls.append(RuleId.FOUL_WRONG_BALL)
    if s.first_contact and not s.object_pocketed and not s.rail_after_contact:
        fouls.append(RuleId.FOUL_NO_RAIL)
    fouls.extend(push_out_fouls(state, s))
    return fouls


# ---------------------------------------------------------------------------------------------
# The decision.


def decide(state: RackState, events: Iterable[ShotEvent] = (),
           declaration: Declaration | str = Declaration.SHOT) -> Ruling:
    """Rule on one action: a shot with its time-ordered ``events``, a push-out, the push-out choice or a forfeit.

    Raises IllegalAction (a declaration the phase forbids, an action after the rack ended) or
    InvalidEventLog; the state is frozen, so a rejected call changes nothing.
    """
    if not isinstance(state, RackState):
        raise TypeError(f"state: expected a RackState, got {type(state).__name__}")
    declaration = _as_declaration(declaration)
    events = tuple(events)
    _check_allowed(state, declaration, events)
    if declaration is Declaration.FORFEIT:
        return forfeit(state, state.shooter)  # type: ignore[arg-type]
    if declaration in (Declaration.SHOOT, Declaration.PASS_BACK):
        return _choice(state, declaration)
    return _rule_shot(state, declaration, summarize(events, state.on_table))


def decide_summary(state: RackState, summary: ShotSummary, declaration: Declaration | str = Declaration.SHOT) -> Ruling:
    """``decide`` for a shot or push-out already summarised (``summarize``, or the env's reading of physics logs).

    Raises IllegalAction for a declaration the phase forbids or one that is not a shot or push-out.
    """
    if not isinstance(state, RackState):
        raise TypeError(f"state: expected a RackState, got {type(state).__name__}")
    if not isinstance(summary, ShotSummary):
        raise TypeError(f"summary: expected a ShotSummary, got {type(summary).__name__}")
    declaration = _as_declaration(declaration)
    if declaration not in (Declaration.SHOT, Declaration.PUSH_OUT):
        raise IllegalAction(f"a shot summary is ruled as a shot or a push-out, not {declaration.value!r}")
    _check_allowed(state, declaration, ())
    return _rule_shot(state, declaration, summary)


def _as_declaration(declaration: Declaration | str) -> Declaration:
    """``declaration`` as a Declaration, or IllegalAction naming the allowed values (R-PUSH-DECLARE)."""
    try:
        return declaration if type(declaration) is Declaration else Declaration(declaration)
    except ValueError:
        raise IllegalAction(f"declaration: expected one of {[d.value for d in Declaration]}, "
                            f"got {declaration!r} (R-PUSH-DECLARE)") from None


def _rule_shot(state: RackState, declaration: Declaration, summary: ShotSummary) -> Ruling:
    """The ruling on an allowed shot or push-out."""
    if state.phase is Phase.BREAK:
        return _outcome(state, declaration, summary, break_fouls(state, summary))
    if declaration is Declaration.PUSH_OUT:
        return _outcome(state, declaration, summary, push_out_fouls(state, summary))
    return _outcome(state, declaration, summary, shot_fouls(state, summary))


def forfeit(state: RackState, player: int) -> Ruling:
    """``player`` concedes the rack, which the opponent wins (R-FORFEIT); allowed at any time before it ends."""
    if not isinstance(state, RackState):
        raise TypeError(f"state: expected a RackState, got {type(state).__name__}")
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


def _choice(state: RackState, declaration: Declaration) -> Ruling:
    """The opponent's choice after a legal push-out: play on, or hand the shot back (R-PUSH-CHOICE)."""
    chooser = state.shooter
    shooter = chooser if declaration is Declaration.SHOOT else 1 - chooser  # type: ignore[operator]
    after = state._derive(shooter=shooter, phase=Phase.NORMAL, ball_in_hand=BallInHand.NONE)
    return Ruling(state, declaration, (), (RuleId.PUSH_CHOICE,), (), (), False, after)


def _outcome(state: RackState, declaration: Declaration, s: ShotSummary, fouls: list[RuleId]) -> Ruling:
    """Penalty or reward for a shot whose fouls are known; each branch below is one rule of docs/rules.md."""
    shooter: int = state.shooter  # type: ignore[assignment]
    opponent = 1 - shooter
    is_break = state.phase is Phase.BREAK
    is_push = declaration is Declaration.PUSH_OUT
    nine_down = NINE in s.pocketed or NINE in s.off_table
    remaining = state.on_table - set(s.pocketed) - set(s.off_table)  # pocketed balls stay down (R-FOUL-PENALTY)
    counts = list(state.foul_counts)
    cited: list[RuleId] = []
    if is_push:
        cited.append(RuleId.PUSH_FREE)
        if s.object_pocketed:
            cited.append(RuleId.PUSH_POCKETED)

    def ruling(after: RackState, spotted: bool = False) -> Ruling:
        return Ruling(state, declaration, _ordered(fouls), tuple(cited), s.pocketed, s.off_table, spotted, after)

    def over(winner: int, ended_by: RuleId) -> RackState:
        return state._derive(shooter=None, on_table=remaining, phase=Phase.RACK_OVER,
                             ball_in_hand=BallInHand.NONE, foul_counts=(counts[0], counts[1]), winner=winner,
                             ended_by=ended_by)

    def play_on(shooter: int, phase: Phase, ball_in_hand: BallInHand, spot: bool) -> RackState:
        on_table = remaining | {NINE} if spot else remaining
        return state._derive(shooter=shooter, on_table=on_table, phase=phase, ball_in_hand=ball_in_hand,
                             foul_counts=(counts[0], counts[1]))

    if fouls:
        counts[shooter] += 1
        if counts[shooter] == 3:  # R-THREE-FOULS: the rack is lost (nothing is spotted)
            cited.append(RuleId.THREE_FOULS)
            return ruling(over(opponent, RuleId.THREE_FOULS))
        # R-FOUL-PENALTY / R-BREAK-FOUL-BIH: the opponent, ball in hand anywhere (R-BIH), no push-out.
        cited += [RuleId.BREAK_FOUL_BIH if is_break else RuleId.FOUL_PENALTY, RuleId.BIH]
        if nine_down:  # R-SPOT-9 (R-BREAK-9 when it dropped on a foul break)
            cited += [RuleId.BREAK_9, RuleId.SPOT_9] if is_break and NINE in s.pocketed else [RuleId.SPOT_9]
        if counts[shooter] == 2:
            cited.append(RuleId.WARNING)
        return ruling(play_on(opponent, Phase.NORMAL, BallInHand.ANYWHERE, nine_down), nine_down)

    counts[shooter] = 0  # a legal shot, a legal push-out included, clears the count (R-THREE-FOULS)
    if is_push:  # R-PUSH-POCKETED: nothing counts and the 9 comes back; the opponent chooses (R-PUSH-CHOICE)
        if nine_down:
            cited.append(RuleId.SPOT_9)
        cited.append(RuleId.PUSH_CHOICE)
        return ruling(play_on(opponent, Phase.PUSH_OUT_CHOICE, BallInHand.NONE, nine_down), nine_down)
    if NINE in s.pocketed:  # R-WIN-9 (a legal shot cannot have driven the 9 off the table: R-FOUL-JUMP)
        cited += [RuleId.BREAK_9, RuleId.WIN_9] if is_break else [RuleId.WIN_9]
        return ruling(over(shooter, RuleId.WIN_9))
    # R-CONTINUE / R-BREAK-CONTINUE; after a legal break the next shot may be a push-out (R-PUSH-WHO).
    cited.append(RuleId.BREAK_CONTINUE if is_break else RuleId.CONTINUE)
    next_shooter = shooter if s.object_pocketed else opponent
    next_phase = Phase.PUSH_OUT_ALLOWED if is_break else Phase.NORMAL
    return ruling(play_on(next_shooter, next_phase, BallInHand.NONE, spot=False))


def _ordered(fouls: list[RuleId]) -> tuple[RuleId, ...]:
    """Fouls in RuleId (rulebook) order, each once."""
    return tuple(sorted(set(fouls), key=_RULE_RANK.__getitem__))


_RULE_RANK: dict[RuleId, int] = {rule: i for i, rule in enumerate(RuleId)}  # rulebook order


__all__ = ["Declaration", "Ruling", "decide", "decide_summary", "forfeit", "break_fouls", "shot_fouls", "push_out_fouls",
           "format_outcome"]
