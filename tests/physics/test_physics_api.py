"""The Python API: validation errors name the field, racks, placement, sampling, table presets."""

import math

import numpy as np
import pytest
from helpers import P, TABLE

import physics
from physics import Shot


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"V0": float("nan"), "phi": 0.0}, "V0"),
        ({"V0": float("inf"), "phi": 0.0}, "V0"),
        ({"V0": 0.0, "phi": 0.0}, "V0"),
        ({"V0": 20.0, "phi": 0.0}, "V0"),
        ({"V0": 1.0, "phi": float("nan")}, "phi"),
        ({"V0": 1.0, "phi": 0.0, "theta": -1.0}, "theta"),
        ({"V0": 1.0, "phi": 0.0, "theta": 95.0}, "theta"),
        ({"V0": 1.0, "phi": 0.0, "a": 0.8, "b": 0.8}, "a, b"),
        ({"V0": 1.0, "phi": 0.0, "b": float("inf")}, "b"),
        ({"V0": "fast", "phi": 0.0}, "V0"),
    ],
)
def test_bad_shot_values_raise_naming_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        Shot(**kwargs)


def test_overlapping_balls_are_rejected():
    state = physics.place_balls({0: (0.5, 0.5), 1: (0.5, 0.5 + 1.5 * P.R)})
    with pytest.raises(ValueError, match="overlap"):
        physics.simulate(state, Shot(V0=1.0, phi=90.0))


@pytest.mark.parametrize("xy", [(0.01, 1.0), (0.6, 2.53), (-0.2, 0.5), (0.6, 3.0)])
def test_balls_outside_the_surface_are_rejected(xy):
    state = physics.place_balls({0: (0.5, 0.5), 3: xy})
    with pytest.raises(ValueError, match=r"state.pos\[3\]"):
        physics.simulate(state, Shot(V0=1.0, phi=90.0))


def test_ball_inside_a_pocket_is_rejected():
    state = physics.place_balls({0: (0.5, 0.5), 2: (P.R, P.R)})
    with pytest.raises(ValueError, match="pocket"):
        physics.validate_state(state, TABLE, P)


def test_nan_state_and_wrong_shapes_are_rejected():
    state = physics.place_balls({0: (0.5, 0.5)})
    state.vel[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        physics.simulate(state, None)
    state = physics.place_balls({0: (0.5, 0.5)})
    state.spin = np.zeros((10, 2))
    with pytest.raises(ValueError, match="state.spin"):
        physics.simulate(state, None)
    with pytest.raises(ValueError, match="state"):
        physics.simulate("not a state", None)


def test_bad_caps_and_types_are_rejected():
    state = physics.place_balls({0: (0.5, 0.5)})
    with pytest.raises(ValueError, match="max_events"):
        physics.simulate(state, Shot(V0=1.0, phi=0.0), max_events=0)
    with pytest.raises(ValueError, match="max_time"):
        physics.simulate(state, Shot(V0=1.0, phi=0.0), max_time=float("nan"))
    with pytest.raises(ValueError, match="shot"):
        physics.simulate(state, (1.0, 0.0))
    with pytest.raises(ValueError, match="table"):
        physics.simulate(state, Shot(V0=1.0, phi=0.0), table="9ft")


def test_shot_without_cue_ball_is_rejected():
    state = physics.place_balls({1: (0.5, 0.5)})
    with pytest.raises(ValueError, match="cue ball"):
        physics.simulate(state, Shot(V0=1.0, phi=0.0))


@pytest.mark.parametrize("name,value", [("R", -1.0), ("e_b", 1.5), ("u_s", float("nan")), ("cushion_model", "x")])
def test_bad_params_raise_naming_the_field(name, value):
    with pytest.raises(ValueError, match=name):
        physics.PhysicsParams(**{name: value})


def test_bad_table_spec_raises_naming_the_field():
    with pytest.raises(ValueError, match="corner_jaw_angle"):
        physics.TableSpec(corner_jaw_angle=200.0)
    with pytest.raises(ValueError, match="width"):
        physics.TableSpec(width=float("nan"))


def test_rack_has_1_on_foot_spot_9_in_centre_and_tight():
    rng = np.random.default_rng(7)
    state = physics.nine_ball_rack(rng)
    assert np.allclose(state.pos[1], TABLE.foot_spot)
    slots = physics.rack_positions()
    assert np.allclose(state.pos[9], slots[4])
    d = np.sqrt(((state.pos[1:, None] - state.pos[None, 1:]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    assert d.min() >= 2 * P.R and d.min() < 2 * P.R + 1e-6
    physics.validate_state(state, TABLE, P)


def test_rack_order_depends_on_the_generator_only():
    a = physics.nine_ball_rack(np.random.default_rng(1))
    b = physics.nine_ball_rack(np.random.default_rng(1))
    orders = {tuple(np.argsort(physics.nine_ball_rack(np.random.default_rng(s)).pos[:, 1] * 10
                               + physics.nine_ball_rack(np.random.default_rng(s)).pos[:, 0])) for s in range(10)}
    assert a == b and len(orders) > 1


def test_jittered_rack_never_overlaps():
    for seed in range(20):
        state = physics.nine_ball_rack(np.random.default_rng(seed), jitter=0.002)
        physics.validate_state(state, TABLE, P)


@pytest.mark.parametrize("maker,length,width", [
    (physics.Table.nine_foot, 2.54, 1.27), (physics.Table.eight_foot, 88 * 0.0254, 44 * 0.0254),
    (physics.Table.seven_foot, 78 * 0.0254, 39 * 0.0254)])
def test_table_presets_and_landmarks(maker, length, width):
    table = maker()
    assert table.length == pytest.approx(length) and table.width == pytest.approx(width)
    assert table.head_string_y == pytest.approx(length / 4)
    assert table.foot_spot == pytest.approx((width / 2, 0.75 * length))
    assert table.long_string[1] == pytest.approx((width / 2, length))
    assert table.in_kitchen(width / 2, length / 8) and not table.in_kitchen(width / 2, length / 2)
    assert table.segments.shape == (18, 6) and table.jaws.shape == (12, 3) and table.pockets.shape == (6, 3)
    # the corner mouth between jaw points is as specified
    assert math.hypot(table.segments[0, 0], table.segments[2, 1]) == pytest.approx(table.spec.corner_mouth)


def test_custom_table_runs_a_break():
    table = physics.Table.from_spec(physics.TableSpec(length=2.3, width=1.15, corner_mouth=0.12, jaw_radius=0.005))
    state = physics.nine_ball_rack(np.random.default_rng(0), table)
    result = physics.simulate(state, Shot(V0=7.0, phi=90.0), table)
    assert result.state.at_rest()


def test_sample_positions_matches_start_events_and_end():
    state = physics.nine_ball_rack(np.random.default_rng(2))
    result = physics.simulate(state, Shot(V0=6.0, phi=90.0))
    times = np.concatenate([[0.0], result.events.time, [result.duration + 1.0]])
    pos = physics.sample_positions(result, times)
    assert np.allclose(pos[0][state.on_table()], state.pos[state.on_table()])
    on = result.state.on_table()
    assert np.allclose(pos[-1][on], result.state.pos[on], atol=1e-9)
    for k, row in enumerate(range(len(result.events))):
        a = result.events.ball_a[row]
        assert np.allclose(pos[k + 1][a], result.events.state_a[row][:2], atol=1e-9)
    with pytest.raises(ValueError, match="times"):
        physics.sample_positions(result, np.array([1.0, 0.5]))


def test_check_numbers_names_the_field_and_the_bound() -> None:
    from dataclasses import dataclass

    from physics.checks import check_numbers

    @dataclass
    class Two:
        a: object = 1.0
        b: object = 2

    check_numbers(Two(), minimum=1.0)
    for bad, message in ((Two(a=True), "a: expected a finite number, got True"),
                         (Two(b=float("nan")), "b: expected a finite number, got nan"),
                         (Two(a="1"), "a: expected a finite number")):
        with pytest.raises(ValueError, match=message):
            check_numbers(bad)
    with pytest.raises(ValueError, match=r"x\['a'\]: expected a finite number > 1, got 1.0"):
        check_numbers(Two(), label="x[{!r}]", minimum=1.0, exclusive=True)
    check_numbers(Two(a=-5.0), ["b"], minimum=0.0)  # only the named fields
    with pytest.raises(ValueError, match="a: expected a finite number >= 0"):
        check_numbers(Two(a=-5.0), minimum=0.0)
    with pytest.raises(ValueError, match="corner_mouth: expected a finite number > 0"):
        physics.TableSpec(corner_mouth=0.0)
