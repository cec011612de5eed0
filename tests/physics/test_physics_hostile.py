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


# ---------------------------------------------------------------------------------------------
# Issue 29: no ball in the air in an input state, pocket numbers that match the motion codes, a rail no lower than the
# nose, ``max_events`` a hard cap on the log, a capped flight unresolved (never a ball taken off by the cap).

JUMP = physics.Shot(V0=4.5, phi=90.0, theta=45.0, b=0.707)  # the cue ball jumps over ball 1 and lands beyond it


def _jump_table() -> physics.BallState:
    return physics.place_balls({0: (0.6, 0.5), 1: (0.6, 0.8), 2: (0.3, 1.6)})


def _each_entry(state: physics.BallState, table: physics.Table = physics.DEFAULT_TABLE, params=P) -> list:
    """``simulate``, ``simulate_batch``, ``simulate_batch_packed`` and ``validate_state`` on one state."""
    return [lambda: physics.simulate(state, physics.Shot(2.0, 90.0), table, params),
            lambda: physics.simulate_batch([state], [physics.Shot(2.0, 90.0)], table, params),
            lambda: physics.simulate_batch_packed(state.packed()[None], np.array([[2.0, 90.0, 0.0, 0.0, 0.0]]), table,
                                                  params),
            lambda: physics.validate_state(state, table, params)]


def test_a_ball_in_the_air_is_no_input() -> None:
    """The issue's state: ball 1 AIRBORNE (a state has no heights), which the cue ball passed straight through."""
    state = physics.place_balls({0: (0.6, 0.6), 1: (0.6, 1.8), 2: (0.3, 1.2)})
    state.motion[1] = int(physics.Motion.AIRBORNE)
    for call in _each_entry(state):
        with pytest.raises(ValueError, match=r"state\.motion\[1\]: ball 1 is AIRBORNE"):
            call()


@pytest.mark.parametrize("motion", [physics.Motion.STATIONARY, physics.Motion.ROLLING, physics.Motion.OFF_TABLE])
def test_a_pocket_number_on_a_ball_that_is_not_pocketed_is_rejected(motion: physics.Motion) -> None:
    state = two_balls()
    state.motion[1] = int(motion)
    state.pocket[1] = 3
    for call in _each_entry(state):
        with pytest.raises(ValueError, match=rf"state\.pocket\[1\]: expected -1 for ball 1, which is not pocketed "
                                             rf"\(motion {motion.name}\), got 3"):
            call()


def test_a_pocketed_ball_may_name_its_pocket_or_none() -> None:
    state = two_balls()
    state.remove(1)  # POCKETED, no pocket: off the table (``BallState.remove``)
    for call in _each_entry(state):
        call()
    state.pocket[1] = 5
    for call in _each_entry(state):
        call()


@pytest.mark.parametrize("table, params", [
    (physics.Table.from_spec(physics.TableSpec(rail_height=1e-6)), P),
    (physics.DEFAULT_TABLE, physics.PhysicsParams(R=0.06)),  # its nose (0.0762 m) is above the rail's top (0.0381 m)
])
def test_a_rail_lower_than_the_cushion_nose_is_rejected(table: physics.Table, params: physics.PhysicsParams) -> None:
    state = physics.place_balls({0: (0.6, 0.6)})
    for call in _each_entry(state, table, params):
        with pytest.raises(ValueError, match=r"table\.spec\.rail_height, params\.R: the rail's top .* is below the "
                                             r"cushion nose"):
            call()
    physics.validate_state(state, physics.Table.from_spec(physics.TableSpec(rail_height=P.cushion_height)), P)


def _hop_break() -> tuple[physics.BallState, physics.Shot]:
    """A flat 7 m/s break whose cue ball hops off the head ball (the loop goes on with balls in the air from that
    contact)."""
    state = physics.nine_ball_rack(np.random.default_rng(3))
    state.place(0, 0.635, 0.5)
    shot = physics.Shot(7.0, 90.0)
    assert physics.simulate(state, shot).events.air is not None, "the break hops"
    return state, shot


@pytest.mark.parametrize("case", ["jump", "hop", "flat"])
def test_max_events_is_a_hard_cap_on_the_log(case: str) -> None:
    """With ``max_events`` = m the log holds at most m rows, exactly the first m of the uncapped shot's when it has
    more (a take-off or a ball leaving the table that finds the log full is not logged: the ball stays in the air),
    and the cap is flagged exactly then: 921a595 returned 3 events for a jump shot at max_events = 1."""
    if case == "jump":
        state, shot = _jump_table(), JUMP
    elif case == "hop":
        state, shot = _hop_break()
    else:
        state, shot = physics.place_balls({0: (0.6, 0.4), 1: (0.6, 1.6), 2: (0.65, 1.7)}), physics.Shot(6.0, 90.0)
    full = physics.simulate(state, shot)
    assert len(full.events) > 6 and not full.hit_event_cap
    for m in range(1, len(full.events) + 2):
        r = physics.simulate(state, shot, max_events=m)
        assert len(r.events) == min(m, len(full.events)) and r.hit_event_cap == (len(full.events) > m), m
        np.testing.assert_array_equal(r.events.rows, full.events.rows[:len(r.events)])
        batch = physics.simulate_batch([state], [shot], max_events=m)
        assert batch.n_events[0] == len(r.events) and batch.hit_event_cap[0] == r.hit_event_cap
        assert batch.in_flight[0] == r.in_flight and batch.state(0) == r.state


def test_a_capped_flight_is_unresolved_and_nothing_takes_the_ball_off() -> None:
    """A cap that stops the shot with the cue ball in the air leaves it AIRBORNE where it flies (``in_flight``): no
    BALL_OFF_TABLE that the rules would read as a scratch (921a595 took it off, unresolved), and its state is no
    input (where the ball comes down is not known)."""
    for kwargs in ({"max_events": 1}, {"max_events": 3}, {"max_time": 0.05}):
        r = physics.simulate(_jump_table(), JUMP, **kwargs)
        assert r.in_flight and (r.hit_event_cap or r.hit_time_cap) and not r.unresolved, kwargs
        assert r.state.motion[0] == physics.Motion.AIRBORNE
        assert physics.EventKind.BALL_OFF_TABLE not in r.events.kind
        with pytest.raises(ValueError, match="AIRBORNE"):
            physics.simulate(r.state, None)
        batch = physics.simulate_batch([_jump_table()], [JUMP], **kwargs)
        assert batch.in_flight[0] and batch.state(0) == r.state and batch.result(0).in_flight
    uncapped = physics.simulate(_jump_table(), JUMP)
    assert not uncapped.in_flight and uncapped.state.motion[0] == physics.Motion.STATIONARY


def test_a_batch_result_of_a_jump_has_its_heights() -> None:
    """``BatchResult.result(k)`` of a shot with a ball in the air is simulated alone (its heights are not in the batch's
    log): 921a595 read them as zeros. A log built from a batch's rows refuses to read heights it does not hold."""
    flat = physics.Shot(2.0, 90.0)
    batch = physics.simulate_batch([_jump_table(), _jump_table()], [JUMP, flat])
    assert batch.airborne.tolist() == [True, False]
    alone = physics.simulate(_jump_table(), JUMP)
    np.testing.assert_array_equal(batch.result(0).events.air_a, alone.events.air_a)
    assert np.any(batch.result(0).events.air_a[:, 1] > 1.0)  # its take-off speed [m/s]
    assert not np.any(batch.result(1).events.air_a)  # flat: zeros are the heights
    with pytest.raises(ValueError, match="no heights"):
        physics.EventLog(batch.logs[0, :batch.n_events[0]]).air_a
