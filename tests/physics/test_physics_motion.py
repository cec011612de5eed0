"""Closed-form motion between events against analytic results (Leckie & Greenspan 2005)."""

import math

import numpy as np
import pytest
from helpers import P, moving_ball_state

import physics
from physics import EventKind


def _single(events, kind):
    found = events.of_kind(kind)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("v0", [0.3, 0.5, 0.7])
def test_stun_ball_slides_then_rolls_at_analytic_time_and_distance(v0):
    # A ball sliding with no spin rolls after t = 2 v0 / (7 µs g), having covered 12 v0² / (49 µs g).
    state = moving_ball_state(0.635, 0.4, 0.0, v0)
    result = physics.simulate(state, None)
    roll = _single(result.events, EventKind.SLIDING_ROLLING)
    assert roll.time == pytest.approx(2 * v0 / (7 * P.u_s * P.g), rel=1e-12)
    i = [e.kind for e in result.events].index(EventKind.SLIDING_ROLLING)
    y_at_roll = result.events.state_a[i][1]
    assert y_at_roll - 0.4 == pytest.approx(12 * v0**2 / (49 * P.u_s * P.g), rel=1e-12)
    # then it rolls at 5/7 v0 and stops after v²/(2 µr g)
    v_roll = 5 / 7 * v0
    stop = _single(result.events, EventKind.ROLLING_STATIONARY)
    assert stop.time - roll.time == pytest.approx(v_roll / (P.u_r * P.g), rel=1e-12)
    assert result.state.pos[0, 1] - y_at_roll == pytest.approx(v_roll**2 / (2 * P.u_r * P.g), rel=1e-12)
    assert result.state.pos[0, 0] == pytest.approx(0.635, abs=1e-15)


@pytest.mark.parametrize("v", [0.2, 0.35, 0.5])
def test_rolling_ball_stops_after_v2_over_2_mu_r_g(v):
    state = moving_ball_state(0.3, 0.3, v / math.sqrt(2), v / math.sqrt(2), rolling=True)
    result = physics.simulate(state, None)
    kinds = [e.kind for e in result.events]
    assert kinds == [EventKind.ROLLING_STATIONARY]
    travelled = np.hypot(*(result.state.pos[0] - (0.3, 0.3)))
    assert travelled == pytest.approx(v**2 / (2 * P.u_r * P.g), rel=1e-12)
    assert result.events.time[0] == pytest.approx(v / (P.u_r * P.g), rel=1e-12)


def test_spinning_ball_stops_after_analytic_time():
    wz = 20.0
    state = physics.place_balls({0: (0.5, 0.5)})
    state.spin[0] = (0.0, 0.0, wz)
    result = physics.simulate(state, None)
    (event,) = list(result.events)
    assert event.kind == EventKind.SPINNING_STATIONARY
    assert event.time == pytest.approx(wz * 2 * P.R / (5 * P.u_sp * P.g), rel=1e-12)
    assert np.array_equal(result.state.pos[0], [0.5, 0.5])


def test_draw_shot_reverses_before_rolling():
    # Backspin larger than the rolling spin makes the ball slide, stop and come back.
    v0 = 1.0
    state = moving_ball_state(0.635, 1.0, 0.0, v0, spin=(3.0 * v0 / P.R, 0.0, 0.0))  # R·ωx > 2.5 v0 reverses
    result = physics.simulate(state, None)
    roll = result.events.of_kind(EventKind.SLIDING_ROLLING)[0]
    i = [e.time for e in result.events].index(roll.time)
    assert result.events.state_a[i][3] < 0  # rolling back toward the head


def test_massé_curves_the_path():
    # Sideways slip makes the sliding path a parabola: the ball ends away from its launch line.
    state = moving_ball_state(0.635, 0.5, 0.0, 1.0, spin=(0.0, 30.0, 0.0))
    result = physics.simulate(state, None)
    roll_idx = [e.kind for e in result.events].index(EventKind.SLIDING_ROLLING)
    x_at_roll = result.events.state_a[roll_idx][0]
    assert abs(x_at_roll - 0.635) > 0.01
