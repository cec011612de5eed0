"""Balls in the air: analytic flight, the bounce series, energy, jumping a ball, leaving the table."""

from __future__ import annotations

import math

import numpy as np
import pytest

import physics
from physics import EventKind as K
from physics import Motion
from physics.api import params_array, shot_array
from physics.kernels.resolve import cue_strike

P = physics.DEFAULT_PARAMS
R, G = P.R, P.g


def _lone_cue(theta: float, V0: float = 3.0, a: float = 0.0, b: float = 0.0, phi: float = 90.0):
    state = physics.place_balls({0: (0.635, 0.6)})
    return physics.simulate(state, physics.Shot(V0=V0, phi=phi, theta=theta, a=a, b=b))


def test_flight_and_bounce_series_are_analytic() -> None:
    theta, V0 = 70.0, 3.0
    r = _lone_cue(theta, V0)
    ev = r.events
    assert ev[1].kind == K.BALL_AIRBORNE and ev.state_a[1, 7] == Motion.AIRBORNE
    _, _, vz_strike, _, _, _ = cue_strike(*shot_array(physics.Shot(V0, 90.0, theta)), params_array(P))
    vz0 = ev.air_a[1, 1]
    assert vz_strike < 0 and vz0 == pytest.approx(-P.e_strike * vz_strike, rel=1e-12)  # into the slate, bounced
    landings = [i for i in range(len(ev)) if ev[i].kind == K.BALL_LANDING]
    # the bounce series: each flight lasts 2 vz/g, each rebound is e_table times the landing speed
    t, vz = 0.0, vz0
    for i in landings:
        t += 2.0 * vz / G
        assert ev.time[i] == pytest.approx(t, rel=1e-12, abs=1e-12)
        vz = P.e_table * vz
        if vz * vz > 2.0 * G * P.min_bounce_height:
            assert ev.air_a[i, 1] == pytest.approx(vz, rel=1e-12) and ev.state_a[i, 7] == Motion.AIRBORNE
        else:
            assert ev.air_a[i, 1] == 0.0 and ev.state_a[i, 7] != Motion.AIRBORNE
            break
    else:
        pytest.fail("the ball never settled")
    # the total time of the series: 2 vz0/g · Σ e^k over the bounces that rise at least min_bounce_height
    n = len(landings)
    assert ev.time[landings[-1]] == pytest.approx(2.0 * vz0 / G * sum(P.e_table ** k for k in range(n)), rel=1e-12)
    # apex v_z²/2g: the height at half the first flight, from the closed form
    apex_t = vz0 / G
    assert vz0 * apex_t - 0.5 * G * apex_t ** 2 == pytest.approx(vz0 ** 2 / (2 * G), rel=1e-12)
    # horizontal flight is straight and uniform
    x0, y0 = ev.state_a[1, 0:2]
    vx, vy = ev.state_a[1, 2:4]
    assert ev.state_a[landings[0], 1] == pytest.approx(y0 + vy * 2 * vz0 / G, rel=1e-12)
    assert ev.state_a[landings[0], 0] == pytest.approx(x0 + vx * 2 * vz0 / G, abs=1e-12)


def _energy(row: np.ndarray, air: np.ndarray) -> float:
    v2 = row[2] ** 2 + row[3] ** 2 + air[1] ** 2
    w2 = row[4] ** 2 + row[5] ** 2 + row[6] ** 2
    return 0.5 * P.m * v2 + 0.5 * P.inertia * w2 + P.m * G * air[0]


def test_energy_never_rises_in_the_air_or_on_the_bounces() -> None:
    rng = np.random.default_rng(7)
    for _ in range(60):
        a, b = rng.uniform(-0.5, 0.5, 2)
        r = _lone_cue(float(rng.uniform(20, 85)), float(rng.uniform(0.5, 10)), float(a), float(b),
                      float(rng.uniform(0, 360)))
        ev = r.events
        energies = [_energy(ev.state_a[i], ev.air_a[i]) for i in range(len(ev)) if ev.state_a[i, 7] != Motion.OFF_TABLE]
        assert np.all(np.diff(energies) <= 1e-9 * (1 + energies[0])), energies


def test_a_jump_shot_clears_the_blocking_ball_and_hits_the_one_behind() -> None:
    """The calibration's case (flight.py): a 45° centre-ball jump (b = sin 45°: the cue axis through the centre)
    at a jump stroke clears a ball 30 cm away ("45 degrees to jump a ball about twelve inches away")."""
    state = physics.place_balls({0: (0.6, 0.5), 1: (0.6, 0.8), 2: (0.6, 1.3)})
    flat = physics.simulate(state, physics.Shot(V0=4.5, phi=90.0))
    jump = physics.simulate(state, physics.Shot(V0=4.5, phi=90.0, theta=45.0, b=0.707))
    first = lambda r: next((e.ball_a, e.ball_b) for e in r.events if e.kind == K.BALL_BALL)  # noqa: E731
    assert first(flat) == (0, 1)
    assert first(jump) == (0, 2)
    hit = next(i for i in range(len(jump.events)) if jump.events[i].kind == K.BALL_BALL)
    # the cue ball is in the air when it meets ball 2: the contact is in 3-D at distance 2R
    za = R + jump.events.air_a[hit, 0]
    zb = R + jump.events.air_b[hit, 0]
    d = np.hypot(*(jump.events.state_a[hit, 0:2] - jump.events.state_b[hit, 0:2]))
    assert jump.events.state_a[hit, 7] == Motion.AIRBORNE or jump.events.air_a[hit, 1] != 0.0
    assert math.hypot(d, za - zb) == pytest.approx(2 * R, abs=1e-9)


def test_a_hard_elevated_shot_into_a_cushion_leaves_the_table() -> None:
    r = physics.simulate(physics.place_balls({0: (0.6, 1.0)}), physics.Shot(V0=8.0, phi=0.0, theta=45.0, b=0.707))
    off = r.events.of_kind(K.BALL_OFF_TABLE)
    assert len(off) == 1 and off[0].ball_a == 0 and off[0].target >= 0
    assert r.state.motion[0] == Motion.OFF_TABLE and not r.unresolved
    # it clears the right cushion (x = width) and leaves the table over the rail's outer edge (or onto the rail:
    # tests/physics/test_physics_airborne_cushions.py)
    i = [e.kind for e in r.events].index(K.BALL_OFF_TABLE)
    spec = physics.DEFAULT_TABLE.spec
    assert r.events.state_a[i, 0] == pytest.approx(spec.width + spec.rail_width, abs=1e-9)
    assert r.events.air_a[i - 0, 0] == 0.0  # logged after it left (vertical state cleared)


def _random_layout(rng: np.random.Generator, k: int) -> physics.BallState:
    table = physics.DEFAULT_TABLE
    pts: list[tuple[float, float]] = []
    while len(pts) < k:
        p = (rng.uniform(R, table.width - R), rng.uniform(R, table.length - R))
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > (2.01 * R) ** 2 for q in pts):
            pts.append(p)
    return physics.place_balls(dict(zip(range(k), pts)))


@pytest.mark.parametrize("seed", range(3))
def test_random_elevated_shots_stay_sound(seed: int) -> None:
    """No NaN, no overlap at any ball–ball contact (3-D distance 2R), a legal final layout, every ball at rest."""
    rng = np.random.default_rng(seed)
    for _ in range(40):
        state = _random_layout(rng, int(rng.integers(2, 10)))
        a, b = rng.uniform(-0.6, 0.6, 2)
        shot = physics.Shot(V0=float(rng.uniform(0.5, 12.0)), phi=float(rng.uniform(0, 360)),
                            theta=float(rng.choice([rng.uniform(0, 89), rng.uniform(40, 75)])), a=float(a), b=float(b))
        r = physics.simulate(state, shot)
        assert np.all(np.isfinite(r.events.rows))
        assert not r.hit_event_cap and not r.hit_time_cap and not r.unresolved
        assert set(r.state.motion.tolist()) <= {Motion.STATIONARY, Motion.POCKETED, Motion.OFF_TABLE}
        physics.validate_state(r.state, physics.DEFAULT_TABLE, P)
        ev = r.events
        for i in np.flatnonzero(ev.kind == K.BALL_BALL):
            d = np.hypot(*(ev.state_a[i, 0:2] - ev.state_b[i, 0:2]))
            assert math.hypot(d, ev.air_a[i, 0] - ev.air_b[i, 0]) == pytest.approx(2 * R, abs=1e-8)
