"""The flat action: layout, the [-1, 1] ↔ physical mapping and its round trips, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from nineball_env import actions
from nineball_env.actions import A, N_ACTION
from nineball_env.game import Game, GameConfig
from nineball_env.rules import Declaration

TABLE, P = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS
S = actions.DEFAULT_SCALE
unit = st.floats(-1.0, 1.0, allow_nan=False, width=32)


def test_layout_names_every_component_once():
    assert N_ACTION == 9
    assert [a.name for a in A] == ["AIM", "SPEED", "SIDE", "VERTICAL", "ELEVATION", "PLACE_X", "PLACE_Y",
                                   "PUSH_OUT", "PASS_BACK"]


def test_extremes_map_to_the_documented_ranges():
    lo, hi = -np.ones(N_ACTION), np.ones(N_ACTION)
    s_lo, s_hi = actions.action_to_shot(lo), actions.action_to_shot(hi)
    assert (s_lo.phi, s_hi.phi) == (-180.0, 180.0)
    assert (s_lo.V0, s_hi.V0) == (S.v_min, S.v_max)
    assert (s_lo.a, s_hi.a, s_lo.b, s_hi.b) == (-S.tip_max, S.tip_max, -S.tip_max, S.tip_max)
    assert (s_lo.theta, s_hi.theta) == (0.0, S.theta_max)
    assert actions.action_to_placement(lo, "kitchen") == (P.R, P.R)
    assert actions.action_to_placement(hi, "kitchen") == (TABLE.width - P.R, TABLE.head_string_y)
    assert actions.action_to_placement(hi, "anywhere") == (TABLE.width - P.R, TABLE.length - P.R)


@settings(max_examples=200, deadline=None)
@given(st.lists(unit, min_size=N_ACTION, max_size=N_ACTION), st.sampled_from(["kitchen", "anywhere"]))
def test_action_to_shot_to_action_round_trip(values, bih):
    u = np.array(values, dtype=np.float32)
    u[A.PUSH_OUT] = 1.0 if u[A.PUSH_OUT] > 0 else -1.0
    u[A.PASS_BACK] = 1.0 if u[A.PASS_BACK] > 0 else -1.0
    if u[A.AIM] == -1.0:  # -180° and 180° are one direction; the encoder picks +180
        u[A.AIM] = 1.0
    back = actions.shot_to_action(actions.action_to_shot(u.astype(np.float64)),
                                  placement=actions.action_to_placement(u, bih), ball_in_hand=bih,
                                  push_out=bool(u[A.PUSH_OUT] > 0), pass_back=bool(u[A.PASS_BACK] > 0))
    np.testing.assert_allclose(back, u, atol=2e-6)


@settings(max_examples=200, deadline=None)
@given(st.floats(-720, 720), st.floats(0.5, 10.0), st.floats(0.0, 30.0), st.floats(-0.5, 0.5), st.floats(-0.5, 0.5))
def test_readable_shot_round_trip(phi, V0, theta, a, b):
    shot = physics.Shot(V0=V0, phi=phi, theta=theta, a=a, b=b)
    back = actions.action_to_shot(actions.shot_to_action(shot).astype(np.float64))
    assert math.isclose(math.cos(math.radians(back.phi - phi)), 1.0, abs_tol=1e-9)
    assert back.V0 == pytest.approx(V0, abs=1e-5)
    assert back.theta == pytest.approx(theta, abs=1e-5)
    assert (back.a, back.b) == pytest.approx((a, b), abs=1e-6)


def test_placement_round_trip_in_metres():
    for bih, xy in (("kitchen", (0.3, 0.5)), ("anywhere", (1.0, 2.2))):
        u = actions.shot_to_action(physics.Shot(V0=1, phi=0), placement=xy, ball_in_hand=bih)
        assert actions.action_to_placement(u, bih) == pytest.approx(xy, abs=1e-6)


def test_values_outside_the_ranges_are_clipped():
    u = actions.shot_to_action(physics.Shot(V0=12.0, phi=0.0, theta=80.0))  # the elevation range is 0–70°
    assert u[A.SPEED] == 1.0 and u[A.ELEVATION] == 1.0
    assert actions.shot_to_action(physics.Shot(V0=2.0, phi=0.0, theta=60.0), scale=actions.LEGACY_SCALE)[A.ELEVATION] == 1.0


def test_a_break_ignores_the_push_out_and_pass_back_flags_and_reads_the_kitchen_placement():
    u = np.ones(N_ACTION)  # every flag set: the break reads the strike and the kitchen placement only (R-PUSH-WHO)
    outcome = Game(GameConfig(), np.random.default_rng(0)).play(0, u)
    assert outcome.declaration is Declaration.SHOT
    assert outcome.placement == actions.action_to_placement(u, "kitchen") == (TABLE.width - P.R, TABLE.head_string_y)
    assert not outcome.placement_adjusted


@pytest.mark.parametrize("bad, words", [
    (np.zeros(8), "shape"),
    (np.zeros((3, 3)), "shape"),
    ([0, 0, 0, float("nan"), 0, 0, 0, 0, 0], "VERTICAL"),
    ([0, float("inf"), 0, 0, 0, 0, 0, 0, 0], "SPEED"),
    ([0, 0, 0, 0, 0, 1.5, 0, 0, 0], "PLACE_X"),
])
def test_check_action_names_the_problem(bad, words):
    with pytest.raises(ValueError, match=words):
        actions.check_action(bad)


def test_check_action_accepts_the_bounds_and_any_float_dtype():
    assert actions.check_action(np.ones(N_ACTION, dtype=np.float32)).dtype == np.float64
    assert actions.check_action([-1.0] * N_ACTION).shape == (N_ACTION,)


def test_action_scale_validates():
    with pytest.raises(ValueError, match="v_min"):
        actions.ActionScale(v_min=5.0, v_max=4.0)
    with pytest.raises(ValueError, match="tip_max"):
        actions.ActionScale(tip_max=0.8)
    with pytest.raises(ValueError, match="theta_max"):
        actions.ActionScale(theta_max=95.0)
