"""Collision models: stun shot, conservation, energy, Han 2005 cushion against an independent formula."""

import math
from dataclasses import replace

import numpy as np
import pytest
from helpers import P, kinetic_energy, moving_ball_state
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import EventKind
from physics.kernels.resolve import ball_ball, ball_cushion, cue_strike

PA = P.to_array()
speed = st.floats(-3.0, 3.0)
spin = st.floats(-150.0, 150.0)


def test_stun_shot_full_into_ball_stops_cue_ball_and_passes_e_b_speed():
    R = P.R
    gap = 0.01
    state = physics.place_balls({0: (0.635, 1.0), 1: (0.635, 1.0 + 2 * R + gap)})
    result = physics.simulate(state, physics.Shot(V0=1.0, phi=90.0))
    hit_row = [e.kind for e in result.events].index(EventKind.BALL_BALL)
    t_hit = result.events.time[hit_row]
    v0 = result.events.state_a[0][3]
    v_pre = v0 - P.u_s * P.g * t_hit  # still sliding, straight, no side spin
    assert t_hit < 2 * v0 / (7 * P.u_s * P.g)
    assert result.events.state_a[hit_row][3] == pytest.approx((1 - P.e_b) / 2 * v_pre, rel=1e-9)
    assert result.events.state_b[hit_row][3] == pytest.approx((1 + P.e_b) / 2 * v_pre, rel=1e-9)
    assert abs(result.events.state_a[hit_row][2]) < 1e-12 and abs(result.events.state_b[hit_row][2]) < 1e-12
    # the cue ball all but stops: it creeps forward by under 2 cm
    assert abs(result.state.pos[0, 1] - result.events.state_a[hit_row][1]) < 0.02


@settings(max_examples=400, deadline=None)
@given(st.floats(0.0, 2 * math.pi), speed, speed, speed, speed, spin, spin, spin, spin, spin, spin)
def test_ball_ball_conserves_momentum_and_never_adds_energy(angle, vx1, vy1, vx2, vy2, a1, b1, c1, a2, b2, c2):
    R = P.R
    x2, y2 = 2 * R * math.cos(angle), 2 * R * math.sin(angle)
    out = ball_ball(0.0, 0.0, vx1, vy1, a1, b1, c1, x2, y2, vx2, vy2, a2, b2, c2, P.e_b, PA)
    before_v = np.array([[vx1, vy1], [vx2, vy2]])
    after_v = np.array([[out[0], out[1]], [out[5], out[6]]])
    assert np.allclose(before_v.sum(0), after_v.sum(0), atol=1e-12)
    e0 = kinetic_energy(before_v, np.array([[a1, b1, c1], [a2, b2, c2]]))
    e1 = kinetic_energy(after_v, np.array([out[2:5], out[7:10]]))
    assert e1 <= e0 * (1 + 1e-12) + 1e-15
    # with the vertical part of the friction impulse kept on both balls (as if neither touched the cloth): still none
    e3 = e1 + 0.5 * P.m * (out[10] ** 2 + out[11] ** 2)
    assert e3 <= e0 * (1 + 1e-12) + 1e-15
    assert out[10] == -out[11]  # equal and opposite
    # separating (or unchanged if they were not approaching)
    n = np.array([x2, y2]) / (2 * R)
    assert (after_v[0] - after_v[1]) @ n <= 1e-12


def _han_reference(v, w, n, params):
    """Independent vector form of the Han 2005 cushion impulse with Coulomb friction (numpy, 3-D)."""
    R, m = params.R, params.m
    inertia = 0.4 * m * R * R
    sin_t = (params.cushion_height - R) / R
    N = np.array([-n[0] * math.sqrt(1 - sin_t**2), -n[1] * math.sqrt(1 - sin_t**2), sin_t])
    v3 = np.array([v[0], v[1], 0.0])
    c = v3 @ N
    PN = (1 + params.e_c) * m * c
    s = v3 + np.cross(w, R * N)
    s_t = s - (s @ N) * N
    slip = np.linalg.norm(s_t)
    Pt = -min(params.f_c * PN, 2 * m * slip / 7) * s_t / slip if slip > 0 else np.zeros(3)
    P_total = -PN * N + Pt
    return (v3 + P_total / m)[:2], w + np.cross(R * N, P_total) / inertia


@pytest.mark.parametrize("angle_deg", [0.0, 15.0, 30.0, 45.0, 60.0, 75.0])
def test_rolling_ball_into_cushion_matches_han_2005(angle_deg):
    # A rolling ball hits the head-end long rail... here the foot rail (normal −y), at angle_deg from the normal.
    v = 1.2
    a = math.radians(angle_deg)
    state = moving_ball_state(0.2, 2.4, v * math.sin(a), v * math.cos(a), rolling=True)
    han = replace(P, cushion_model="han2005")
    result = physics.simulate(state, None, params=han)
    row = [e.kind for e in result.events].index(EventKind.BALL_CUSHION)
    t = result.events.time[row]
    speed_pre = v - P.u_r * P.g * t
    v_pre = speed_pre * np.array([math.sin(a), math.cos(a)])
    w_pre = np.array([-v_pre[1] / P.R, v_pre[0] / P.R, 0.0])
    v_ref, w_ref = _han_reference(v_pre, w_pre, (0.0, -1.0), han)
    got = result.events.state_a[row]
    assert np.allclose(got[2:4], v_ref, rtol=1e-9, atol=1e-12)
    assert np.allclose(got[4:7], w_ref, rtol=1e-9, atol=1e-9)
    assert got[1] == pytest.approx(physics.DEFAULT_TABLE.length - P.R, abs=1e-12)
    # rebound angle: the ball leaves the cushion
    assert got[3] < 0


@settings(max_examples=300, deadline=None)
@given(st.floats(0.05, 4.0), st.floats(-1.5, 1.5), spin, spin, spin)
def test_cushion_never_adds_energy_and_sends_ball_away(vn, vt, wx, wy, wz):
    vx, vy = vt, -vn  # into a cushion whose inward normal is +y... mirrored: n = (0, 1)
    out = ball_cushion(vx, vy, wx, wy, wz, 0.0, 1.0, PA)
    e0 = kinetic_energy(np.array([vx, vy]), np.array([wx, wy, wz]))
    e1 = kinetic_energy(np.array(out[:2]), np.array(out[2:]))
    assert e1 <= e0 * (1 + 1e-12)
    assert out[1] > 0


def test_cue_strike_centre_ball_has_no_spin_and_momentum_formula():
    vx, vy, _, wx, wy, wz = cue_strike(2.0, math.radians(30.0), 0.0, 0.0, 0.0, PA)
    speed = 2 * P.m * 2.0 / (1 + P.m / P.cue_mass) / P.m
    assert math.hypot(vx, vy) == pytest.approx(speed, rel=1e-12)
    assert math.degrees(math.atan2(vy, vx)) == pytest.approx(30.0, abs=1e-9)
    assert (wx, wy, wz) == (0.0, 0.0, 0.0) or max(abs(wx), abs(wy), abs(wz)) < 1e-9


def test_cue_strike_follow_draw_and_english_signs():
    # aim along +x: follow spins forward (ωy > 0), draw backward, right english ω_z > 0 and squirts left (+y)
    _, _, _, _, wy_follow, _ = cue_strike(2.0, 0.0, 0.0, 0.0, 0.5, PA)
    _, _, _, _, wy_draw, _ = cue_strike(2.0, 0.0, 0.0, 0.0, -0.5, PA)
    vx, vy, _, _, _, wz = cue_strike(2.0, 0.0, 0.0, 0.5, 0.0, PA)
    assert wy_follow > 0 > wy_draw
    assert wz > 0 and vy > 0
    squirt = math.degrees(math.atan2(vy, vx))
    assert 0.5 < squirt < 5.0  # Alciatore: a few degrees at half-tip english


def test_rolling_follow_shot_continues_forward_after_full_hit():
    R = P.R
    state = moving_ball_state(0.635, 0.8, 0.0, 1.0, rolling=True, others={1: (0.635, 1.0)})
    result = physics.simulate(state, None)
    assert result.state.pos[0, 1] > 1.0 - 2 * R + 0.05  # cue ball follows through
