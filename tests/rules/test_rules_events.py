"""The event record and its conversion from physics rows; the summary of an event log."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball_env.rules import (
    InvalidEventLog,
    ShotEvent,
    ShotEventKind,
    from_rows,
    hit,
    off,
    pocket,
    rail,
    summarize,
)


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


def test_from_rows_uses_the_physics_codes_and_drops_motion_events() -> None:
    rows = [
        (0.0, 0, 0, -1, -1),  # STICK_BALL
        (0.01, 5, 0, -1, -1),  # SLIDING_ROLLING
        (0.1, 1, 0, 1, -1),  # BALL_BALL
        (0.2, 2, 1, -1, 3),  # BALL_CUSHION
        (0.3, 3, 1, -1, 8),  # BALL_JAW: a cushion for the rules
        (0.4, 4, 1, -1, 5),  # BALL_POCKET
        (0.5, 6, 0, -1, -1), (0.6, 7, 0, -1, -1), (0.7, 8, 0, -1, -1),
        (0.8, 9, 0, -1, -1),  # BALL_OFF_TABLE
    ]
    assert from_rows(rows) == (hit(0, 1, .1), rail(1, .2, 3), rail(1, .3, 8), pocket(1, 5, .4), off(0, .8))


def test_from_rows_accepts_a_named_tuple_log_and_numpy_rows() -> None:
    from collections import namedtuple
    from enum import IntEnum

    class Kind(IntEnum):  # stands in for physics.EventKind
        BALL_BALL = 1
        BALL_POCKET = 4

    Event = namedtuple("Event", "time kind ball_a ball_b target")
    log = [Event(0.1, Kind.BALL_BALL, 0, 2, -1), Event(0.2, Kind.BALL_POCKET, 2, -1, 1)]
    assert from_rows(log) == (hit(0, 2, .1), pocket(2, 1, .2))
    array = np.array([[0.1, 1, 0, 2, -1], [0.2, 4, 2, -1, 1]])
    assert from_rows(array) == (hit(0, 2, .1), pocket(2, 1, .2))


@pytest.mark.parametrize("rows", [[(0.1, 42, 0, 1, -1)], [(0.1, 1, 0)], [(0.1, 1, 0, 0, -1)], [None]],
                         ids=["unknown-code", "short-row", "self-hit", "not-a-row"])
def test_from_rows_rejects_bad_rows_with_their_index(rows) -> None:
    with pytest.raises(InvalidEventLog, match="row 0"):
        from_rows(rows)


def test_summary_reads_the_rulebook_facts() -> None:
    s = summarize([rail(0, .05), hit(0, 3, .1), hit(0, 4, .1), hit(3, 5, .2), rail(5, .3), rail(5, .35),
                   rail(0, .4), pocket(4, 2, .5), rail(6, .55), off(6, .6), pocket(0, 1, .9)], range(3, 10))
    assert s.first_contact == {3, 4} and s.first_contact_time == 0.1
    assert s.cushioned_after_contact == {0, 5, 6}
    assert s.pocketed == (4, 0) and s.off_table == (6,)


def test_summary_of_an_empty_log() -> None:
    s = summarize([], range(1, 10))
    assert not s.first_contact and s.first_contact_time is None and not s.cushioned_after_contact
    assert s.pocketed == () and s.off_table == ()


def test_summary_cushions_at_the_instant_of_first_contact_count() -> None:
    s = summarize([rail(2, .1), hit(0, 1, .1)], range(1, 10))
    assert s.cushioned_after_contact == {2}


def test_summary_a_later_cue_contact_is_not_a_first_contact() -> None:
    s = summarize([hit(0, 2, .1), hit(0, 1, .1 + 1e-6)], range(1, 10))
    assert s.first_contact == {2}
