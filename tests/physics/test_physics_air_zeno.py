"""Sustained contacts of an airborne ball lying on a ball that rests on the cloth, from the airborne soak: the
series of ever closer BALL_BALL events must end (no event cap, no unresolved ball), with no energy added and no
two balls ever overlapping, audited by the physics audit's dense sampling of the closed-form flights."""

from __future__ import annotations

import math

import numpy as np
import pytest

import physics
from physics import Motion
from physics.audit import audit

P = physics.DEFAULT_PARAMS
TABLE = physics.DEFAULT_TABLE
G = P.g

ON_A_BALL_BY_A_JAW = [  # soak.run_airborne(100000, 13) shot 87071: the cue ball comes down on the 4 by a corner jaw
    (87071, (6.697004962475903, 43.86845346306883, 88.63156448755952, 0.016471505469489455, 0.32837751978128743),
     {0: (0.02843988231527999, 0.07772457585488589), 1: (1.127579926856587, 0.028575),
      2: (1.2602948689565536, 1.3020910964562389), 3: (0.0325931898751477, 0.13476856060501186),
      4: (0.06046128747510846, 0.030250416375021127), 5: (0.02857519752732407, 2.022896856496747),
      6: (0.9252952457484745, 0.10553092201709315), 7: (0.0989551728586168, 0.2978269269490845),
      8: (0.873841023745084, 0.5419441670703451), 9: (0.10008715900836641, 0.07143477644146307)}),
]


def _energies(r: physics.SimResult, balls: dict) -> list[float]:
    """Total energy (kinetic, spin, height) after each event, each ball at its state at its last event (a bound:
    balls on the cloth lose energy between their events)."""
    ev = r.events
    last = {i: (np.array([*balls[i], 0, 0, 0, 0, 0, 0, -1], float), np.zeros(2)) for i in balls}
    out = []
    for k in range(len(ev)):
        for ball, state, air in ((ev.ball_a[k], ev.state_a[k], ev.air_a[k]),
                                 (ev.ball_b[k], ev.state_b[k], ev.air_b[k])):
            if ball >= 0:
                last[int(ball)] = (state.copy(), air.copy())
        e = 0.0
        for state, air in last.values():
            if state[7] in (Motion.POCKETED, Motion.OFF_TABLE):
                continue
            e += 0.5 * P.m * (state[2] ** 2 + state[3] ** 2 + air[1] ** 2) + P.m * G * air[0]
            e += 0.5 * P.inertia * float(np.sum(state[4:7] ** 2))
        out.append(e)
    return out


@pytest.mark.parametrize("index, shot, balls", ON_A_BALL_BY_A_JAW)
def test_a_ball_landing_on_a_ball_by_a_jaw_comes_off_it(index, shot, balls) -> None:
    """The cue ball comes down on ball 4, resting on the cloth by a corner pocket's jaw, and lies on it: the series
    of contacts gravity drives must end, the shot settle with every ball accounted for, no energy added. Ball 4
    rolls into the cue ball's shoulder faster than the cue ball, turned at its constant speed, can get away: before
    the fix the series of contacts (each impulse as small as its approach) went on to the event cap."""
    state = physics.place_balls(balls)
    r = physics.simulate(state, physics.Shot(*shot), TABLE, P)
    assert not r.hit_event_cap and not r.hit_time_cap and not r.unresolved
    assert len(r.events) < 2000
    physics.validate_state(r.state, TABLE, P)
    energies = _energies(r, balls)[1:]  # after the stick
    assert np.all(np.diff(energies) <= 1e-9 * energies[0])
    problems = audit(r, np.linspace(0.0, r.duration, 20001)[1:-1])
    assert not any(problems.values()), problems


def test_parting_a_ball_lying_on_one_that_drives_into_it_turns_both_at_constant_speed() -> None:
    """_part_air on an airborne ball lying on the shoulder of a ball on the cloth that rolls or slides into it faster
    than the upper one can get away: afterwards they part at ZENO_PART at least, every speed, spin magnitude and the
    lower ball's slip speed (so every energy) unchanged, the lower ball's velocity still horizontal."""
    from physics.kernels.air import _part_air
    from physics.kernels.codes import AIRBORNE
    from physics.kernels.steps import ZENO_PART

    R = P.R
    rng = np.random.default_rng(87071)
    turned_lower = 0
    for _ in range(500):
        polar = rng.uniform(0.0, 1.2)  # the upper ball's centre from the vertical over the lower one
        azimuth = rng.uniform(0.0, 2.0 * math.pi)
        n = np.array([math.sin(polar) * math.cos(azimuth), math.sin(polar) * math.sin(azimuth), math.cos(polar)])
        pos = np.array([[0.5 + 2 * R * n[0], 0.6 + 2 * R * n[1]], [0.5, 0.6]])
        hz = np.array([2 * R * n[2], 0.0])
        vel = np.array([rng.normal(0.0, 0.05, 2), rng.normal(0.0, 0.5, 2)])
        vz = np.array([rng.normal(0.0, 0.05), 0.0])
        spin = rng.normal(0.0, 20.0, (2, 3))
        motion = np.array([AIRBORNE, int(Motion.SLIDING)])
        before = (np.linalg.norm([*vel[0], vz[0]]), np.linalg.norm(vel[1]), np.linalg.norm(spin, axis=1),
                  np.hypot(vel[1, 0] - R * spin[1, 1], vel[1, 1] + R * spin[1, 0]))
        speed_up = before[0]
        v_low_n = vel[1] @ n[:2]
        if v_low_n - ZENO_PART <= speed_up:
            continue  # the upper ball alone can get away: covered by the soak shots
        if np.linalg.norm(vel[1]) * math.hypot(n[0], n[1]) < ZENO_PART:
            continue
        turned_lower += 1
        _part_air(0, 1, pos, vel, spin, motion, hz, vz)
        sep = (np.array([*vel[0], vz[0]]) - np.array([*vel[1], vz[1]])) @ n
        assert sep >= ZENO_PART * (1 - 1e-9)
        assert np.linalg.norm([*vel[0], vz[0]]) == pytest.approx(before[0], rel=1e-12)
        assert np.linalg.norm(vel[1]) == pytest.approx(before[1], rel=1e-12) and vz[1] == 0.0
        assert np.linalg.norm(spin, axis=1) == pytest.approx(before[2], rel=1e-12)
        slip = np.hypot(vel[1, 0] - R * spin[1, 1], vel[1, 1] + R * spin[1, 0])
        assert slip == pytest.approx(before[3], rel=1e-9, abs=1e-12)
    assert turned_lower > 50
