"""The event record; the facts the rules read off an event log (hand-written or physics rows)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball_env.rules import (
    BallInHand,
    InvalidEventLog,
    Phase,
    RackState,
    ShotEvent,
    ShotEventKind,
    decide,
    decide_log,
    hit,
    off,
    pocket,
    rail,
)
from nineball_env.rules.facts import BALL_SETS, ShotFacts, event_rows


def test_helpers_build_each_kind() -> None:
    assert hit(0, 1, 0.1) == ShotEvent(0.1, ShotEventKind.BALL_BALL, 0, 1)
    assert rail(3, 0.2, cushion=7) == ShotEvent(0.2, ShotEventKind.CUSHION, 3, -1, 7)
    assert pocket(9, 5, 0.3) == ShotEvent(0.3, ShotEventKind.POCKET, 9, -1, 5)
    assert off(0, 0.4) == ShotEvent(0.4, ShotEventKind.OFF_TABLE, 0)
    assert [str(e) for e in (hit(0, 1, .1), rail(3, .2), pocket(9, 5, .3), off(0, .4))] == [
        "hit 0 1 @0.1", "rail 3 @0.2", "pocket 9 p5 @0.3", "off 0 @0.4"]


def test_shot_event_normalises_numpy_values_and_is_frozen() -> None:
    event = ShotEvent(np.float64(0.5), np.int64(1), np.int64(0), np.int32(4), np.int64(-1))
    assert event == hit(0, 4, 0.5)
    assert type(event.time) is float and type(event.ball_b) is int and event.kind is ShotEventKind.BALL_BALL
    with pytest.raises(AttributeError):
        event.time = 1.0  # type: ignore[misc]


@pytest.mark.parametrize("args", [
    (math.nan, 1, 0, 1), (-0.1, 1, 0, 1), (0.1, 3, 0), (0.1, 1, 0, 0), (0.1, 1, 0, 10), (0.1, 2, 10),
    (0.1, 2, 1.5), (0.1, 2, True), (0.1, 2, 1, 3), ("soon", 1, 0, 1), (0.1, 1, 0),
], ids=["nan-time", "negative-time", "unknown-kind", "ball-hits-itself", "ball-10", "cushion-ball-10",
        "float-ball", "bool-ball", "ball_b-on-cushion", "text-time", "ball-ball-without-ball_b"])
def test_shot_event_rejects_nonsense(args) -> None:
    with pytest.raises(InvalidEventLog):
        ShotEvent(*args)


def test_physics_rows_are_read_with_the_physics_codes_and_motion_events_ignored() -> None:
    rows = np.array([
        (0.0, 0, 0, -1, -1),  # STICK_BALL
        (0.01, 5, 0, -1, -1),  # SLIDING_ROLLING
        (0.1, 1, 0, 1, -1),  # BALL_BALL
        (0.2, 2, 1, -1, 3),  # BALL_CUSHION
        (0.3, 3, 2, -1, 8),  # BALL_JAW: a cushion for the rules
        (0.4, 4, 1, -1, 5),  # BALL_POCKET
        (0.5, 6, 0, -1, -1), (0.6, 7, 0, -1, -1), (0.7, 8, 0, -1, -1),
        (0.8, 9, 3, -1, -1),  # BALL_OFF_TABLE
    ], dtype=np.float64)
    state = RackState(0, 0, frozenset({1, 2, 3, 9}), Phase.NORMAL, BallInHand.NONE)
    events = (hit(0, 1, .1), rail(1, .2, 3), rail(2, .3, 8), pocket(1, 5, .4), off(3, .8))
    assert decide_log(state, rows) == decide(state, events)
    assert _facts(rows) == _facts(event_rows(events, range(1, 10)))


def _facts(rows: np.ndarray) -> tuple:
    """The facts of one log: (first contact, its time or None, cushioned after it, pocketed, off the table)."""
    f = ShotFacts(1)
    f.read(rows[None], np.array([len(rows)]), np.zeros(1, dtype=np.int64))
    t = float(f.first_time[0])
    return (BALL_SETS[int(f.first_bits[0])], None if t < 0.0 else t, BALL_SETS[int(f.cushion_bits[0])],
            tuple(f.pocketed[0, :f.n_pocketed[0]].tolist()), tuple(f.off[0, :f.n_off[0]].tolist()))


def _summarize(events, on_table) -> tuple:
    return _facts(event_rows(events, on_table))


def test_facts_read_the_rulebook_terms() -> None:
    first, t, cushioned, pocketed, off_table = _summarize(
        [rail(0, .05), hit(0, 3, .1), hit(0, 4, .1), hit(3, 5, .2), rail(5, .3), rail(5, .35), rail(0, .4),
         pocket(4, 2, .5), rail(6, .55), off(6, .6), pocket(0, 1, .9)], range(3, 10))
    assert first == {3, 4} and t == 0.1
    assert cushioned == {0, 5, 6}
    assert pocketed == (4, 0) and off_table == (6,)


def test_facts_of_an_empty_log() -> None:
    assert _summarize([], range(1, 10)) == (frozenset(), None, frozenset(), (), ())


def test_facts_cushions_at_the_instant_of_first_contact_count() -> None:
    assert _summarize([rail(2, .1), hit(0, 1, .1)], range(1, 10))[2] == {2}


def test_facts_a_later_cue_contact_is_not_a_first_contact() -> None:
    assert _summarize([hit(0, 2, .1), hit(0, 1, .1 + 1e-6)], range(1, 10))[0] == {2}
