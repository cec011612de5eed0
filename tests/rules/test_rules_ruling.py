"""Hand-built event logs, at least one per rule ID an event log decides; each case names its rule."""

from __future__ import annotations

import numpy as np
import pytest
from rules_testkit import FOUR_TO_RAIL, check, state

import physics
from nineball_env.rules.facts import ShotFacts

from nineball_env.rules import (
    Declaration,
    IllegalAction,
    InvalidEventLog,
    RuleId,
    ShotEvent,
    ShotEventKind,
    decide,
    decide_log,
    forfeit,
    hit,
    off,
    pocket,
    rail,
)

BREAK = state("break")
AFTER_BREAK = state("push-out-allowed", shooter=1)
NORMAL = state("normal")

# ------------------------------------------------------------------------------------------------
# One table: (rule, state, events, declaration, expected parts of the ruling).

CASES = [
    # R-LOWEST: the lowest ball *on the table at the start of the shot*; pocketing order is free.
    ("R-LOWEST", "hit the lowest on the table (the 3), pocket the 7",
     state(table=[3, 5, 7, 9]), [hit(0, 3, .1), hit(3, 7, .2), pocket(7, 4, .5)], "shot",
     dict(fouls=(), next=0, table=[3, 5, 9])),
    ("R-LOWEST", "the 1 was pocketed earlier: the 2 is now the ball on",
     state(table=range(2, 10)), [hit(0, 2, .1), rail(2, .3)], "shot", dict(fouls=(), next=1)),
    ("R-LOWEST", "the 3 is hit but the 2 is still on the table",
     state(table=range(2, 10)), [hit(0, 3, .1), rail(3, .3)], "shot", dict(fouls="R-FOUL-WRONG-BALL")),
    # R-CONTINUE
    ("R-CONTINUE", "a legal pocket keeps the shooter at the table", NORMAL,
     [hit(0, 1, .1), pocket(1, 0, .4)], "shot",
     dict(fouls=(), next=0, bih="none", phase="normal", cites="R-CONTINUE", table=range(2, 10))),
    ("R-CONTINUE", "no pocket: the opponent plays the balls where they lie", NORMAL,
     [hit(0, 1, .1), rail(1, .4)], "shot", dict(fouls=(), next=1, bih="none", phase="normal")),
    ("R-CONTINUE", "a pocket on a foul does not keep the shooter at the table", NORMAL,
     [hit(0, 1, .1), pocket(1, 0, .4), pocket(0, 2, .6)], "shot",
     dict(fouls="R-FOUL-SCRATCH", next=1, bih="anywhere", table=range(2, 10))),
    # R-WIN-9
    ("R-WIN-9", "the 9 pocketed directly when it is the lowest", state(table=[9], shooter=1),
     [hit(0, 9, .1), pocket(9, 3, .4)], "shot",
     dict(fouls=(), winner=1, next=None, phase="rack-over", bih="none", table=(), cites="R-WIN-9")),
    ("R-WIN-9", "a combination: the 1 into the 9", NORMAL,
     [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 5, .6)], "shot", dict(fouls=(), winner=0, table=range(1, 9))),
    ("R-WIN-9", "a carom: the 9 off the 1 together with another ball", state(table=[4, 6, 9]),
     [hit(0, 4, .1), hit(4, 6, .2), hit(6, 9, .25), pocket(6, 1, .5), pocket(9, 5, .6)], "shot",
     dict(fouls=(), winner=0, table=[4])),
    ("R-WIN-9", "the 9 pocketed on a wrong-ball foul is spotted, no win", state(table=[2, 9]),
     [hit(0, 9, .1), pocket(9, 5, .6)], "shot",
     dict(fouls="R-FOUL-WRONG-BALL", winner=None, next=1, table=[2, 9], spotted=True)),
    # R-BREAK-FIRST
    ("R-BREAK-FIRST", "the break hits the 2 first", BREAK,
     [hit(0, 2, .1), *FOUR_TO_RAIL[1:]], "shot",
     dict(fouls="R-BREAK-FIRST", next=1, bih="anywhere", phase="normal", counts=(1, 0))),
    ("R-BREAK-FIRST", "the break misses everything (R-BREAK-LEGAL fails too)", BREAK,
     [rail(0, .3), rail(0, .9)], "shot", dict(fouls={"R-BREAK-FIRST", "R-BREAK-LEGAL"}, next=1)),
    ("R-BREAK-FIRST", "the 1 and the 2 at the same instant: in the breaker's favour", BREAK,
     [hit(0, 2, .1), hit(0, 1, .1), *FOUR_TO_RAIL[2:]], "shot", dict(fouls=(), next=1)),
    # R-BREAK-LEGAL
    ("R-BREAK-LEGAL", "only three distinct object balls reach a cushion", BREAK,
     [hit(0, 1, .1), rail(2, .3), rail(3, .3), rail(3, .5), rail(4, .6), rail(0, .7)], "shot",
     dict(fouls="R-BREAK-LEGAL", next=1, bih="anywhere", phase="normal", counts=(1, 0))),
    ("R-BREAK-LEGAL", "four distinct object balls reach a cushion", BREAK, list(FOUR_TO_RAIL), "shot",
     dict(fouls=(), next=1, bih="none", phase="push-out-allowed")),
    ("R-BREAK-LEGAL", "a pocket-jaw contact counts as a cushion", BREAK,
     np.array([(.1, 1, 0, 1, -1), (.3, 3, 2, -1, 0), (.3, 3, 3, -1, 1), (.4, 2, 4, -1, 5), (.5, 2, 5, -1, 7)]),
     "shot", dict(fouls=())),
    ("R-BREAK-LEGAL", "one object ball pocketed is enough", BREAK,
     [hit(0, 1, .1), hit(1, 6, .2), pocket(6, 4, .7)], "shot", dict(fouls=(), next=0)),
    ("R-BREAK-LEGAL", "an object ball that went off the table after a cushion still counted (but jumped)", BREAK,
     [*FOUR_TO_RAIL[:-1], rail(6, .4), off(6, .5)], "shot", dict(fouls="R-BREAK-JUMP", table=set(range(1, 10)) - {6})),
    # R-BREAK-SCRATCH
    ("R-BREAK-SCRATCH", "the cue ball pocketed on an otherwise legal break", BREAK,
     [*FOUR_TO_RAIL, pocket(0, 1, 1.0)], "shot", dict(fouls="R-BREAK-SCRATCH", next=1, bih="anywhere")),
    ("R-BREAK-SCRATCH", "the cue ball off the table on the break", BREAK,
     [*FOUR_TO_RAIL, off(0, 1.0)], "shot", dict(fouls="R-BREAK-SCRATCH", next=1, bih="anywhere")),
    # R-BREAK-JUMP
    ("R-BREAK-JUMP", "an object ball off the table stays out", BREAK,
     [*FOUR_TO_RAIL, off(7, .9)], "shot",
     dict(fouls="R-BREAK-JUMP", next=1, bih="anywhere", table=set(range(1, 10)) - {7}, spotted=False)),
    ("R-BREAK-JUMP", "the 9 off the table is spotted", BREAK,
     [*FOUR_TO_RAIL, off(9, .9)], "shot", dict(fouls="R-BREAK-JUMP", table=range(1, 10), spotted=True,
                                               cites="R-SPOT-9")),
    # R-BREAK-FOUL-BIH
    ("R-BREAK-FOUL-BIH", "after any break foul: ball in hand anywhere, no push-out", BREAK,
     [hit(0, 1, .1), rail(2, .3)], "shot",
     dict(next=1, bih="anywhere", phase="normal", cites=("R-BREAK-FOUL-BIH", "R-BIH"))),
    # R-BREAK-9
    ("R-BREAK-9", "the 9 on a legal break wins", BREAK,
     [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 4, .6)], "shot",
     dict(fouls=(), winner=0, phase="rack-over", cites=("R-BREAK-9", "R-WIN-9"))),
    ("R-BREAK-9", "the 9 on a foul break is spotted and the foul stands", BREAK,
     [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 4, .6), pocket(0, 2, .8)], "shot",
     dict(fouls="R-BREAK-SCRATCH", winner=None, next=1, table=range(1, 10), spotted=True,
          cites=("R-BREAK-9", "R-SPOT-9"))),
    # R-BREAK-CONTINUE
    ("R-BREAK-CONTINUE", "a ball pocketed on a legal break: the breaker continues", BREAK,
     [*FOUR_TO_RAIL, pocket(3, 4, .9)], "shot",
     dict(fouls=(), next=0, phase="push-out-allowed", table=set(range(1, 10)) - {3})),
    ("R-BREAK-CONTINUE", "nothing pocketed on a legal break: the opponent comes to the table",
     state("break", shooter=1, breaker=1), list(FOUR_TO_RAIL), "shot",
     dict(fouls=(), next=0, phase="push-out-allowed", bih="none")),
    # R-PUSH-WHO: the breaker (continuing) or the opponent may push on the shot after a legal break.
    ("R-PUSH-WHO", "the breaker pushes after pocketing on the break", state("push-out-allowed", shooter=0),
     [rail(0, .5)], "push-out", dict(fouls=(), next=1, phase="push-out-choice", bih="none")),
    ("R-PUSH-WHO", "the opponent pushes after a dry break", AFTER_BREAK,
     [hit(0, 5, .2)], "push-out", dict(fouls=(), next=0, phase="push-out-choice")),
    # R-PUSH-DECLARE: an undeclared shot right after the break is an ordinary shot.
    ("R-PUSH-DECLARE", "undeclared: the wrong ball is a foul", AFTER_BREAK,
     [hit(0, 5, .2)], "shot", dict(fouls={"R-FOUL-WRONG-BALL", "R-FOUL-NO-RAIL"}, next=0, phase="normal")),
    ("R-PUSH-DECLARE", "undeclared legal shot: no push-out later", AFTER_BREAK,
     [hit(0, 1, .2), rail(1, .4)], "shot", dict(fouls=(), next=0, phase="normal")),
    # R-PUSH-FREE
    ("R-PUSH-FREE", "no contact and no cushion is legal on a push-out", AFTER_BREAK, [], "push-out",
     dict(fouls=(), next=0, phase="push-out-choice", cites="R-PUSH-FREE")),
    ("R-PUSH-FREE", "a scratch on a push-out is a foul", AFTER_BREAK,
     [hit(0, 4, .2), pocket(0, 2, .7)], "push-out",
     dict(fouls="R-FOUL-SCRATCH", next=0, bih="anywhere", phase="normal", counts=(0, 1))),
    ("R-PUSH-FREE", "a jumped ball on a push-out is a foul", AFTER_BREAK,
     [hit(0, 4, .2), off(4, .7)], "push-out",
     dict(fouls="R-FOUL-JUMP", next=0, bih="anywhere", table=set(range(1, 10)) - {4})),
    # R-PUSH-POCKETED
    ("R-PUSH-POCKETED", "balls pocketed on a push-out stay down and do not keep the pusher on", AFTER_BREAK,
     [hit(0, 3, .2), pocket(3, 2, .6)], "push-out",
     dict(fouls=(), next=0, phase="push-out-choice", table=set(range(1, 10)) - {3}, cites="R-PUSH-POCKETED")),
    ("R-PUSH-POCKETED", "the 9 pocketed on a push-out is spotted and does not win", AFTER_BREAK,
     [hit(0, 9, .2), pocket(9, 5, .6)], "push-out",
     dict(fouls=(), winner=None, next=0, phase="push-out-choice", table=range(1, 10), spotted=True,
          cites=("R-PUSH-POCKETED", "R-SPOT-9"))),
    # R-FOUL-PENALTY: several fouls are one foul; pocketed balls stay down; ball in hand anywhere.
    ("R-FOUL-PENALTY", "wrong ball, no rail and scratch: one foul, every rule reported", NORMAL,
     [hit(0, 2, .1), pocket(0, 0, .5)], "shot",
     dict(fouls={"R-FOUL-WRONG-BALL", "R-FOUL-NO-RAIL", "R-FOUL-SCRATCH"}, counts=(1, 0), next=1,
          bih="anywhere", cites=("R-FOUL-PENALTY", "R-BIH"))),
    ("R-FOUL-PENALTY", "object balls pocketed on a foul stay pocketed", NORMAL,
     [hit(0, 1, .1), hit(1, 4, .2), pocket(4, 3, .5), pocket(1, 2, .6), pocket(0, 5, .8)], "shot",
     dict(fouls="R-FOUL-SCRATCH", table=[2, 3, 5, 6, 7, 8, 9], next=1, bih="anywhere")),
    # R-FOUL-WRONG-BALL
    ("R-FOUL-WRONG-BALL", "first contact with a higher ball", NORMAL,
     [hit(0, 2, .1), hit(2, 1, .2), rail(1, .4)], "shot", dict(fouls="R-FOUL-WRONG-BALL", next=1)),
    ("R-FOUL-WRONG-BALL", "no object ball contacted (R-FOUL-NO-RAIL needs a contact)", NORMAL,
     [rail(0, .3), rail(0, .6)], "shot", dict(fouls="R-FOUL-WRONG-BALL")),
    ("R-FOUL-WRONG-BALL", "simultaneous contact with the lowest: in the shooter's favour", NORMAL,
     [hit(0, 1, .1), hit(0, 2, .1), rail(2, .4)], "shot", dict(fouls=())),
    ("R-FOUL-WRONG-BALL", "simultaneous contact without the lowest", NORMAL,
     [hit(0, 2, .1), hit(3, 0, .1), rail(2, .4)], "shot", dict(fouls="R-FOUL-WRONG-BALL")),
    ("R-FOUL-WRONG-BALL", "the lowest hit only after another ball", NORMAL,
     [hit(0, 2, .1), hit(0, 1, .2), rail(1, .4)], "shot", dict(fouls="R-FOUL-WRONG-BALL")),
    # R-FOUL-NO-RAIL
    ("R-FOUL-NO-RAIL", "no cushion after the contact and nothing pocketed", NORMAL,
     [hit(0, 1, .1), hit(1, 2, .3)], "shot", dict(fouls="R-FOUL-NO-RAIL", next=1, bih="anywhere")),
    ("R-FOUL-NO-RAIL", "a cushion before the contact does not count", NORMAL,
     [rail(0, .05), hit(0, 1, .1)], "shot", dict(fouls="R-FOUL-NO-RAIL")),
    ("R-FOUL-NO-RAIL", "the cue ball reaching a cushion after the contact is enough", NORMAL,
     [rail(0, .05), hit(0, 1, .1), rail(0, .4)], "shot", dict(fouls=())),
    ("R-FOUL-NO-RAIL", "an object ball at a pocket jaw is enough", NORMAL,
     np.array([(0.0, 0, 0, -1, -1), (.1, 1, 0, 1, -1), (.2, 5, 1, -1, -1), (.4, 3, 1, -1, 2)]),
     "shot", dict(fouls=())),
    ("R-FOUL-NO-RAIL", "a pocketed object ball is enough", NORMAL,
     [hit(0, 1, .1), pocket(1, 1, .3)], "shot", dict(fouls=(), next=0)),
    # R-FOUL-SCRATCH
    ("R-FOUL-SCRATCH", "the cue ball pocketed after a legal hit", NORMAL,
     [hit(0, 1, .1), rail(1, .3), pocket(0, 4, .5)], "shot", dict(fouls="R-FOUL-SCRATCH", next=1, bih="anywhere")),
    ("R-FOUL-SCRATCH", "the cue ball off the table", NORMAL,
     [hit(0, 1, .1), rail(0, .3), off(0, .4)], "shot", dict(fouls="R-FOUL-SCRATCH")),
    ("R-FOUL-SCRATCH", "the 9 made with a scratch is spotted, no win", state(table=[5, 9]),
     [hit(0, 5, .1), hit(5, 9, .2), pocket(9, 0, .5), pocket(0, 1, .7)], "shot",
     dict(fouls="R-FOUL-SCRATCH", winner=None, table=[5, 9], spotted=True)),
    # R-FOUL-JUMP
    ("R-FOUL-JUMP", "an object ball off the table stays out; play goes on", NORMAL,
     [hit(0, 1, .1), rail(1, .2), off(1, .3)], "shot",
     dict(fouls="R-FOUL-JUMP", table=range(2, 10), next=1, bih="anywhere", phase="normal")),
    ("R-FOUL-JUMP", "the 9 off the table is spotted", NORMAL,
     [hit(0, 1, .1), hit(1, 9, .2), rail(9, .25), off(9, .3)], "shot",
     dict(fouls="R-FOUL-JUMP", table=range(1, 10), spotted=True, cites="R-SPOT-9")),
    ("R-FOUL-JUMP", "leaving the table is not a cushion contact (R-FOUL-NO-RAIL too)", NORMAL,
     [hit(0, 1, .1), hit(1, 9, .2), off(9, .3)], "shot", dict(fouls={"R-FOUL-JUMP", "R-FOUL-NO-RAIL"})),
    ("R-FOUL-JUMP", "a jumped ball spoils a legal pocket", NORMAL,
     [hit(0, 1, .1), pocket(1, 0, .3), off(2, .3)], "shot",
     dict(fouls="R-FOUL-JUMP", next=1, table=range(3, 10))),
    # R-BIH: after a foul the incoming player places the cue ball anywhere.
    ("R-BIH", "ball in hand anywhere for the incoming player", state(shooter=1),
     [hit(0, 3, .1), rail(3, .3)], "shot", dict(next=0, bih="anywhere", cites="R-BIH")),
    # R-SPOT-9 (where it goes: test_rules_rack.py)
    ("R-SPOT-9", "the 9 pocketed on a foul comes back; nothing else does", NORMAL,
     [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 4, .4), hit(0, 2, .5), pocket(2, 1, .7), pocket(0, 3, .9)],
     "shot", dict(fouls="R-FOUL-SCRATCH", table=[1, 3, 4, 5, 6, 7, 8, 9], spotted=True, cites="R-SPOT-9")),
    # R-THREE-FOULS
    ("R-THREE-FOULS", "the third consecutive foul loses the rack", state(counts=(2, 1)),
     [hit(0, 2, .1), rail(2, .3)], "shot",
     dict(fouls="R-FOUL-WRONG-BALL", counts=(3, 1), winner=1, next=None, phase="rack-over", bih="none",
          cites="R-THREE-FOULS")),
    ("R-THREE-FOULS", "a legal shot clears the count", state(counts=(2, 2)),
     [hit(0, 1, .1), rail(1, .3)], "shot", dict(fouls=(), counts=(0, 2), next=1, warnings=(False, True))),
    ("R-THREE-FOULS", "a legal push-out clears the count", state("push-out-allowed", shooter=1, counts=(0, 2)),
     [], "push-out", dict(fouls=(), counts=(0, 0))),
    ("R-THREE-FOULS", "a third foul on a push-out loses too", state("push-out-allowed", shooter=1, counts=(0, 2)),
     [off(0, .4)], "push-out", dict(fouls="R-FOUL-SCRATCH", counts=(0, 3), winner=0)),
    ("R-THREE-FOULS", "the 9 pocketed on the third foul is not spotted: the rack is over", state(counts=(2, 0)),
     [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 4, .4), pocket(0, 1, .6)], "shot",
     dict(winner=1, spotted=False, table=range(1, 9))),
    # R-WARNING
    ("R-WARNING", "a second consecutive foul warns the player", state(counts=(1, 0)),
     [hit(0, 2, .1), rail(2, .3)], "shot", dict(counts=(2, 0), warnings=(True, False), cites="R-WARNING")),
    ("R-WARNING", "a first foul gives no warning", NORMAL,
     [hit(0, 2, .1), rail(2, .3)], "shot", dict(counts=(1, 0), warnings=(False, False))),
]


@pytest.mark.parametrize(
    ("rule", "rack", "events", "declaration", "expected"),
    [pytest.param(rule, rack, events, decl, exp, id=f"{rule}: {what}")
     for rule, what, rack, events, decl, exp in CASES],
)
def test_rule(rule: str, rack, events, declaration, expected) -> None:
    ruler = decide_log if isinstance(events, np.ndarray) else decide  # an array: physics log rows (BALL_JAW codes)
    check(ruler(rack, events, declaration), **expected)


def test_every_case_cites_a_real_rule() -> None:
    assert {rule for rule, *_ in CASES} <= {r.value for r in RuleId}


# ------------------------------------------------------------------------------------------------
# R-PUSH-WHO, R-PUSH-CHOICE, R-GAME-END, R-FORFEIT: actions the phase allows or forbids.


@pytest.mark.parametrize("rack", [BREAK, NORMAL, state(bih="anywhere")], ids=["break", "normal", "normal-bih"])
def test_r_push_who_push_out_only_right_after_a_legal_break(rack) -> None:
    with pytest.raises(IllegalAction, match="R-PUSH-WHO"):
        decide(rack, [], "push-out")


def test_r_push_who_no_push_out_after_a_foul_break() -> None:
    after_foul = decide(BREAK, [hit(0, 2, .1)]).after
    assert after_foul.phase == "normal"
    with pytest.raises(IllegalAction, match="R-PUSH-WHO"):
        decide(after_foul, [], "push-out")


def test_r_push_who_only_one_push_out_per_rack() -> None:
    pushed = decide(AFTER_BREAK, [rail(0, .3)], "push-out").after
    passed = decide(pushed, declaration="pass-back").after
    with pytest.raises(IllegalAction, match="R-PUSH-WHO"):
        decide(passed, [], "push-out")


def test_r_push_choice_shoot_keeps_the_chooser() -> None:
    pushed = decide(AFTER_BREAK, [rail(0, .3)], "push-out")  # player 1 pushed
    assert pushed.next_shooter == 0
    check(decide(pushed.after, declaration=Declaration.SHOOT),
          fouls=(), next=0, bih="none", phase="normal", counts=(0, 0), cites="R-PUSH-CHOICE")


def test_r_push_choice_pass_back_gives_the_pusher_the_shot_without_ball_in_hand() -> None:
    pushed = decide(AFTER_BREAK, [rail(0, .3)], "push-out").after
    check(decide(pushed, declaration="pass-back"), next=1, bih="none", phase="normal")


@pytest.mark.parametrize("declaration", ["shot", "push-out"])
def test_r_push_choice_must_be_made_before_any_shot(declaration: str) -> None:
    pushed = decide(AFTER_BREAK, [rail(0, .3)], "push-out").after
    with pytest.raises(IllegalAction, match="R-PUSH-CHOICE"):
        decide(pushed, [hit(0, 1, .1)], declaration)


def test_r_push_choice_is_an_action_without_events() -> None:
    pushed = decide(AFTER_BREAK, [rail(0, .3)], "push-out").after
    with pytest.raises(IllegalAction, match="R-PUSH-CHOICE"):
        decide(pushed, [hit(0, 1, .1)], "shoot")


@pytest.mark.parametrize("rack", [BREAK, AFTER_BREAK, NORMAL], ids=["break", "push-out-allowed", "normal"])
@pytest.mark.parametrize("choice", ["shoot", "pass-back"])
def test_r_push_choice_only_after_a_legal_push_out(rack, choice: str) -> None:
    with pytest.raises(IllegalAction, match="R-PUSH-CHOICE"):
        decide(rack, [], choice)


def test_r_push_declare_unknown_declaration_is_rejected() -> None:
    with pytest.raises(IllegalAction, match="R-PUSH-DECLARE"):
        decide(AFTER_BREAK, [], "safety")


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("rack", [BREAK, AFTER_BREAK, NORMAL, state(counts=(2, 2), shooter=1)],
                         ids=["break", "push-out-allowed", "normal", "both-warned"])
def test_r_forfeit_the_opponent_wins(rack, player: int) -> None:
    ruling = forfeit(rack, player)
    check(ruling, fouls=(), winner=1 - player, next=None, phase="rack-over", bih="none",
          counts=rack.foul_counts, table=rack.on_table, cites="R-FORFEIT")
    assert ruling.after.ended_by == RuleId.FORFEIT


def test_r_forfeit_during_the_push_out_choice_and_as_a_declaration() -> None:
    pushed = decide(AFTER_BREAK, [rail(0, .3)], "push-out").after
    check(forfeit(pushed, 1), winner=0)
    check(decide(pushed, declaration="forfeit"), winner=1)  # the chooser (player 0) concedes
    with pytest.raises(IllegalAction, match="R-FORFEIT"):
        decide(NORMAL, [hit(0, 1, .1)], "forfeit")
    with pytest.raises(IllegalAction, match="R-FORFEIT"):
        forfeit(NORMAL, 2)


ENDED = [
    decide(state(table=[9]), [hit(0, 9, .1), pocket(9, 0, .3)]).after,
    decide(state(counts=(2, 0)), [hit(0, 2, .1)]).after,
    forfeit(NORMAL, 0).after,
]


@pytest.mark.parametrize("over", ENDED, ids=["R-WIN-9", "R-THREE-FOULS", "R-FORFEIT"])
@pytest.mark.parametrize("declaration", list(Declaration))
def test_r_game_end_nothing_after_the_rack_ended(over, declaration) -> None:
    assert over.phase == "rack-over" and over.winner is not None
    with pytest.raises(IllegalAction, match="R-GAME-END"):
        decide(over, [hit(0, 1, .1)] if declaration in ("shot", "push-out") else [], declaration)
    with pytest.raises(IllegalAction, match="R-GAME-END"):
        forfeit(over, 0)


def test_r_game_end_the_rack_runs_on_after_a_foul_with_the_9() -> None:
    ruling = decide(NORMAL, [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 0, .3), pocket(0, 1, .5)])
    assert not ruling.after.over and ruling.winner is None


# ------------------------------------------------------------------------------------------------
# Invalid event logs: a clear error and nothing changes.

INVALID_LOGS = {
    "ball not on the table at the start": [hit(0, 1, .1)],  # the 1 is down in this rack
    "ball pocketed twice": [hit(0, 2, .1), pocket(2, 0, .3), pocket(2, 1, .4)],
    "ball moving after it left the table": [hit(0, 2, .1), off(2, .3), rail(2, .4)],
    "cue ball hit after it was pocketed": [hit(0, 2, .1), pocket(0, 0, .3), hit(0, 3, .4)],
    "events out of time order": [hit(0, 2, .5), rail(2, .4)],
    "not a ShotEvent": [(0.1, 1, 0, 2, -1)],
}


@pytest.mark.parametrize("events", INVALID_LOGS.values(), ids=INVALID_LOGS.keys())
def test_invalid_event_logs_are_rejected(events) -> None:
    rack = state(table=range(2, 10))
    snapshot = repr(rack)
    with pytest.raises(InvalidEventLog):
        decide(rack, events)
    assert repr(rack) == snapshot


def test_r_foul_jump_shot_cannot_arise_without_a_stick_model() -> None:
    """R-FOUL-JUMP-SHOT: only balls move balls in the simulation, so no event log can break it."""
    assert "R-FOUL-JUMP-SHOT" in (RuleId.__doc__ or "") or "FOUL_JUMP_SHOT" in (RuleId.__doc__ or "")
    worst = decide(NORMAL, [hit(0, 5, .1), off(5, .2), hit(0, 6, .3), off(0, .4)])
    assert RuleId.FOUL_JUMP_SHOT not in worst.fouls
    assert ShotEventKind.__members__.keys() == {"BALL_BALL", "CUSHION", "POCKET", "OFF_TABLE"}


def test_r_no_call_decide_takes_no_called_ball_or_pocket() -> None:
    import inspect

    assert list(inspect.signature(decide).parameters) == ["state", "events", "declaration"]


@pytest.mark.parametrize("pocket_id", range(6))
def test_r_no_call_any_pocket_counts_the_same(pocket_id: int) -> None:
    ruling = decide(state(table=[3, 9]), [hit(0, 3, .1), hit(3, 9, .2), pocket(9, pocket_id, .5)])
    assert ruling.winner == 0 and ruling.fouls == ()


def test_describe_lists_the_whole_decision() -> None:
    line = decide(BREAK, [*FOUR_TO_RAIL, pocket(0, 1, 1.0)]).describe()
    assert line == ("fouls=R-BREAK-SCRATCH next=1 bih=anywhere phase=normal counts=1,0 table=1,2,3,4,5,6,7,8,9 "
                    "spotted=no winner=- cited=R-BREAK-FOUL-BIH,R-BIH")


def test_shot_event_is_the_only_accepted_record() -> None:
    assert isinstance(hit(0, 1, .1), ShotEvent)


def test_decide_and_forfeit_need_a_rack_state() -> None:
    with pytest.raises(TypeError):
        decide("rack", [])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        forfeit(None, 0)  # type: ignore[arg-type]


def test_ruling_keeps_the_action_it_judged() -> None:
    ruling = decide(AFTER_BREAK, [rail(0, .3)], "push-out")
    assert ruling.shooter == 1 and ruling.before == AFTER_BREAK and ruling.declaration is Declaration.PUSH_OUT
    assert not ruling.foul and ruling.pocketed == () and ruling.off_table == ()


# ------------------------------------------------------------------------------------------------
# decide_log: the same ruling from log rows (the search agent's path), and the same refusals.


@pytest.mark.parametrize("rule, why, before, events, declaration, expected", CASES, ids=[c[1] for c in CASES])
def test_decide_log_rules_every_case_as_decide(rule, why, before, events, declaration, expected) -> None:
    from nineball_env.rules.facts import event_rows
    if declaration not in ("shot", "push-out"):
        return
    try:
        ruled = decide(before, events, declaration)
    except (IllegalAction, InvalidEventLog):
        return
    assert decide_log(before, event_rows(events, before.on_table), declaration) == ruled


def test_decide_log_refuses_choices_and_forbidden_push_outs() -> None:
    empty = np.zeros((0, 5))
    for declaration in ("shoot", "pass-back", "forfeit"):  # actions of their own (R-PUSH-CHOICE, R-FORFEIT)
        with pytest.raises(IllegalAction, match="shot or a push-out"):
            decide_log(NORMAL, empty, declaration)
    with pytest.raises(IllegalAction, match="R-PUSH-WHO"):
        decide_log(NORMAL, empty, "push-out")
    with pytest.raises(IllegalAction, match="R-PUSH-DECLARE"):
        decide_log(NORMAL, empty, "bank")


# ------------------------------------------------------------------------------------------------
# decide_log's rows (issue 29): what the rules kernel cannot read is a clear InvalidEventLog at the Python boundary,
# never a numba TypingError or a silent ruling; a shot a cap stopped with a ball in the air is not ruled at all.

_GOOD = np.array([[0.0, 0.0, 0, -1], [0.1, 1.0, 0, 1], [0.3, 2.0, 1, -1], [0.5, 4.0, 1, -1]])  # hit, rail, pocket


def _bad(row: int, column: int, value: float) -> np.ndarray:
    rows = _GOOD.copy()
    rows[row, column] = value
    return rows


@pytest.mark.parametrize("rows, match", [
    (None, r"rows: expected a 2-D array"), ("0 1 0 1", r"rows: expected a 2-D array"),
    (_GOOD[1], r"rows: expected a 2-D array of event rows \(n, >= 4\), got shape \(4,\)"),
    (_GOOD[:, :3], r"rows: expected at least 4 columns"), ([[0.0, "hit", 0, 1]], "numeric"),
    (np.array([[1 + 1j, 1, 0, 1]]), "numeric"),
    (_bad(3, 2, 10), r"rows\[3\]: expected ball_a a ball number 0..9"),  # the "ball 10", ruled legal before
    (_bad(3, 2, -1), r"rows\[3\]: expected ball_a"), (_bad(3, 2, 1.5), r"rows\[3\]: expected ball_a"),
    (_bad(1, 3, 10), r"rows\[1\]: expected ball_a"), (_bad(1, 3, 0), r"rows\[1\]: expected ball_a"),
    (_bad(1, 3, -1), r"rows\[1\]: expected ball_a"), (_bad(2, 1, 12), r"rows\[2\]: expected a whole event kind"),
    (_bad(2, 1, 2.5), r"rows\[2\]: expected a whole event kind"), (_bad(2, 1, -1), "event kind"),
    (_bad(2, 0, np.nan), r"rows\[2\]: expected a finite time"), (_bad(2, 0, 0.05), r"rows\[2\]: expected a finite time"),
    (_bad(0, 0, -1.0), r"rows\[0\]: expected a finite time"), (_bad(3, 0, np.inf), "finite time"),
])
def test_decide_log_refuses_rows_it_cannot_read(rows, match) -> None:
    with pytest.raises(InvalidEventLog, match=match):
        decide_log(NORMAL, rows)


def test_decide_log_reads_array_likes_as_their_array() -> None:
    """A list of rows, integer or Fortran-ordered arrays and physics' 21-column rows are the same rows."""
    ruled = decide_log(NORMAL, _GOOD)
    assert ruled.pocketed == (1,) and not ruled.foul
    for rows in (_GOOD.tolist(), np.asfortranarray(_GOOD), _GOOD.astype(np.float32), np.pad(_GOOD, ((0, 0), (0, 17)))):
        assert decide_log(NORMAL, rows) == ruled


def test_a_shot_stopped_with_a_ball_in_the_air_is_not_ruled() -> None:
    """A jump shot that ``max_events`` stops with the cue ball in the air (``physics.SimResult.in_flight``) is
    unresolved: 921a595 took the cue ball off there, and the rules ruled a scratch (R-FOUL-JUMP) on the user's cap;
    now nothing logs it off, the facts hold no ball off the table, and decide_log refuses to rule it. The same shot
    run to its end is ruled."""
    table = physics.place_balls({0: (0.6, 0.5), 1: (0.6, 0.8), 2: (0.3, 1.6)})
    jump = physics.Shot(V0=4.5, phi=90.0, theta=45.0, b=0.707)
    capped = physics.simulate(table, jump, max_events=3)
    assert capped.in_flight
    facts = ShotFacts(1)
    facts.read(capped.events.rows[None], np.array([len(capped.events)]), np.array([0]))
    assert facts.n_off[0] == 0
    with pytest.raises(InvalidEventLog, match=r"rows\[2\]: ball 0 is still in the air at the end of the log: a cap "
                                              r"stopped the shot"):
        decide_log(state(table=[1, 2, 9]), capped.events.rows)
    whole = physics.simulate(table, jump)
    assert not whole.in_flight and decide_log(state(table=[1, 2, 9]), whole.events.rows).cited
