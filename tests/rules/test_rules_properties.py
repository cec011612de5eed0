"""Property tests: random event logs never crash the engine and always give a consistent ruling."""

from __future__ import annotations

import dataclasses

import hypothesis.strategies as st
from hypothesis import given, settings

from nineball_env.rules import (
    FOUL_IDS,
    RACK_ENDINGS,
    BallInHand,
    Declaration,
    Phase,
    RackState,
    RuleId,
    RulesError,
    ShotEvent,
    ShotEventKind,
    decide,
    forfeit,
)

FAST = settings(max_examples=300, deadline=None, derandomize=True)
BREAK_FOULS = {RuleId.BREAK_FIRST, RuleId.BREAK_LEGAL, RuleId.BREAK_SCRATCH, RuleId.BREAK_JUMP}


@st.composite
def rack_states(draw) -> RackState:
    """Any running rack state the rules allow."""
    phase = draw(st.sampled_from([Phase.BREAK, Phase.PUSH_OUT_ALLOWED, Phase.PUSH_OUT_CHOICE, Phase.NORMAL]))
    shooter = draw(st.sampled_from([0, 1]))
    table = draw(st.sets(st.integers(1, 8))) | {9}
    counts = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
    if phase is Phase.BREAK:
        return RackState(shooter, shooter, table, phase, BallInHand.KITCHEN, counts)
    bih = draw(st.sampled_from([BallInHand.NONE, BallInHand.ANYWHERE])) if phase is Phase.NORMAL else BallInHand.NONE
    return RackState(draw(st.sampled_from([0, 1])), shooter, table, phase, bih, counts)


@st.composite
def event_logs(draw, on_table: frozenset[int]) -> list[ShotEvent]:
    """A time-ordered log that only names balls still on the table; ties in time are common."""
    present = sorted({0, *on_table})
    gone: set[int] = set()
    events = []
    t = 0.0
    for _ in range(draw(st.integers(0, 14))):
        live = [b for b in present if b not in gone]
        if not live:
            break
        t += draw(st.sampled_from([0.0, 0.0, 0.05, 0.1, 0.37]))
        kind = draw(st.sampled_from(list(ShotEventKind)))
        a = draw(st.sampled_from(live))
        if kind is ShotEventKind.BALL_BALL:
            others = [b for b in live if b != a]
            if not others:
                continue
            events.append(ShotEvent(t, kind, a, draw(st.sampled_from(others))))
        else:
            events.append(ShotEvent(t, kind, a, -1, draw(st.integers(-1, 17))))
            if kind in (ShotEventKind.POCKET, ShotEventKind.OFF_TABLE):
                gone.add(a)
    return events


@st.composite
def actions(draw):
    """A rack state, a declaration its phase allows, and an event log for it."""
    rack = draw(rack_states())
    if rack.phase is Phase.PUSH_OUT_CHOICE:
        return rack, draw(st.sampled_from([Declaration.SHOOT, Declaration.PASS_BACK])), []
    options = [Declaration.SHOT, Declaration.PUSH_OUT] if rack.phase is Phase.PUSH_OUT_ALLOWED else [Declaration.SHOT]
    return rack, draw(st.sampled_from(options)), draw(event_logs(rack.on_table))


def assert_consistent(ruling, rack: RackState, declaration: Declaration) -> None:
    after = ruling.after
    # either a winner or a next shooter
    assert (after.winner is None) != (after.shooter is None)
    assert (after.phase is Phase.RACK_OVER) == (after.winner is not None) == (after.ended_by in RACK_ENDINGS)
    # foul counts within 0-3; only the shooter's count moves, by the rule
    assert all(0 <= c <= 3 for c in after.foul_counts)
    me, other = rack.shooter, 1 - rack.shooter
    assert after.foul_counts[other] == rack.foul_counts[other]
    if declaration in (Declaration.SHOOT, Declaration.PASS_BACK):
        assert after.foul_counts == rack.foul_counts and not ruling.fouls
    else:
        assert after.foul_counts[me] == (rack.foul_counts[me] + 1 if ruling.foul else 0)
    assert (3 in after.foul_counts) == (after.ended_by is RuleId.THREE_FOULS)
    # the 9 is never both pocketed and on the table
    nine_down = 9 in ruling.pocketed or 9 in ruling.off_table
    assert ruling.nine_spotted == (nine_down and not after.over)
    assert (9 in after.on_table) == (not nine_down or ruling.nine_spotted)
    if not after.over:
        assert 9 in after.on_table
    # balls leave only by being pocketed or driven off, and only the 9 comes back
    left = set(ruling.pocketed) | set(ruling.off_table)
    assert after.on_table == (rack.on_table - left) | ({9} if ruling.nine_spotted else set())
    # the fouls are rule IDs of the right kind; R-FOUL-JUMP-SHOT never arises
    assert set(ruling.fouls) <= FOUL_IDS and RuleId.FOUL_JUMP_SHOT not in ruling.fouls
    assert len(set(ruling.fouls)) == len(ruling.fouls)
    if rack.phase is not Phase.BREAK:
        assert not set(ruling.fouls) & BREAK_FOULS
    if declaration is Declaration.PUSH_OUT:
        assert not {RuleId.FOUL_WRONG_BALL, RuleId.FOUL_NO_RAIL} & set(ruling.fouls)  # R-PUSH-FREE
        assert after.winner is None or after.ended_by is RuleId.THREE_FOULS  # R-PUSH-POCKETED
    # after a foul: the opponent with ball in hand anywhere (or the rack is lost)
    if ruling.foul and not after.over:
        assert after.shooter == other and after.ball_in_hand is BallInHand.ANYWHERE and after.phase is Phase.NORMAL
    if not ruling.foul and not after.over:
        assert after.ball_in_hand is BallInHand.NONE
    if after.ended_by is RuleId.WIN_9:
        assert after.winner == me and not ruling.foul and 9 in ruling.pocketed
    # no push-out except on the shot right after a legal break
    if after.phase is Phase.PUSH_OUT_ALLOWED:
        assert rack.phase is Phase.BREAK and not ruling.foul


@FAST
@given(actions())
def test_random_logs_give_a_consistent_ruling(action) -> None:
    rack, declaration, events = action
    ruling = decide(rack, events, declaration)
    assert_consistent(ruling, rack, declaration)
    assert decide(rack, events, declaration) == ruling  # pure: same input, same ruling


@FAST
@given(actions(), st.integers(0, 5))
def test_r_no_call_the_pocket_never_matters(action, pocket_id: int) -> None:
    rack, declaration, events = action
    moved = [dataclasses.replace(e, target=pocket_id) if e.kind is ShotEventKind.POCKET else e for e in events]
    a, b = decide(rack, events, declaration), decide(rack, moved, declaration)
    assert (a.fouls, a.cited, a.after, a.nine_spotted) == (b.fouls, b.cited, b.after, b.nine_spotted)


@FAST
@given(st.data())
def test_random_walks_through_a_rack_stay_consistent(data) -> None:
    rack = RackState.start(data.draw(st.sampled_from([0, 1])))
    for _ in range(40):
        if rack.over:
            break
        if data.draw(st.integers(0, 60)) == 0:
            ruling = forfeit(rack, data.draw(st.sampled_from([0, 1])))
            assert ruling.after.ended_by is RuleId.FORFEIT
        elif rack.phase is Phase.PUSH_OUT_CHOICE:
            declaration = data.draw(st.sampled_from([Declaration.SHOOT, Declaration.PASS_BACK]))
            ruling = decide(rack, [], declaration)
            assert_consistent(ruling, rack, declaration)
        else:
            declaration = Declaration.SHOT
            if rack.phase is Phase.PUSH_OUT_ALLOWED and data.draw(st.booleans()):
                declaration = Declaration.PUSH_OUT
            ruling = decide(rack, data.draw(event_logs(rack.on_table)), declaration)
            assert_consistent(ruling, rack, declaration)
        rack = ruling.after


@st.composite
def any_events(draw) -> ShotEvent:
    """A well-formed record about any ball at any time, whatever the table holds."""
    kind = draw(st.sampled_from(list(ShotEventKind)))
    a = draw(st.integers(0, 9))
    b = draw(st.integers(0, 9).filter(lambda b: b != a)) if kind is ShotEventKind.BALL_BALL else -1
    return ShotEvent(draw(st.floats(0.0, 3.0)), kind, a, b, draw(st.integers(-1, 5)))


@FAST
@given(rack_states(), st.lists(any_events(), max_size=10),
       st.sampled_from(list(Declaration)))
def test_any_input_gives_a_ruling_or_a_rules_error(rack, events, declaration) -> None:
    """Arbitrary logs (unsorted, naming balls that are gone) and declarations: a ruling or a clear error."""
    snapshot = repr(rack)
    try:
        ruling = decide(rack, events, declaration)
    except RulesError:
        assert repr(rack) == snapshot
        return
    if declaration is Declaration.FORFEIT:
        assert ruling.after.winner == 1 - rack.shooter
    else:
        assert_consistent(ruling, rack, declaration)
