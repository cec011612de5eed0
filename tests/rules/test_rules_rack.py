"""The rack state machine: new racks (R-RACK), spotting the 9 (R-SPOT-9), and where a cue ball in hand may go
(R-BIH, R-BREAK-POS: the env's one placement check)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from rules_testkit import FOUR_TO_RAIL, state

from nineball_env import placement
from nineball_env.rules import (
    BallInHand,
    Phase,
    RackState,
    decide,
    new_rack,
    rack_order,
    rail,
    spot_nine,
)
import physics.rack
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, Table, TableSpec

G = DEFAULT_TABLE
R = DEFAULT_PARAMS.R
FX, FY = G.foot_spot


def test_r_table_default_geometry() -> None:
    assert (G.width, G.length) == pytest.approx((1.27, 2.54))
    assert math.isclose(2 * R, 0.05715)
    assert G.head_string_y == pytest.approx(2.54 / 4)
    assert G.foot_spot == pytest.approx((0.635, 2.54 * 0.75))


def test_r_rack_one_at_the_apex_nine_in_the_centre_others_shuffled() -> None:
    orders = {rack_order(np.random.default_rng(seed)) for seed in range(40)}
    for order in orders:
        assert order[0] == 1 and order[4] == 9 and sorted(order) == list(range(1, 10))
    assert len(orders) > 30  # 2–8 really are shuffled


def test_r_rack_is_reproducible_from_the_seed() -> None:
    assert rack_order(np.random.default_rng(7)) == rack_order(np.random.default_rng(7))
    with pytest.raises(ValueError):
        rack_order(7)  # type: ignore[arg-type]


def test_r_rack_draw_matches_the_physics_layout() -> None:
    """The same generator state gives the physics core's rack the same order, so the env can combine them."""
    slots = physics.rack.rack_positions()
    for seed in range(5):
        balls = physics.rack.nine_ball_rack(np.random.default_rng(seed))
        order = rack_order(np.random.default_rng(seed))
        for slot, ball in enumerate(order):
            assert balls.pos[ball] == pytest.approx(slots[slot])


def test_r_break_pos_new_rack_starts_with_ball_in_hand_in_the_kitchen() -> None:
    rack, order = new_rack(np.random.default_rng(0), breaker=1)
    assert rack == RackState.start(1) and rack.on_table == set(order)
    assert rack.phase == "break" and rack.ball_in_hand == "kitchen" and rack.shooter == 1
    assert rack.foul_counts == (0, 0)


def _rack_positions() -> dict[int, tuple[float, float]]:
    d = 2 * R + 1e-8
    rows = [(1,), (2, 3), (4, 9, 5), (6, 7), (8,)]
    out = {}
    for i, row in enumerate(rows):
        for j, ball in enumerate(row):
            out[ball] = (FX + (j - (len(row) - 1) / 2) * d, FY + i * d * math.sqrt(3) / 2)
    return out


RACKED = _rack_positions()


def _free(xy, positions, kitchen: bool = False) -> bool:
    """The one ball-in-hand check (``nineball_env.placement.is_free``) among the balls at ``positions``."""
    others = np.array(list(positions.values()), dtype=float).reshape(-1, 2)
    return placement.is_free(*xy, others, kitchen=kitchen)


@pytest.mark.parametrize("xy", [(0.635, G.head_string_y), (R, 0.2), (G.width - R, 0.3), (0.2, 0.1)])
def test_r_break_pos_anywhere_in_the_kitchen(xy) -> None:
    assert _free(xy, RACKED, kitchen=True)


@pytest.mark.parametrize("xy", [(0.635, G.head_string_y + 0.001), (0.635, 1.5)])
def test_r_break_pos_not_beyond_the_head_string(xy) -> None:
    assert not _free(xy, RACKED, kitchen=True)


def test_r_break_pos_not_touching_a_ball_in_the_kitchen() -> None:
    assert not _free((0.5, 0.3), {4: (0.5 + 2 * R - 1e-6, 0.3)}, kitchen=True)


def test_r_bih_anywhere_after_a_foul() -> None:
    rack = decide(state(), [rail(0, .2)]).after
    assert rack.ball_in_hand == "anywhere"
    assert _free((0.635, 1.5), RACKED)
    assert _free((FX - 2 * R, FY - 2 * R), RACKED)  # beside the 1


@pytest.mark.parametrize("xy,why", [
    ((FX, FY - 2 * R + 1e-6), "touching the 1"),
    ((FX, FY), "on top of the 1"),
    ((R - 0.001, 1.0), "over the cushion"),
    ((0.5, G.length), "over the foot cushion"),
    ((math.nan, 1.0), "not a number"),
])
def test_r_bih_placement_must_be_on_the_surface_and_touch_no_ball(xy, why) -> None:
    assert not _free(xy, RACKED)


def test_r_bih_a_placement_just_clear_of_a_ball_is_allowed() -> None:
    assert _free((FX, FY - 2 * R - 1e-9), {1: (FX, FY)})


# R-SPOT-9 ----------------------------------------------------------------------------------------


def _clear_of_all(xy, positions) -> bool:
    return all(math.dist(xy, p) >= 2 * R for b, p in positions.items() if b != 9)


def test_r_spot_9_on_the_foot_spot_when_free() -> None:
    assert spot_nine({2: (0.3, 1.0), 9: (0.1, 0.1)}) == (FX, FY)
    assert spot_nine({}) == (FX, FY)


def test_r_spot_9_behind_the_foot_spot_when_it_is_occupied() -> None:
    positions = {1: (FX, FY)}
    x, y = spot_nine(positions)
    assert x == FX and y == pytest.approx(FY + 2 * R, abs=1e-7) and y > FY
    assert _clear_of_all((x, y), positions)


def test_r_spot_9_as_close_as_possible_behind_past_a_row_of_balls() -> None:
    d = 2 * R
    positions = {1: (FX, FY), 2: (FX + 0.01, FY + d + 0.005), 3: (FX - 0.02, FY + 3 * d)}
    x, y = spot_nine(positions)
    assert _clear_of_all((x, y), positions) and y > FY
    # no free point on the string between the foot spot and the answer
    for t in np.linspace(FY, y - 1e-6, 400):
        assert not _clear_of_all((FX, t), positions)


def test_r_spot_9_in_front_when_the_whole_long_string_behind_is_blocked() -> None:
    # On a full-size table eight balls cannot cover the long string; on a short one they can.
    g = Table.from_spec(TableSpec(width=1.27, length=1.6))
    fx, fy = g.foot_spot
    ys = np.arange(fy, g.length, 2 * R * 0.99)
    positions = {i + 1: (fx, float(y)) for i, y in enumerate(ys[:8])}
    assert max(y for _, y in positions.values()) + 2 * R > g.length - R  # blocked up to the foot cushion
    x, y = spot_nine(positions, g)
    assert x == fx and y < fy
    assert y == pytest.approx(fy - 2 * R, abs=1e-7) and _clear_of_all((x, y), positions)


def test_r_spot_9_ignores_its_own_old_position_and_balls_off_the_line() -> None:
    assert spot_nine({9: (FX, FY), 3: (FX + 2 * R + 0.001, FY)}) == (FX, FY)


def test_r_spot_9_in_the_full_rack_geometry_never_touches_a_ball() -> None:
    positions = {b: xy for b, xy in RACKED.items() if b != 9}
    xy = spot_nine(positions)
    assert _clear_of_all(xy, positions) and xy[1] > FY


def test_r_spot_9_fails_loudly_when_the_whole_centre_line_is_blocked() -> None:
    g = Table.from_spec(TableSpec(width=0.5, length=0.5))
    with pytest.raises(ValueError, match="R-SPOT-9"):
        spot_nine({1: (0.25, 0.25)}, g, 0.1)


# Applying rulings --------------------------------------------------------------------------------


def test_rack_states_pack_into_kernel_rows_and_back() -> None:
    """``RackState.packed`` / ``from_packed`` (what the rules kernel reads and writes) round-trip every kind of state."""
    states = [RackState(), RackState.start(1, {3, 5, 9}),
              RackState(0, 1, frozenset({2, 9}), Phase.NORMAL, BallInHand.ANYWHERE, (2, 1)),
              RackState(1, 0, frozenset({4, 9}), Phase.PUSH_OUT_CHOICE, BallInHand.NONE, (0, 2)),
              RackState(0, None, frozenset({7}), Phase.RACK_OVER, BallInHand.NONE, (3, 1), winner=1,
                        ended_by="R-THREE-FOULS"),
              RackState(1, None, frozenset(), Phase.RACK_OVER, BallInHand.NONE, (0, 0), winner=1, ended_by="R-WIN-9")]
    for state in states:
        row = state.packed()
        assert row.dtype == np.int64 and RackState.from_packed(row) == state == state.unpack(row)


def test_rack_state_reads_every_spelling_of_its_fields_as_the_same_state() -> None:
    """RackState's fields normalise alike whether they come as the types they are stored as (the fast path) or as
    numbers and names to convert: sets of numpy ints or bools equal to a set of balls read as that set of ints, and
    what is no set of object balls is still refused (R-LOWEST reads the set)."""
    plain = RackState(breaker=1, shooter=0, on_table=frozenset({1, 4, 9}), phase=Phase.NORMAL,
                      ball_in_hand=BallInHand.ANYWHERE, foul_counts=(1, 0))
    spelled = [
        RackState(breaker=1, shooter=0, on_table=frozenset({True, np.int64(4), 9}), phase=Phase.NORMAL,
                  ball_in_hand=BallInHand.ANYWHERE, foul_counts=(1, 0)),
        RackState(breaker=np.int64(1), shooter=0, on_table=[1, 4, 9], phase="normal", ball_in_hand="anywhere",
                  foul_counts=(np.int64(1), 0)),
        RackState(breaker=1, shooter=0, on_table=frozenset({1.0, 4, 9}), phase=Phase.NORMAL,
                  ball_in_hand=BallInHand.ANYWHERE, foul_counts=[1, 0]),
    ]
    for state in spelled:
        assert state == plain and all(type(b) is int for b in state.on_table) and state.lowest == 1
        assert type(state.foul_counts) is tuple and all(type(c) is int for c in state.foul_counts)
    for bad in (frozenset({0, 9}), frozenset({4, 10}), frozenset()):
        with pytest.raises(ValueError, match="on_table"):
            RackState(on_table=bad, phase=Phase.NORMAL, ball_in_hand=BallInHand.NONE)
    with pytest.raises(ValueError, match="foul_counts"):
        RackState(on_table=frozenset({9}), phase=Phase.NORMAL, ball_in_hand=BallInHand.NONE, foul_counts=(1, 4))
