"""The follow-shot hop: the vertical part of the ball–ball friction impulse lifts a ball off the cloth.

A contact whose slip has a vertical part (the striking ball's topspin or draw; resolve.ball_ball) pushes one ball
up and the other down into the slate. A ball that rises at least min_bounce_height leaves the cloth, and the event
loop takes the steps of balls in the air from that contact on (loop.py); below that the cloth
absorbs it, as the flat model always did.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import physics
from physics import EventKind as K
from physics import Motion
from physics.api import sample_positions
from physics.samples import break_shots

P = physics.DEFAULT_PARAMS
R = P.R
G = P.g
X0, Y0 = 0.635, 1.0
GAP = 1e-7  # [m] between the balls: the contact comes at once, the state is the starting one to ~1e-8


def _full_hit(v: float, w: float, params: physics.PhysicsParams = P, cut: float = 0.0,
              others: dict | None = None) -> physics.SimResult:
    """Ball 0 sliding along +y at v [m/s] with topspin R·ω = w (w = v: rolling; w < 0: draw) into ball 1 at rest,
    offset sideways by ``cut`` [m] from a full hit."""
    dy = math.sqrt((2 * R + GAP) ** 2 - cut * cut)
    state = physics.place_balls({0: (X0, Y0), 1: (X0 + cut, Y0 + dy), **(others or {})})
    state.vel[0] = (0.0, v)
    state.spin[0] = (-w / R, 0.0, 0.0)
    state.motion[0] = int(Motion.SLIDING)
    return physics.simulate(state, None, params=params)


def _mu(s: float, params: physics.PhysicsParams = P) -> float:
    return params.throw_a + params.throw_b * math.exp(-params.throw_c * s)


def _first(ev, kind) -> int:
    return int(np.flatnonzero(ev.kind == kind)[0])


def _normal_impulse(ev, v: float) -> float:
    """J_n/m of the first contact of a full hit at v: the striking ball's loss of speed (the friction has no
    horizontal part here)."""
    return v - ev.state_a[_first(ev, K.BALL_BALL), 3]


def _expected_vz(ev, v: float, w: float, params: physics.PhysicsParams = P) -> float:
    """The friction impulse per unit mass of a full hit at v with a vertical slip |w| only: min(µ(|w|)·J_n/m, |w|/7)."""
    jn = _normal_impulse(ev, v)
    return min(_mu(abs(w), params) * jn, abs(w) / 7.0)


def test_a_hard_rolling_full_hit_hops_by_the_impulse_formula() -> None:
    """12 m/s rolling: µ(12) = 0.00995 leaves 0.116 m/s (0.69 mm), under the default 1 mm, so the threshold is
    lowered to 0.1 mm here; the hop is then the impulse's, its flight 2 v_z/g, its apex v_z²/2g."""
    low = replace(P, min_bounce_height=1e-4)
    v = 12.0
    r = _full_hit(v, v, low)
    ev = r.events
    contact, up = _first(ev, K.BALL_BALL), _first(ev, K.BALL_AIRBORNE)
    assert up == contact + 1 and ev.ball_a[up] == 0 and ev.time[up] == ev.time[contact]
    jn = _normal_impulse(ev, v)
    assert jn == pytest.approx((1 + P.e_b) / 2 * v, rel=1e-6)
    vz = ev.air_a[up, 1]
    assert vz == pytest.approx(_mu(v) * jn, rel=1e-6)  # Coulomb's bound: µ·J_n < m·slip/7 here
    # the struck ball, driven into the slate at −v_z, rebounds at e_table·v_z (0.058 m/s, over this threshold)
    assert ev.kind[up + 1] == K.BALL_AIRBORNE and ev.ball_a[up + 1] == 1
    assert ev.air_a[up + 1, 1] == pytest.approx(P.e_table * vz, rel=1e-12)
    assert vz == pytest.approx(0.1164, abs=1e-4)
    apex = vz * vz / (2 * G)
    assert apex == pytest.approx(0.69e-3, abs=0.01e-3) and P.min_bounce_height > apex > low.min_bounce_height
    land = next(i for i in range(up, len(ev)) if ev.kind[i] == K.BALL_LANDING and ev.ball_a[i] == 0)
    assert ev.time[land] - ev.time[up] == pytest.approx(2 * vz / G, rel=1e-12)
    assert ev.air_a[land, 1] == pytest.approx(P.e_table * vz, rel=1e-12)  # it bounces on: 0.058 m/s, 0.17 mm
    # at the default threshold the same hit stays on the cloth: the flat loop, no air columns
    flat = _full_hit(v, v)
    assert flat.events.air is None and K.BALL_AIRBORNE not in flat.events.kind


def test_a_hard_partly_rolling_hit_hops_three_millimetres() -> None:
    """The largest hop at 12 m/s comes at a slip of about 2 m/s (a ball still sliding towards its roll): µ(2) is
    2.2 times µ(12) and the cap m·slip/7 does not bite yet: 0.26 m/s, an apex of 3.4 mm."""
    v, w = 12.0, 2.0
    ev = _full_hit(v, w).events
    up = _first(ev, K.BALL_AIRBORNE)
    vz = ev.air_a[up, 1]
    assert ev.ball_a[up] == 0 and vz == pytest.approx(_expected_vz(ev, v, w), rel=1e-6)
    assert vz == pytest.approx(0.2599, abs=1e-4)
    assert vz * vz / (2 * G) == pytest.approx(3.44e-3, abs=0.01e-3)
    land = next(i for i in range(up, len(ev)) if ev.kind[i] == K.BALL_LANDING and ev.ball_a[i] == 0)
    assert ev.time[land] - ev.time[up] == pytest.approx(2 * vz / G, rel=1e-12)


def test_the_friction_is_capped_where_the_vertical_slip_stops() -> None:
    """4 m/s with a slip of 1 m/s: µ·J_n (0.18 m/s) is more than the impulse that stops the slip, so the friction
    is m·slip/7 (both balls' translation and rotation, as if both were free) and the slip ends at zero, not reversed."""
    w = 1.0
    ev = _full_hit(4.0, w).events
    contact, up = _first(ev, K.BALL_BALL), _first(ev, K.BALL_AIRBORNE)
    vz = ev.air_a[up, 1]
    assert _mu(w) * _normal_impulse(ev, 4.0) > w / 7
    assert vz == pytest.approx(w / 7, rel=1e-6)
    # vertical slip after the contact: Δv_z + R(ω1x + ω2x), the struck ball's −v_z taken by the slate
    wx_sum = ev.state_a[contact, 4] + ev.state_b[contact, 4]
    assert 2 * vz + R * wx_sum == pytest.approx(0.0, abs=1e-9)


def test_a_stun_full_hit_does_not_hop() -> None:
    """No spin, no vertical slip: no vertical impulse at any speed."""
    for v in (3.0, 8.0, 12.0):
        r = _full_hit(v, 0.0)
        assert r.events.air is None and K.BALL_AIRBORNE not in r.events.kind


def test_a_draw_shot_does_not_lift_the_cue_ball() -> None:
    """Draw reverses the slip: the cue ball is pressed into the slate (its rebound e_table·v_z is absorbed) and
    the struck ball is lifted."""
    v, w = 12.0, -2.0
    ev = _full_hit(v, w).events
    up = _first(ev, K.BALL_AIRBORNE)
    assert ev.ball_a[up] == 1 and ev.air_a[up, 1] == pytest.approx(_expected_vz(ev, v, w), rel=1e-6)
    assert not any(ev.ball_a[i] == 0 for i in np.flatnonzero(ev.kind == K.BALL_AIRBORNE))
    assert not np.any(ev.state_a[ev.ball_a == 0, 7] == Motion.AIRBORNE)
    assert not np.any(ev.state_b[ev.ball_b == 0, 7] == Motion.AIRBORNE)
    for v in (4.0, 8.0, 12.0):  # a draw shot at any speed and draw: at its contact the cue ball stays down
        for w in np.linspace(-v, -0.2, 7):
            ev = _full_hit(v, float(w)).events
            t_hit = ev.time[_first(ev, K.BALL_BALL)]
            lifted = ev.ball_a[(ev.kind == K.BALL_AIRBORNE) & (ev.time == t_hit)]
            assert 0 not in lifted.tolist(), (v, w)


def test_a_hop_below_the_threshold_leaves_the_shot_flat_bit_for_bit() -> None:
    """4 m/s rolling: 0.044 m/s, 0.1 mm: absorbed. The shot is the same bit for bit as with a threshold no
    contact can reach (the flat model's, which always absorbed it)."""
    never = replace(P, min_bounce_height=1.0)
    for v, w in ((4.0, 4.0), (2.0, 1.0), (12.0, 12.0), (6.0, -6.0), (3.0, 0.9)):
        a, b = _full_hit(v, w), _full_hit(v, w, never)
        assert a.events.air is None
        np.testing.assert_array_equal(a.events.rows, b.events.rows)
        np.testing.assert_array_equal(a.state.packed(), b.state.packed())


def _energy(row: np.ndarray, air: np.ndarray) -> float:
    v2 = row[2] ** 2 + row[3] ** 2 + air[1] ** 2
    w2 = row[4] ** 2 + row[5] ** 2 + row[6] ** 2
    return 0.5 * P.m * v2 + 0.5 * P.inertia * w2 + P.m * G * air[0]


@settings(max_examples=60, deadline=None)
@given(st.floats(3.0, 12.0), st.floats(-1.0, 1.0), st.floats(-1.6 * R, 1.6 * R))
def test_energy_never_rises_across_the_hand_over(v: float, spin: float, cut: float) -> None:
    """The contact that lifts a ball adds no energy (its vertical kinetic energy comes out of the friction's loss),
    nor does the airborne loop after it: each ball's energy falls from event to event until it meets the other."""
    w = spin * v
    r = _full_hit(v, w, cut=cut)
    ev = r.events
    start = r.initial
    e0 = sum(_energy(np.r_[start.pos[i], start.vel[i], start.spin[i]], np.zeros(2)) for i in range(2))
    contact = _first(ev, K.BALL_BALL)
    air_a = ev.air_a[contact] if ev.air is not None else np.zeros(2)
    air_b = ev.air_b[contact] if ev.air is not None else np.zeros(2)
    e1 = _energy(ev.state_a[contact], air_a) + _energy(ev.state_b[contact], air_b)
    assert e1 <= e0 * (1 + 1e-12)
    if ev.air is None:
        return
    for ball in (0, 1):
        rows = [i for i in range(contact, len(ev)) if ev.ball_a[i] == ball or ev.ball_b[i] == ball]
        rows = rows[:next((k for k, i in enumerate(rows[1:], 1) if ev.kind[i] == K.BALL_BALL), len(rows))]
        es = []
        for i in rows:
            side = 0 if ev.ball_a[i] == ball else 1
            state = ev.state_a[i] if side == 0 else ev.state_b[i]
            air = ev.air_a[i] if side == 0 else ev.air_b[i]
            if state[7] != Motion.OFF_TABLE:
                es.append(_energy(state, air))
        assert np.all(np.diff(es) <= 1e-9 * (1 + es[0])), (ball, es)


def test_a_hop_is_deterministic_and_the_batch_agrees() -> None:
    """The hand-over is exact: a rerun, and the same shot in a batch (whose flat kernel hands over too), give the
    same log and final state bit for bit."""
    v, w = 12.0, 2.0
    a, b = _full_hit(v, w), _full_hit(v, w)
    np.testing.assert_array_equal(a.events.rows, b.events.rows)
    np.testing.assert_array_equal(a.events.air, b.events.air)
    np.testing.assert_array_equal(a.state.packed(), b.state.packed())
    batch = physics.simulate_batch([a.initial, a.initial], [None, None], log_capacity=512)
    for k in range(2):
        np.testing.assert_array_equal(batch.state(k).packed(), a.state.packed())
        np.testing.assert_array_equal(batch.logs[k, : batch.n_events[k]], a.events.rows)
    # a break that hops: the cue strike is flat, the hop comes at the rack
    rack, shot = break_shots(1, 101)[0]
    one = physics.simulate(rack, shot)
    assert one.events.air is not None and K.BALL_AIRBORNE in one.events.kind and one.events.kind[1] != K.BALL_AIRBORNE
    batch = physics.simulate_batch([rack], [shot], log_capacity=512)
    np.testing.assert_array_equal(batch.state(0).packed(), one.state.packed())
    np.testing.assert_array_equal(batch.logs[0, : batch.n_events[0]], one.events.rows)


def _heights(r: physics.SimResult, times: np.ndarray) -> np.ndarray:
    """Height of each ball's bottom above the cloth at ``times``, from the logged events (a parabola in the air)."""
    ev = r.events
    out = np.zeros((times.size, r.initial.n_balls))
    for ball in range(r.initial.n_balls):
        seg_t, seg = [0.0], [(0.0, 0.0, False)]
        for i in range(len(ev)):
            for side, who in ((0, ev.ball_a[i]), (1, ev.ball_b[i])):
                if who == ball:
                    state = ev.state_a[i] if side == 0 else ev.state_b[i]
                    air = ev.air_a[i] if side == 0 else ev.air_b[i]
                    seg_t.append(float(ev.time[i]))
                    seg.append((float(air[0]), float(air[1]), state[7] == Motion.AIRBORNE))
        k = np.searchsorted(np.array(seg_t), times, side="right") - 1
        for j, t in enumerate(times):
            h, vz, flying = seg[k[j]]
            dt = t - seg_t[k[j]]
            out[j, ball] = h + vz * dt - 0.5 * G * dt * dt if flying else 0.0
    return out


def _assert_no_overlap_3d(r: physics.SimResult, t_end: float, n: int = 4000) -> None:
    times = np.linspace(0.0, t_end, n)
    xy = sample_positions(r, times)
    h = _heights(r, times)
    on = r.initial.motion < Motion.POCKETED
    for i in range(xy.shape[1]):
        for j in range(i + 1, xy.shape[1]):
            if not (on[i] and on[j]):
                continue
            d = np.sqrt(np.sum((xy[:, i] - xy[:, j]) ** 2, axis=1) + (h[:, i] - h[:, j]) ** 2)
            assert d.min() >= 2 * R - 1e-7, (i, j, d.min(), times[d.argmin()])


def test_a_hard_follow_shot_flies_onto_a_close_ball_without_overlap() -> None:
    """A hard, slightly cut follow shot: the cue ball hops 2.3 mm off the object ball along its tangent line and
    comes down onto a ball 2.3 cm ahead: a 3-D contact at distance 2R, no overlap anywhere."""
    cut, v, w = 0.2 * R, 12.0, 1.5
    alone = _full_hit(v, w, cut=cut).events
    up = next(i for i in np.flatnonzero(alone.kind == K.BALL_AIRBORNE) if alone.ball_a[i] == 0)
    start, vel, vz = alone.state_a[up, 0:2], alone.state_a[up, 2:4], alone.air_a[up, 1]
    assert vz * vz / (2 * G) > 2e-3
    ahead = start + vel / np.hypot(*vel) * (2 * R + 0.5 * np.hypot(*vel) * 2 * vz / G)  # met at mid-flight
    r = _full_hit(v, w, cut=cut, others={2: tuple(ahead)})
    ev = r.events
    assert not r.unresolved and not r.hit_event_cap
    hit = next(i for i in np.flatnonzero(ev.kind == K.BALL_BALL) if {ev.ball_a[i], ev.ball_b[i]} == {0, 2})
    assert ev.air_a[hit, 0] > 1e-3  # the cue ball, in the air
    for i in np.flatnonzero(ev.kind == K.BALL_BALL):
        d = np.hypot(*(ev.state_a[i, 0:2] - ev.state_b[i, 0:2]))
        assert math.hypot(d, ev.air_a[i, 0] - ev.air_b[i, 0]) == pytest.approx(2 * R, abs=1e-8)
    _assert_no_overlap_3d(r, float(ev.time[hit]) + 0.1)
    physics.validate_state(r.state, physics.DEFAULT_TABLE, P)


def test_a_lifted_object_ball_flies_into_the_next_ball_in_3d() -> None:
    """A hard draw lifts the object ball 3.4 mm; 25 cm on it meets a ball on the cloth while still in the air."""
    dy = 2 * R + GAP
    r = _full_hit(12.0, -2.0, others={2: (X0, Y0 + dy + 0.25)})
    ev = r.events
    hit = next(i for i in np.flatnonzero(ev.kind == K.BALL_BALL) if {ev.ball_a[i], ev.ball_b[i]} == {1, 2})
    assert ev.air_a[hit, 0] > 1e-3  # ball 1, in the air
    d = np.hypot(*(ev.state_a[hit, 0:2] - ev.state_b[hit, 0:2]))
    assert math.hypot(d, ev.air_a[hit, 0] - ev.air_b[hit, 0]) == pytest.approx(2 * R, abs=1e-9)
    _assert_no_overlap_3d(r, float(ev.time[hit]) + 0.05)


def test_a_flat_shot_that_hops_is_simulated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: ``simulate`` ran a flat shot that hopped a second time to fill ``EventLog.air``. The kernel now
    zeroes the air log at the hand-over, so one run gives the whole log, and garbage in the buffer (a spare reused
    from earlier shots) does not leak into the rows logged on the cloth."""
    import physics.api as api

    rack, shot = break_shots(1, 101)[0]
    reference = physics.simulate(rack, shot)
    calls = []
    real_run, real_empty = api.run_arrays, np.empty

    def counting_run(*args):
        calls.append(1)
        return real_run(*args)

    def garbage_empty(shape, *args, **kwargs):  # every buffer the API allocates starts as NaN
        out = real_empty(shape, *args, **kwargs)
        if out.dtype == np.float64:
            out.fill(np.nan)
        return out

    monkeypatch.setattr(api, "run_arrays", counting_run)
    monkeypatch.setattr(api.np, "empty", garbage_empty)
    for spare in api._SPARE_AIR_LOGS:  # and the spare air logs flat shots reuse
        spare.fill(np.nan)
    again = physics.simulate(rack, shot)
    monkeypatch.undo()
    assert len(calls) == 1
    ev = again.events
    hop = int(np.flatnonzero(ev.kind == K.BALL_AIRBORNE)[0])
    assert hop > 1 and np.all(ev.air[:hop - 1] == 0.0)  # the events before the contact that lifts a ball: on the cloth
    np.testing.assert_array_equal(ev.rows, reference.events.rows)
    np.testing.assert_array_equal(ev.air, reference.events.air)


def test_the_mathavan_ball_model_lifts_the_cue_ball_by_its_integrated_friction() -> None:
    """Mathavan et al. 2014 (``ball_ball_model="mathavan2014"``) integrates the vertical friction over the impulse:
    for a full rolling hit the slip stays vertical, so the cue ball leaves at µ(v)·J_n/m, as the single-impulse
    model's Coulomb bound, and the object ball, pressed into the cloth, gets no vertical speed (the cloth takes it)."""
    model = replace(P, ball_ball_model="mathavan2014", min_bounce_height=1e-4)
    v = 12.0
    ev = _full_hit(v, v, model).events
    contact, up = _first(ev, K.BALL_BALL), _first(ev, K.BALL_AIRBORNE)
    assert up == contact + 1 and ev.ball_a[up] == 0
    jn = _normal_impulse(ev, v)
    assert ev.air_a[up, 1] == pytest.approx(_mu(v, model) * jn, rel=2e-3)
    assert not np.any((ev.kind == K.BALL_AIRBORNE) & (ev.ball_a == 1) & (ev.time == ev.time[contact]))
    land = next(i for i in range(up, len(ev)) if ev.kind[i] == K.BALL_LANDING and ev.ball_a[i] == 0)
    assert ev.time[land] - ev.time[up] == pytest.approx(2 * ev.air_a[up, 1] / G, rel=1e-12)
    # at the default threshold (1 mm) the rolling hit's 0.69 mm stays on the cloth
    flat = _full_hit(v, v, replace(model, min_bounce_height=P.min_bounce_height))
    assert flat.events.air is None and K.BALL_AIRBORNE not in flat.events.kind


@pytest.mark.parametrize("steps", [1000, 4000])
def test_a_chattering_vertical_slip_lifts_neither_ball_in_the_mathavan_model(steps: int) -> None:
    """Regression: a stun hit has no vertical slip to start with, so the integrated friction chatters about zero
    slip; the model added up each step's upward part for whichever ball it lifted, which sent the object ball up at
    0.62 m/s and the cue ball at 0.76 m/s at 12 m/s. The cloth stops a ball pushed down, so a lift is cancelled by
    the next push: the object ball gets none, and the cue ball only the model's steady lift, the same at any step
    count (0.138 m/s, from the cloth's friction on the pressed cue ball)."""
    model = replace(P, ball_ball_model="mathavan2014", min_bounce_height=1e-5, ball_ball_steps=steps)
    ev = _full_hit(12.0, 0.0, model).events
    contact = _first(ev, K.BALL_BALL)
    lifted = (ev.kind == K.BALL_AIRBORNE) & (ev.time == ev.time[contact])
    assert not np.any(lifted & (ev.ball_a == 1))
    cue = np.flatnonzero(lifted & (ev.ball_a == 0))
    assert cue.size == 1 and ev.air_a[cue[0], 1] == pytest.approx(0.1382, abs=2e-3)
    assert ev.air_a[cue[0], 1] < 0.12 * _mu(0.0, model) * _normal_impulse(ev, 12.0)


def _airborne_after_each_event(events: physics.EventLog) -> list[frozenset[int]]:
    """The balls in the air after each logged event, read from the log's motion columns."""
    air: set[int] = set()
    out = []
    for i in range(len(events)):
        for who, state in ((int(events.ball_a[i]), events.state_a[i]), (int(events.ball_b[i]), events.state_b[i])):
            if who >= 0:
                (air.add if int(state[7]) == Motion.AIRBORNE else air.discard)(who)
        out.append(frozenset(air))
    return out


def test_a_break_that_hops_twice_keeps_the_first_hops_heights():
    # The loop takes the flat steps again when every ball is down and the air's at the next hop (issue 25: a break's
    # balls land within its first events). The air log is zeroed at the first hop only: the first hop's heights stay,
    # an event after which no ball is in the air logs zeros (its balls lie on the cloth), and the batch agrees.
    rack, shot = break_shots(4, 101)[3]
    one = physics.simulate(rack, shot)
    air = _airborne_after_each_event(one.events)
    starts = [i for i in range(len(air)) if air[i] and (i == 0 or not air[i - 1])]
    assert len(starts) >= 2, "this break no longer hops twice: pick another"
    first = range(starts[0], next(i for i in range(starts[0], len(air)) if not air[i]))
    assert np.any(one.events.air[first, 0] > 0.0)  # heights of the first hop
    down = [i for i in range(len(air)) if not air[i] and i > starts[0]]
    np.testing.assert_array_equal(one.events.air[down], 0.0)
    batch = physics.simulate_batch([rack], [shot], log_capacity=512)
    np.testing.assert_array_equal(batch.state(0).packed(), one.state.packed())
    np.testing.assert_array_equal(batch.logs[0, : batch.n_events[0]], one.events.rows)
