"""The players' own simulations of shots a cap stops with a ball in the air (``physics.SimResult.in_flight``, whose
log the rules refuse): replayed with the largest caps, as the env does, or worth nothing when still in the air."""

from __future__ import annotations

import numpy as np

import physics
from agents.shots.outcome import ruled_shots, simulate_resolved
from nineball_env import rules
from nineball_env.rules import RackState

R = physics.DEFAULT_PARAMS.R
Y_OBJ = physics.DEFAULT_TABLE.length - R - 0.2
LAYOUT = physics.place_balls({0: (0.6, Y_OBJ - 0.35), 5: (0.6, Y_OBJ)})
HOP = physics.Shot(V0=7.0, phi=90.0, theta=10.0)  # the cue ball leaves the cloth at once (test_env_airborne)
T, P = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS


def test_a_shot_capped_in_the_air_is_replayed_whole() -> None:
    assert physics.simulate(LAYOUT, HOP, max_events=5).in_flight
    full = physics.simulate(LAYOUT, HOP)
    result = simulate_resolved(LAYOUT, HOP, T, P, max_events=5, max_time=60.0)
    assert result is not None and not result.in_flight
    np.testing.assert_array_equal(result.events.rows, full.events.rows)


def test_a_shot_in_the_air_at_the_largest_caps_is_none_and_a_landed_one_is_as_simulated() -> None:
    assert simulate_resolved(LAYOUT, HOP, T, P, max_events=1000, max_time=0.001) is None  # replayed to 0.01 s
    flat = physics.Shot(V0=2.0, phi=90.0)
    result = simulate_resolved(LAYOUT, flat, T, P, max_events=1000, max_time=60.0)
    np.testing.assert_array_equal(result.events.rows, physics.simulate(LAYOUT, flat, max_events=1000).events.rows)


def _rack_of(state: physics.BallState) -> RackState:
    return RackState(breaker=0, shooter=0, on_table=frozenset(b for b in state.balls_on_table() if b) | {9},
                     phase="normal", ball_in_hand="none")


def test_ruled_shots_replay_a_capped_shot_and_void_what_stays_in_the_air_or_is_refused() -> None:
    flat = physics.Shot(V0=2.0, phi=90.0)
    overlap = physics.place_balls({0: (0.6, 1.0), 5: (0.6, 1.0 + R)})  # the physics refuses it
    states = [LAYOUT, overlap]
    racks = [_rack_of(s) for s in states]
    shots = [HOP, flat, flat]
    for caps, in_air in (((5, 60.0), False), ((1000, 0.001), True)):
        foul, potted, void = ruled_shots(states, racks, [0, 0, 1], shots, T, P, *caps)
        assert void.tolist() == [in_air, False, True]
        for i in (0, 1):
            result = simulate_resolved(LAYOUT, shots[i], T, P, *caps)
            if result is None:
                continue
            ruling = rules.decide_log(racks[0], result.events.rows)
            assert foul[i] == ruling.foul and potted[i] == sum(1 for b in ruling.pocketed if b)
