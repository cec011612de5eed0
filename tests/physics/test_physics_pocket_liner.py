"""Airborne balls in a pocket's hole: the liner (the hole's wall through the rail behind the mouth), its top edge at
the rail's height, and the rail around the pocket.

The oracle is independent of the kernels: the liner circle is rebuilt here from the facings (the intersection of
their normals through their back ends), the solid is the rail behind the circle's arc between the two tangent points
(away from the table) from the cloth up to the nose height, and the 3-D distance from every airborne centre to it is
sampled densely along the closed-form flights of the event log; contact times are checked against a brute-force
(sampling and bisection) solve of the same distance.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import physics
from physics import EventKind as K
from physics import Motion
from physics.kernels.flight import AIR_CLEAR, AIR_FACE, AIR_NOSE, air_cushion_time, air_liner_time
from physics.table import L_M1X, L_M1Y, L_M2X, L_M2Y, L_R, L_X, L_Y, LINER_STRIDE, RAIL_LINERS
from helpers import airborne_stretches, rubber_gap, sampled_first_contact, segment_gap

P = physics.DEFAULT_PARAMS
TABLE = physics.DEFAULT_TABLE
R, G, M = P.R, P.g, P.m
ZR = P.cushion_height  # the liner's top edge: the nose height, continuing the facings' nose edges
RAIL_TOP = TABLE.spec.rail_height
INERTIA = 0.4 * M * R * R


def _oracle_liner(k: int):
    """Pocket k's liner from the facings alone: (centre, radius, the two tangent points, outward axis)."""
    px, py = TABLE.pockets[k, :2]
    facings = [s for s in TABLE.segments[6:] if math.hypot(s[2] - px, s[3] - py) < 0.1]
    assert len(facings) == 2
    (e1, n1), (e2, n2) = ((f[2:4], f[4:6]) for f in facings)
    # e1 + r1 n1 = e2 + r2 n2: the two normals through the back ends meet at the centre
    r1, r2 = np.linalg.solve(np.column_stack([n1, -n2]), e2 - e1)
    centre = e1 + r1 * n1
    axis = np.array([px, py]) - (TABLE.width / 2, TABLE.length / 2)
    axis = np.where(np.abs(axis) < 1e-9, 0.0, np.sign(axis))
    return centre, r1, r2, (e1, e2), axis / np.linalg.norm(axis)


LINERS = [_oracle_liner(k) for k in range(6)]


def _in_arc(k: int, x: float, y: float) -> bool:
    """Whether the plan direction of (x, y) from liner k's centre lies on its arc (away from the table)."""
    c, r, _, (e1, e2), axis = LINERS[k]
    u = np.array([x, y]) - c
    rho = float(np.hypot(*u))
    if rho == 0.0:
        return True
    limit = float(np.dot(e1 - c, axis)) / r  # cos of the half-angle: the tangent points bound the arc
    return float(np.dot(u, axis)) / rho >= limit - 1e-12


def _liner_gap(k: int, x: float, y: float, zc: float) -> float:
    """3-D distance from a ball centre to liner k's solid (the rail behind the arc, cloth to rail top) minus R."""
    if not _in_arc(k, x, y):
        return math.inf
    c, r, *_ = LINERS[k]
    rho = math.hypot(x - c[0], y - c[1])
    if rho >= r:  # over (or in) the rail beside the hole: the rail's top
        return (zc - ZR) - R if zc > ZR else -(rho - r) - R
    if zc <= ZR:
        return (r - rho) - R
    return math.hypot(r - rho, zc - ZR) - R



def _kernel_row(k: int) -> np.ndarray:
    o = RAIL_LINERS + k * LINER_STRIDE
    return TABLE.rail[o:o + LINER_STRIDE]


def _liner_time(k, x, y, zc, vx, vy, vz, T):
    row = _kernel_row(k)
    return air_liner_time(x, y, zc, vx, vy, vz, G, row[L_X], row[L_Y], row[L_R], row[L_M1X], row[L_M1Y], row[L_M2X],
                          row[L_M2Y], R, ZR, T)


# ---------------------------------------------------------------------------------------------------- geometry


@pytest.mark.parametrize("k", range(6))
def test_the_liner_is_tangent_to_both_facings_at_their_back_ends(k: int) -> None:
    c, r1, r2, (e1, e2), axis = LINERS[k]
    assert r1 == pytest.approx(r2, abs=1e-12)  # one circle tangent to both
    row = TABLE.liners[k]
    assert row[L_X:L_Y + 1] == pytest.approx(c, abs=1e-12) and row[L_R] == pytest.approx(r1, abs=1e-12)
    assert np.array_equal(_kernel_row(k), row)  # the kernels read the same numbers
    # a ball fits, and a ball's centre anywhere behind the throat is over the capture circle (it drops when it lands)
    assert r1 > R
    px, py, rp = TABLE.pockets[k]
    assert math.hypot(c[0] - px, c[1] - py) + (r1 - R) < rp
    # the arc: the tangent points are its ends, the back of the pocket (along the outward axis) its middle
    assert _in_arc(k, *(c + r1 * axis)) and not _in_arc(k, *(c - r1 * axis))
    # WPA 9-ft: 48.2 mm corner, 43.5 mm side (TableSpec notes)
    assert r1 == pytest.approx(0.0482 if k not in (2, 3) else 0.0435, abs=1e-4)


def test_a_rail_too_narrow_for_the_liner_is_rejected() -> None:
    with pytest.raises(ValueError, match="rail_width"):
        physics.Table.from_spec(physics.TableSpec(rail_width=0.09))
    physics.Table.from_spec(physics.TableSpec(rail_width=4 * 0.0254))  # WPA's narrowest rail holds it


def test_e_liner_is_validated() -> None:
    with pytest.raises(ValueError, match="e_liner"):
        physics.PhysicsParams(e_liner=1.2)


# ------------------------------------------------------------------------------------------ contact times


def test_a_ball_along_the_axis_below_the_rail_top_meets_the_wall_at_the_analytic_time() -> None:
    """Horizontal at its apex, 2 mm below the rail top, from the liner's centre: ρ = v t reaches r_L − R."""
    c, r, *_, axis = LINERS[0]
    v = 3.0
    t, what = _liner_time(0, c[0], c[1], ZR - 2e-3, v * axis[0], v * axis[1], 0.0, 1.0)
    assert what == AIR_FACE and t == pytest.approx((r - R) / v, rel=1e-12)


def test_a_ball_dropping_onto_the_liner_edge_meets_it_at_the_analytic_time() -> None:
    """At rest in plan 0.6 R inside the circle over the back of the pocket, falling: it meets the top edge when its
    centre is 0.8 R above the rail top (0.6² + 0.8² = 1), after t = √(2 (h₀ − 0.8 R) / g)."""
    c, r, *_, axis = LINERS[2]
    x, y = c + (r - 0.6 * R) * axis
    t, what = _liner_time(2, x, y, ZR + 0.8 * R + 0.02, 0.0, 0.0, 0.0, 1.0)
    assert what == AIR_NOSE and t == pytest.approx(math.sqrt(2 * 0.02 / G), rel=1e-9)


def test_a_ball_above_the_rail_top_clears_the_edge() -> None:
    c, r, *_, axis = LINERS[4]
    v = 4.0
    t, what = _liner_time(4, c[0], c[1], ZR + R + 0.01, v * axis[0], v * axis[1], 0.0, 1.0)
    assert what == AIR_CLEAR and t == pytest.approx(r / v, rel=1e-12)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 5), st.floats(-1.5, 1.5), st.floats(-0.03, 0.03), st.floats(0.3, 8.0), st.floats(-0.0095, 0.04),
       st.floats(-1.5, 1.5))
@example(0, 0.0, 0.0, 3.0, -0.002, 0.0)
@example(2, 1.2, 0.01, 2.0, 0.0, 0.0)
@example(3, 0.0, 0.0, 5.0, 0.02859, 0.0)  # grazing the edge: the bottom just above the rail top
def test_the_liner_time_is_the_first_sampled_contact_or_clearing(k, heading, miss, speed, w0, vz) -> None:
    """Flights from the throat into the hole at any heading (crowded at the arc's ends and the rail top): the kernel
    gives the first time the ball reaches distance R of the liner's solid, or its centre passes over the circle."""
    c, r, _, _, axis = LINERS[k]
    ca, sa = math.cos(heading), math.sin(heading)
    u = np.array([ca * axis[0] - sa * axis[1], sa * axis[0] + ca * axis[1]])  # heading from the outward axis
    x0, y0 = c + miss * np.array([-u[1], u[0]])
    zc = ZR + w0
    if _liner_gap(k, x0, y0, zc) <= 0.0:
        return
    vx, vy = speed * u
    T = 0.2 / speed
    ts = np.linspace(0.0, T, 4000)
    arc = [_in_arc(k, x0 + vx * t, y0 + vy * t) for t in ts]
    if not arc[0] and any(arc):  # it comes onto the arc from the front: beyond r_L − R the facing would have met it
        i = arc.index(True)
        if math.hypot(x0 + vx * ts[i] - c[0], y0 + vy * ts[i] - c[1]) > r - R:
            return
    t, what = _liner_time(k, x0, y0, zc, vx, vy, vz, T)
    gap = lambda x, y, z: _liner_gap(k, x, y, z)  # noqa: E731
    over = lambda x, y, z: (r - math.hypot(x - c[0], y - c[1])) if _in_arc(k, x, y) else math.inf  # noqa: E731
    expected = min(sampled_first_contact(gap, x0, y0, zc, vx, vy, vz, T, n=6000),
                   sampled_first_contact(over, x0, y0, zc, vx, vy, vz, T, n=6000))
    if not math.isfinite(t):
        assert expected == math.inf
        return
    assert expected >= t - 1e-9 * (1 + t), (t, expected, what)  # nothing is missed
    x, y, z = x0 + vx * t, y0 + vy * t, zc + vz * t - 0.5 * G * t * t
    rho = math.hypot(x - c[0], y - c[1])
    if what == AIR_CLEAR:
        assert rho == pytest.approx(r, abs=1e-9) and z - ZR >= R - 1e-9
    elif what == AIR_FACE:
        assert rho == pytest.approx(r - R, abs=1e-9) and z <= ZR
    else:
        assert math.hypot(r - rho, z - ZR) == pytest.approx(R, abs=1e-9) and z >= ZR - 1e-9
    if math.isfinite(expected):
        assert t == pytest.approx(expected, abs=2e-6 * T + 1e-9)


# ------------------------------------------------------------------------------------------ shots in the loop


def _toward_pocket(k: int, dist: float, miss: float, theta: float, V0: float, u: float = 1.0, a: float = 0.0):
    """The cue ball ``dist`` from pocket k's liner centre into the table along its axis, aimed ``miss`` to the side
    of that centre, at elevation theta with the tip u·sin θ above the centre (u = 1: the cue axis through it)."""
    c, *_, axis = LINERS[k]
    side = np.array([-axis[1], axis[0]])
    start = c - dist * axis + miss * side
    d = c - start
    phi = math.degrees(math.atan2(d[1], d[0]))
    b = u * math.sin(math.radians(theta))
    scale = min(1.0, 0.49 / max(math.hypot(a, b), 1e-12))
    return start, physics.Shot(V0=V0, phi=phi, theta=theta, a=a * scale, b=b * scale)



def _energy(state: np.ndarray, air: np.ndarray) -> float:
    v2 = state[2] ** 2 + state[3] ** 2 + air[1] ** 2
    return 0.5 * M * v2 + 0.5 * INERTIA * float(np.sum(state[4:7] ** 2)) + M * G * air[0]


def _liner_contacts(r: physics.ShotResult):
    """(row, pocket) of each logged BALL_JAW that is a liner contact: its centre inside a liner's circle, on its arc."""
    ev = r.events
    out = []
    for k in np.flatnonzero(ev.kind == K.BALL_JAW):
        x, y = ev.state_a[k, :2]
        for j, (c, rl, *_) in enumerate(LINERS):
            if math.hypot(x - c[0], y - c[1]) < rl and _in_arc(j, x, y) and ev.state_a[k, 7] == Motion.AIRBORNE:
                out.append((int(k), j))
    return out


def _assert_liner_physics(r: physics.ShotResult, n: int = 300) -> None:
    """No airborne centre ever nearer than R to a liner's solid (while not over the rail); energy never rises across a
    liner contact; each liner contact is at distance R of the solid."""
    ev = r.events
    for ball, t0, t1, j0, j1, x, y, zc, vx, vy, vz in airborne_stretches(r):
        ts = np.linspace(0.0, t1 - t0, n)
        xs, ys, zs = x + vx * ts, y + vy * ts, zc + vz * ts - 0.5 * G * ts * ts
        for k in range(6):
            c, rl, *_ = LINERS[k]
            rho = np.hypot(xs - c[0], ys - c[1])
            for i in np.flatnonzero(rho < rl + R):
                if rho[i] >= rl and zs[i] - R >= ZR - 1e-9:
                    continue  # over the rail beside the hole, its bottom above the rail top
                g = _liner_gap(k, xs[i], ys[i], zs[i])
                assert g >= -1e-7, f"ball {ball} at t = {t0 + ts[i]:.6f} is {-g:.2e} m into pocket {k}'s liner"
    for row, k in _liner_contacts(r):
        ball = ev.ball_a[row]
        prev = max(i for i in range(row) if ev.ball_a[i] == ball or ev.ball_b[i] == ball)
        before = (ev.state_a[prev], ev.air_a[prev]) if ev.ball_a[prev] == ball else (ev.state_b[prev], ev.air_b[prev])
        assert _energy(ev.state_a[row], ev.air_a[row]) <= _energy(*before) * (1 + 1e-12) + 1e-15
        x, y = ev.state_a[row, :2]
        assert _liner_gap(k, x, y, R + ev.air_a[row, 0]) == pytest.approx(0.0, abs=1e-9)


LOW_SHOTS = [  # (pocket, theta, V0): a hop under the rail top, through the mouth into the back of the pocket
    (0, 10.0, 5.0), (1, 12.0, 5.0), (5, 8.0, 6.0), (2, 10.0, 5.0), (3, 12.0, 5.0),
]


@pytest.mark.parametrize("k, theta, V0", LOW_SHOTS)
def test_a_low_flight_through_the_mouth_meets_the_liner_and_is_pocketed(k, theta, V0) -> None:
    """The cue ball hops low through a corner or side mouth: it meets the back of the pocket (a BALL_JAW, at the
    closed-form time at which its plan distance from the liner's centre reaches r_L − R, its centre under the rail
    top) and drops into that pocket; before the liner it flew on and was taken off the table."""
    xy, shot = _toward_pocket(k, 0.4, 0.0, theta, V0)
    r = physics.simulate(physics.place_balls({0: tuple(xy)}), shot)
    ev = r.events
    contacts = _liner_contacts(r)
    assert contacts and contacts[0][1] == k
    row = contacts[0][0]
    prev = max(i for i in range(row) if ev.ball_a[i] == 0)
    s0, a0 = ev.state_a[prev], ev.air_a[prev]
    assert s0[7] == Motion.AIRBORNE
    c, rl, *_ = LINERS[k]
    # the closed form: the larger root of |p0 + v t − c|² = (r_L − R)²
    p0, v = s0[:2] - c, s0[2:4]
    qa, qb, qc = v @ v, 2 * p0 @ v, p0 @ p0 - (rl - R) ** 2
    t_wall = (-qb + math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)
    assert ev.time[row] - ev.time[prev] == pytest.approx(t_wall, abs=1e-12)
    zc = R + a0[0] + a0[1] * t_wall - 0.5 * G * t_wall ** 2
    assert zc <= ZR
    # brute force: the first sampled touch of the oracle's solid
    gap = lambda x, y, z: _liner_gap(k, x, y, z)  # noqa: E731
    t_brute = sampled_first_contact(gap, s0[0], s0[1], R + a0[0], s0[2], s0[3], a0[1], 1.5 * t_wall, n=20000)
    assert t_brute == pytest.approx(t_wall, abs=1e-9)
    assert r.state.motion[0] == Motion.POCKETED and r.state.pocket[0] == k
    assert K.BALL_OFF_TABLE not in ev.kind and not r.unresolved
    _assert_liner_physics(r)


@pytest.mark.parametrize("k", [0, 3])
def test_a_flight_above_the_rail_top_clears_the_pocket_and_leaves_the_table(k: int) -> None:
    """High over the mouth: the bottom is above the rail top where the centre passes over the liner's circle (no
    liner contact); over the rail around the pocket it leaves when it passes a rail's outer edge or comes down to the
    rail top (as over any rail), with BALL_OFF_TABLE naming a cushion beside the pocket."""
    xy, shot = _toward_pocket(k, 0.4, 0.0, 30.0, 7.0)
    r = physics.simulate(physics.place_balls({0: tuple(xy)}), shot)
    ev = r.events
    assert not _liner_contacts(r)
    off = int(np.flatnonzero(ev.kind == K.BALL_OFF_TABLE)[0])
    assert ev.ball_a[off] == 0 and ev.target[off] in TABLE.liners[k, 9:11]
    prev = max(i for i in range(off) if ev.ball_a[i] == 0)
    s0, a0 = ev.state_a[prev], ev.air_a[prev]
    c, rl, *_ = LINERS[k]
    p0, v = s0[:2] - c, s0[2:4]
    qa, qb, qc = v @ v, 2 * p0 @ v, p0 @ p0 - rl ** 2
    t_over = (-qb + math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa)
    assert a0[0] + a0[1] * t_over - 0.5 * G * t_over ** 2 >= ZR  # its bottom cleared the edge
    dt = ev.time[off] - ev.time[prev]
    assert dt > t_over
    x, y = s0[:2] + v * dt
    h = a0[0] + a0[1] * dt - 0.5 * G * dt * dt
    w = TABLE.spec.rail_width
    on_edge = min(abs(x + w), abs(y + w), abs(x - TABLE.width - w), abs(y - TABLE.length - w)) < 1e-9
    assert on_edge or h == pytest.approx(RAIL_TOP, abs=1e-9) or (h < RAIL_TOP and dt == pytest.approx(t_over))
    assert r.state.motion[0] == Motion.OFF_TABLE and not r.unresolved


def test_a_ball_over_a_cushion_rail_that_comes_over_the_hole_flies_on_in_it() -> None:
    """A jump that clears the head cushion near the corner (its bottom above the nose as its centre crosses the
    cushion line over the segment) and flies on over the rail into the corner pocket's hole, its bottom above the
    rail top: over the hole it is in the air as any ball; it meets the liner's top edge, slides off it into the hole
    (a few events: the leather holds its run along the edge) and is pocketed. Before the liner it left the table."""
    shot = physics.Shot(V0=6.75, phi=-166.75948008481282, theta=55.0, b=0.5)
    r = physics.simulate(physics.place_balls({0: (0.8637337346668609, 0.18323146698043782)}), shot)
    ev = r.events
    crossed = False
    for ball, t0, t1, j0, j1, x, y, zc, vx, vy, vz in airborne_stretches(r):
        if vy < 0 < y:
            tx = y / -vy
            x_cross = x + vx * tx
            if tx < t1 - t0 and TABLE.segments[0, 0] <= x_cross <= TABLE.segments[0, 2]:
                crossed = zc + vz * tx - 0.5 * G * tx * tx - R > P.cushion_height  # it cleared the head cushion
    assert crossed
    assert _liner_contacts(r) and len(ev) < 50
    assert r.state.motion[0] == Motion.POCKETED and r.state.pocket[0] == 0
    assert K.BALL_OFF_TABLE not in ev.kind and not r.unresolved
    _assert_liner_physics(r)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.floats(0.1, 0.7), st.floats(-0.07, 0.07), st.floats(3.0, 65.0), st.floats(0.5, 11.0),
       st.floats(0.0, 1.0), st.floats(-0.3, 0.3))
@example(0, 0.4, 0.0, 10.0, 5.0, 1.0, 0.0)
@example(2, 0.3, 0.035, 12.0, 6.0, 1.0, 0.0)  # near a side jaw
@example(1, 0.2, -0.05, 20.0, 8.0, 0.8, 0.2)  # grazing a corner mouth
def test_shots_into_the_pockets_never_enter_the_liner(k, dist, miss, theta, V0, u, a) -> None:
    """Elevated shots into every pocket, crowded against the jaws and the mouth's edges, low and high: no airborne
    ball ever comes nearer than R to a liner (3-D), energy never rises across a liner contact, nothing is
    unresolved, the final layout is legal, and the run is deterministic."""
    xy, shot = _toward_pocket(k, dist, miss, theta, V0, u, a)
    state = physics.place_balls({0: tuple(xy)})
    try:
        physics.validate_state(state, TABLE, P)
    except ValueError:
        return
    r = physics.simulate(state, shot)
    assert not r.unresolved and not r.hit_event_cap and not r.hit_time_cap
    physics.validate_state(r.state, TABLE, P)
    if r.events.air is not None:
        _assert_liner_physics(r, n=150)
    again = physics.simulate(physics.place_balls({0: tuple(xy)}), shot)
    for name in ("time", "kind", "ball_a", "ball_b", "target", "state_a", "state_b"):
        assert np.array_equal(getattr(r.events, name), getattr(again.events, name))


def test_a_liner_contact_is_deterministic_and_the_restitution_is_e_liner() -> None:
    """The wall's impulse is frictionless along the radius: the radial speed comes back at e_liner, the tangential
    and vertical velocity and the spin are kept."""
    xy, shot = _toward_pocket(0, 0.4, 0.004, 10.0, 5.0)
    runs = [physics.simulate(physics.place_balls({0: tuple(xy)}), shot) for _ in range(2)]
    assert np.array_equal(runs[0].events.state_a, runs[1].events.state_a)
    ev = runs[0].events
    row, k = _liner_contacts(runs[0])[0]
    prev = max(i for i in range(row) if ev.ball_a[i] == 0)
    c, *_ = LINERS[k]
    n = c - ev.state_a[row, :2]
    n /= np.linalg.norm(n)  # from the wall to the centre
    before, after = ev.state_a[prev, 2:4], ev.state_a[row, 2:4]
    assert after @ n == pytest.approx(-P.e_liner * (before @ n), rel=1e-12)
    t = np.array([-n[1], n[0]])
    assert after @ t == pytest.approx(before @ t, abs=1e-12)
    dt = ev.time[row] - ev.time[prev]
    assert ev.air_a[row, 1] == pytest.approx(ev.air_a[prev, 1] - G * dt, abs=1e-12)
    assert np.array_equal(ev.state_a[row, 4:7], ev.state_a[prev, 4:7])


def test_a_softer_liner_keeps_more_balls_in() -> None:
    """e_liner is what sends a fast ball back out: with a dead liner (0) the fast low shot stays in the pocket."""
    xy, shot = _toward_pocket(0, 0.4, 0.0, 10.0, 6.0)
    live = physics.simulate(physics.place_balls({0: tuple(xy)}), shot)
    assert _liner_contacts(live) and live.state.pocket[0] != 0  # it rattles out at e_liner = 0.3
    dead = physics.simulate(physics.place_balls({0: tuple(xy)}), shot, params=dataclasses.replace(P, e_liner=0.0))
    assert dead.state.motion[0] == Motion.POCKETED and dead.state.pocket[0] == 0
    # a dead liner absorbs every rebound: the ball meets the wall and drops, or it comes down onto the edge and slides
    # off it into the hole at once (a BALL_POCKET at that contact)
    last = len(dead.events) - 1
    assert _liner_contacts(dead) or (dead.events.kind[last] == K.BALL_POCKET and dead.events.state_a[last - 1, 7]
                                     == Motion.AIRBORNE and dead.events.time[last] < live.events.time[-1])


SOAK_REPRODUCERS = [  # benchmarks/soak.py --airborne 100000 --seed 9 with the liner at the rail's height: (index, shot, balls)
    (12464, (5.4810445772328045, 38.75809171185782, 86.07558721066333, -0.4818661598191647, 0.422504823189241),
     {0: (0.0373734722263805, 0.02062037393147069), 1: (0.9531125557881198, 1.837063232945289), 2: (0.028575, 0.6097908285044089), 3: (0.36671735115868637, 0.1966669187479013), 4: (0.028575474696453503, 0.405167774227442), 5: (1.241425, 0.1533714953086034), 6: (0.33871946339138365, 2.259875633971044), 7: (0.7562764397872981, 1.962053058875517), 8: (0.07977442982754332, 0.5843990801173505)}),
    (31845, (9.078461508066711, 270.9807344423569, 19.61431668470705, 0.4525628586070722, -0.4755597934689665),
     {0: (0.028575001089469337, 0.2904624343428496), 1: (1.241425, 2.449502683455389), 2: (0.7533178456510987, 0.798974422319789), 3: (1.1851720208682, 2.459588556757448), 4: (0.32511480375293045, 0.24773368254230455), 5: (1.0933731306129637, 2.4998091739700357), 6: (0.028575000010412827, 0.7379359234060453), 7: (1.2337110331494363, 1.0128695911349122)}),
    (44521, (5.722387575191291, 18.345587655518006, 88.90858532352, 0.29630347001341695, 0.28972819138699335),
     {0: (-0.010625291859903338, 1.2529681148038447), 1: (0.6420320984852724, 1.0662146669334205), 2: (0.18884395999391906, 1.6000693918912374), 3: (0.13677239398606889, 1.576514994169882), 4: (0.028660761461744476, 1.211448444409947)}),
    (64433, (10.710065026331899, 182.53986726840282, 48.90358752989309, 0.24121236231637222, -0.8670735818049904),
     {0: (0.8195930965903014, 1.2897867928951132), 1: (0.034821884440304124, 1.5928950010874603), 2: (0.02857500000536641, 0.40719159842222696), 3: (0.028575, 1.0407709511358858), 4: (1.1595734216907942, 0.1241175689239592), 5: (0.15340188455291598, 0.9789611575229623), 6: (0.7353167518181312, 0.3124921603952078), 7: (0.09823587305853429, 0.4851583514690956), 8: (0.08390274608521543, 1.0551015144753235)}),
]


@pytest.mark.parametrize("index, shot, balls", SOAK_REPRODUCERS)
def test_the_soak_reproducers_stay_out_of_the_liner(index, shot, balls) -> None:
    """With the liner's edge at the rail's height, 1.8 mm above the facings' nose, a ball that came along a facing's
    nose entered that step at the facing's end (12464, 31845: 0.5 and 0.9 mm into the liner), or lay in it in a
    series of contacts until the event cap (44521, 64433). At the nose height the edge runs on without a step."""
    r = physics.simulate(physics.place_balls(balls), physics.Shot(*shot))
    assert not r.unresolved and not r.hit_event_cap and len(r.events) < 200
    physics.validate_state(r.state, TABLE, P)
    _assert_liner_physics(r, n=2000)


def test_a_ball_grazing_the_liner_edge_beside_a_facing_end_stays_out_of_it() -> None:
    """Soak seed 9, shot 87641 (with the liner at the nose height): the cue ball flies along the foot-right corner's
    facing, falling onto its nose while it moves away from it in plan at 3.7 mm/s. The nose search required a plan
    approach, so the ball went 0.12 mm into the nose edge unseen, met the liner's edge at the facing's end already inside
    it and passed through it (22 mm). Now it comes down on the facing's nose, then on the liner's edge, and drops into
    the pocket (its rebound off the edge is below the minimum bounce)."""
    balls = {0: (0.032114462000019314, 1.6821403381670776), 1: (0.4659349089504823, 1.6597190180615538), 2: (0.02857673853036343, 2.449272486088387)}
    r = physics.simulate(physics.place_balls(balls), physics.Shot(*(10.359078198587186, 171.37969601205583, 41.71466050624334, 0.5127201644464593, 0.12853294961895623)))
    assert not r.unresolved and not r.hit_event_cap and len(r.events) < 50
    physics.validate_state(r.state, TABLE, P)
    ev = r.events
    facing = int(np.flatnonzero(ev.kind == K.BALL_CUSHION)[-1])
    assert ev.target[facing] == 9 and ev.state_a[facing, 7] == Motion.AIRBORNE  # the foot-right corner's facing
    assert ev.kind[-1] == K.BALL_POCKET and r.state.motion[0] == Motion.POCKETED and r.state.pocket[0] == 5
    _assert_liner_physics(r, n=2000)


EDGE_CAPS = [  # benchmarks/soak.py --airborne 100000 --seed 9 (liner at the nose height): (index, shot, balls, pocket)
    (18099, (5.650073950309617, 180.7437089539283, 88.14875057209429, -0.0604888386247933, -0.3765482246284896),
     {0: (1.2076795970856415, 0.026315478452811257), 1: (0.9090841685534962, 0.029150255259721182), 2: (1.0647383803083101, 2.511424999981823)}, 1),
    (77927, (5.653017871029624, -46.469648469866826, 86.93647477348374, 0.4134271699833617, -0.022272683904040438),
     {0: (0.026995430375181192, 2.5074076834761816), 1: (0.9565276947069834, 1.7293129035652473), 2: (0.8377749539374195, 0.028575000296231716), 3: (1.0449281705634255, 1.1664942881740397), 4: (0.02857500007882073, 1.1529863343069788), 5: (1.2414244006233144, 1.1654683778559638), 6: (1.0613835166932835, 0.41438418178610964), 7: (0.6062287212706057, 0.6890902429972154), 8: (0.6825205279538907, 0.028578253134223686), 9: (0.8098673212360287, 2.511424947326369)}, 4),
    (94521, (8.48407438184722, 319.894773040237, 42.00403635379385, 0.805209537252339, -0.40204179026098036),
     {0: (1.2567983723378118, 0.041670504173724025), 1: (1.2000206911710432, 0.035157601338739373), 2: (0.41927687660489904, 1.6269540872713912), 3: (0.7761090109401972, 0.12138028252483679), 4: (0.02854315805540253, 2.460682538027479), 5: (0.42228170137468773, 1.6840250391229612), 6: (0.030090336442156328, 1.7293555778173726)}, 1),
]


@pytest.mark.parametrize("index, shot, balls, pocket", EDGE_CAPS)
def test_a_ball_lying_on_the_liner_edge_slides_off_into_the_hole(index, shot, balls, pocket) -> None:
    """A jump comes down on a liner's top edge, its centre inside the hole, and lies on it: its rebounds rise less than
    min_bounce_height, and it used to slide off in micro-hops until the event cap (3997 BALL_JAW). Below the minimum
    bounce the leather absorbs the rebound and the ball slides off to the side its centre lies on: into the pocket."""
    r = physics.simulate(physics.place_balls(balls), physics.Shot(*shot))
    assert not r.unresolved and not r.hit_event_cap and not r.hit_time_cap and len(r.events) < 20
    physics.validate_state(r.state, TABLE, P)
    ev = r.events
    last = len(ev) - 1
    assert ev.kind[last] == K.BALL_POCKET and ev.ball_a[last] == 0 and ev.target[last] == pocket
    x, y = ev.state_a[last - 1, :2]
    prev = ev.air_a[last - 1]  # the ball's flight onto the edge, from its previous event
    dt = ev.time[last] - ev.time[last - 1]
    zc = R + prev[0] + prev[1] * dt - 0.5 * G * dt * dt
    xs, ys = x + ev.state_a[last - 1, 2] * dt, y + ev.state_a[last - 1, 3] * dt
    c, rl, *_ = LINERS[pocket]
    rho = math.hypot(xs - c[0], ys - c[1])
    assert rho < rl and math.hypot(rl - rho, zc - ZR) == pytest.approx(R, abs=1e-9)  # on the edge, centre in the hole
    u = np.array([xs - c[0], ys - c[1]]) / rho
    edge = c + rl * u  # the edge point under the centre
    n = np.array([xs - edge[0], ys - edge[1], zc - ZR]) / R  # from the edge to the centre
    v = np.array([*ev.state_a[last - 1, 2:4], prev[1] - G * dt])
    assert v @ n < 0.0 and P.e_liner * -(v @ n) < math.sqrt(2 * G * P.min_bounce_height)  # a rebound below 1 mm
    assert r.state.motion[0] == Motion.POCKETED and r.state.pocket[0] == pocket
    _assert_liner_physics(r, n=2000)


SHOT_99686 = ((8.599360751798171, 10.610087262130406, 88.6651878856041, 0.5927513906866944, 0.5983555876601244),
              {0: (0.16222266321570808, 0.38884600668381625), 1: (0.29286029700238536, 0.12643201820058772),
               2: (0.7138617617751416, 1.8411028086225765), 3: (0.028575000001198347, 1.146931985697688),
               4: (0.31305109331025427, 2.511401268060668), 5: (1.120426018348963, 1.8744439908076485)})


def test_a_ball_that_starts_behind_a_facings_line_meets_its_nose() -> None:
    """Soak seed 10, shot 99686: a near-vertical jump from the table flies toward the head-left corner. At the strike
    its centre is behind the line of that pocket's left facing (segment 10), which runs on across the table, and it
    moves away from the line in plan; it comes over the facing in front of it and falls onto its nose at t ≈ 0.280.
    The nose search returned nothing for any ball that started behind the line, so the ball went 13 mm into the nose
    edge unseen and was caught by the liner's edge at the facing's back end, already deep inside it (the soak's liner
    audit flagged it). From the window's start over the segment the ball is in front of the line: the nose is met."""
    shot, balls = SHOT_99686
    seg = TABLE.segments[10]
    r = physics.simulate(physics.place_balls(balls), physics.Shot(*shot))
    ev = r.events
    x, y, vx, vy = ev.state_a[1, :4]
    zc, vz = R + ev.air_a[1, 0], ev.air_a[1, 1]
    assert seg[4] * (x - seg[0]) + seg[5] * (y - seg[1]) < 0.0 and seg[4] * vx + seg[5] * vy > 0.0  # behind, leaving
    t, what = air_cushion_time(x, y, zc, vx, vy, vz, G, *seg, R, ZR, 0.4)
    expected = sampled_first_contact(lambda px, py, pz: segment_gap(px, py, pz, seg), x, y, zc, vx, vy, vz, 0.4, n=20000)
    assert what == AIR_NOSE and 0.27 < expected < 0.29 and t == pytest.approx(expected, abs=1e-7)
    assert not r.unresolved and not r.hit_event_cap and not r.hit_time_cap
    physics.validate_state(r.state, TABLE, P)
    nose = int(np.flatnonzero(ev.kind == K.BALL_CUSHION)[0])
    assert ev.target[nose] == 10 and ev.state_a[nose, 7] == Motion.AIRBORNE and ev.time[nose] == pytest.approx(t)
    _assert_liner_physics(r, n=2000)
    for ball, t0, t1, *_, x0, y0, z0, vx0, vy0, vz0 in airborne_stretches(r):
        for s in np.linspace(0.0, t1 - t0, 2000):
            g = rubber_gap(x0 + vx0 * s, y0 + vy0 * s, z0 + vz0 * s - 0.5 * G * s * s)
            assert g >= -1e-7, f"ball {ball} at t = {t0 + s:.6f} is {-g:.2e} m into a cushion or a jaw"
