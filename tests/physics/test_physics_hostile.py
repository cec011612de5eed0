"""Hostile inputs (issue 10): each is a ValueError naming the field before anything is simulated — never a numba
error, OverflowError, MemoryError, a hang or a silently absurd result."""

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import physics
from physics.api import MAX_EVENTS_LIMIT
from physics.batch import MAX_LOG_ROWS
from physics.kernels.layout import MAX_BALL_SPEED, MAX_SURFACE_SPEED

P = physics.DEFAULT_PARAMS


def two_balls() -> physics.BallState:
    return physics.place_balls({0: (0.6, 0.6), 1: (0.6, 1.6)})


@pytest.mark.parametrize("value", [True, np.bool_(False), "2.0", Decimal("2.0"), Fraction(2, 1), 2 + 0j, None,
                                   [2.0], 10**400])
@pytest.mark.parametrize("field", ["V0", "phi", "theta", "a", "b"])
def test_shot_fields_that_are_not_real_numbers_are_rejected(field: str, value: object) -> None:
    kwargs = {"V0": 2.0, "phi": 0.0, field: value}
    with pytest.raises(ValueError, match=field):
        physics.Shot(**kwargs)


def test_shot_accepts_ints_and_numpy_reals_as_floats() -> None:
    shot = physics.Shot(np.float32(2.5), np.int64(90), 0, np.float64(0.1), 0)
    assert shot == physics.Shot(2.5, 90.0, 0.0, 0.1, 0.0)
    assert all(type(getattr(shot, f)) is float for f in ("V0", "phi", "theta", "a", "b"))


@pytest.mark.parametrize("field,value", [("vel", (1e40, 0.0)), ("vel", (MAX_BALL_SPEED * 1.01, 0.0)),
                                         ("spin", (0.0, 0.0, 1.01 * MAX_SURFACE_SPEED / P.R)),
                                         ("spin", (1e300, 0.0, 0.0))])
def test_ball_speeds_and_spins_no_shot_can_produce_are_rejected(field: str, value: tuple) -> None:
    state = two_balls()
    getattr(state, field)[1] = value
    state.motion[1] = int(physics.Motion.SLIDING)
    with pytest.raises(ValueError, match=rf"state\.vel\[1\]/state\.spin\[1\]"):
        physics.simulate(state, None)
    with pytest.raises(ValueError, match=r"states\[0\]: state\.vel\[1\]"):
        physics.simulate_batch_packed(state.packed()[None], np.full((1, 5), np.nan))
    with pytest.raises(ValueError, match=r"state\.vel\[1\]"):
        physics.validate_state(state, physics.DEFAULT_TABLE, P)


def test_the_fastest_shot_stays_inside_the_bound() -> None:
    """The bound is physical: the hardest strike of any tip offset and elevation launches well below it."""
    from physics.api import params_array, shot_array
    from physics.kernels.resolve import cue_strike

    fastest, fastest_spin = 0.0, 0.0
    for a in np.linspace(-0.9, 0.9, 13):
        for b in np.linspace(-0.9, 0.9, 13):
            if np.hypot(a, b) > 0.9:
                continue
            for theta in (0.0, 30.0, 60.0, 89.0):
                vx, vy, _vz, wx, wy, wz = cue_strike(*shot_array(physics.Shot(12.0, 0.0, theta, a, b)), params_array(P))
                fastest = max(fastest, np.hypot(vx, vy))
                fastest_spin = max(fastest_spin, P.R * np.sqrt(wx * wx + wy * wy + wz * wz))
    assert fastest < 0.7 * MAX_BALL_SPEED and fastest_spin < 0.3 * MAX_SURFACE_SPEED


@pytest.mark.parametrize("max_events", [MAX_EVENTS_LIMIT + 1, 10**30, 0, True, 5.0, "10"])
def test_event_caps_beyond_the_limit_are_rejected(max_events: object) -> None:
    with pytest.raises(ValueError, match="max_events"):
        physics.simulate(two_balls(), physics.Shot(2.0, 90.0), max_events=max_events)
    with pytest.raises(ValueError, match="max_events"):
        physics.simulate_batch([two_balls()], [physics.Shot(2.0, 90.0)], max_events=max_events)


@pytest.mark.parametrize("max_time", [True, float("inf"), 0.0, "1", 1 + 0j])
def test_bad_time_caps_are_rejected(max_time: object) -> None:
    with pytest.raises(ValueError, match="max_time"):
        physics.simulate(two_balls(), physics.Shot(2.0, 90.0), max_time=max_time)


@pytest.mark.parametrize("log_capacity", [MAX_EVENTS_LIMIT + 1, 10**30, 0, True])
def test_log_capacities_beyond_the_limit_are_rejected(log_capacity: object) -> None:
    with pytest.raises(ValueError, match="log_capacity"):
        physics.simulate_batch([two_balls()], [physics.Shot(2.0, 90.0)], log_capacity=log_capacity)


def test_a_batch_whose_logs_would_not_fit_in_memory_is_rejected_before_allocating() -> None:
    B = 64
    states = np.repeat(two_balls().packed()[None], B, axis=0)
    with pytest.raises(ValueError, match="log_capacity.*log rows"):
        physics.simulate_batch_packed(states, np.full((B, 5), np.nan), log_capacity=MAX_LOG_ROWS // B + 1,
                                      max_events=MAX_EVENTS_LIMIT)


def test_big_endian_and_strided_arrays_are_converted_and_simulate_identically() -> None:
    state = two_balls()
    shot = physics.Shot(3.0, 90.0, 0.0, 0.2, -0.3)
    reference = physics.simulate(state, shot)
    swapped = physics.BallState(state.pos.astype(">f8"), state.vel.astype(">f8"), state.spin.astype(">f8"),
                                state.motion.astype(">i8"), state.pocket.astype(">i4"))
    strided = physics.BallState(np.asfortranarray(state.pos), state.vel.copy(), state.spin.copy(),
                                np.repeat(state.motion, 2)[::2], state.pocket.astype(np.int32))
    for other in (swapped, strided):
        result = physics.simulate(other, shot)
        assert result.state == reference.state
        assert np.array_equal(result.events.rows, reference.events.rows)
    packed = physics.simulate_batch_packed(state.packed()[None].astype(">f8"),
                                           np.array([[3.0, 90.0, 0.0, 0.2, -0.3]], dtype=">f8"))
    assert packed.state(0) == reference.state


@pytest.mark.parametrize("dtype", [np.complex128, object, np.bool_, "U8"])
@pytest.mark.parametrize("field", ["pos", "vel", "spin", "motion", "pocket"])
def test_complex_object_bool_and_string_arrays_are_rejected(field: str, dtype: object) -> None:
    state = two_balls()
    setattr(state, field, getattr(state, field).astype(dtype))
    with pytest.raises(ValueError, match=f"state.{field}"):
        physics.simulate(state, physics.Shot(2.0, 90.0))


@pytest.mark.parametrize("dtype", [np.complex128, object])
def test_complex_and_object_packed_states_and_shots_are_rejected(dtype: object) -> None:
    states = two_balls().packed()[None]
    shots = np.array([[2.0, 90.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="states"):
        physics.simulate_batch_packed(states.astype(dtype), shots)
    with pytest.raises(ValueError, match="shots"):
        physics.simulate_batch_packed(states, shots.astype(dtype))


@pytest.mark.parametrize("column,value,field", [(7, np.nan, "7"), (7, 2.5, "7"), (7, -1.0, "7"), (7, 7.0, "7"),
                                                (7, 1e300, "7"), (8, np.nan, "8"), (8, 6.0, "8"), (8, -2.0, "8"),
                                                (8, 0.5, "8"), (8, np.inf, "8")])
def test_packed_rows_with_bad_motion_or_pocket_codes_are_rejected(column: int, value: float, field: str) -> None:
    states = two_balls().packed()[None]
    states[0, 1, column] = value
    with pytest.raises(ValueError, match=rf"states\[0\]\[1, {field}\]: expected .*whole"):
        physics.simulate_batch_packed(states, np.array([[2.0, 90.0, 0.0, 0.0, 0.0]]))


@pytest.mark.parametrize("pocket", [6, -2, 99, np.iinfo(np.int64).min])
def test_out_of_range_pocket_numbers_are_rejected(pocket: int) -> None:
    state = two_balls()
    state.remove(1)
    state.pocket[1] = pocket
    with pytest.raises(ValueError, match=r"state\.pocket\[1\]"):
        physics.simulate(state, physics.Shot(2.0, 90.0))
    with pytest.raises(ValueError, match=r"state\.pocket\[1\]"):
        physics.validate_state(state, physics.DEFAULT_TABLE, P)
    with pytest.raises(ValueError, match=r"states\[0\]\[1, 8\]"):
        physics.simulate_batch([state], [physics.Shot(2.0, 90.0)])


def test_unknown_motion_codes_are_rejected() -> None:
    state = two_balls()
    state.motion[1] = 9
    with pytest.raises(ValueError, match=r"state\.motion\[1\]"):
        physics.simulate(state, physics.Shot(2.0, 90.0))


@pytest.mark.parametrize("result", [None, "result", 3.0])
def test_sample_positions_needs_a_result(result: object) -> None:
    with pytest.raises(ValueError, match="result"):
        physics.sample_positions(result, np.array([0.0, 1.0]))


@pytest.mark.parametrize("times", [None, ["a", "b"], np.array([1 + 1j]), [[0.0, 1.0]], [np.nan], [-1.0]])
def test_sample_positions_needs_real_times(times: object) -> None:
    result = physics.simulate(two_balls(), physics.Shot(2.0, 90.0))
    with pytest.raises(ValueError, match="times"):
        physics.sample_positions(result, times)
