"""Ball-in-hand placement: legal spots, the nearest legal spot, the kitchen, and strict mode."""

from __future__ import annotations

import math

import numpy as np
import pytest
from envkit import R, TABLE, W, Scripted, act, position

from nineball_env import placement
from nineball_env.env import NineBallEnv


def _clear_of(spot, others):
    return all(math.dist(spot, o) >= 2 * R for o in others)


def test_is_free_checks_balls_pockets_rails_and_kitchen():
    others = np.array([[0.6, 1.0]])
    assert placement.is_free(0.6, 1.2, others)
    assert not placement.is_free(0.6, 1.0 + 2 * R - 1e-6, others)
    assert not placement.is_free(R / 2, 1.0, others)  # in the rail
    assert not placement.is_free(R, R, others)  # inside the corner pocket's capture circle
    assert not placement.is_free(0.6, 1.0, np.zeros((0, 2)), kitchen=True)  # past the head string
    assert placement.is_free(0.6, TABLE.head_string_y, np.zeros((0, 2)), kitchen=True)


@pytest.mark.parametrize("xy, others, kitchen", [
    ((0.6, 1.0), [(0.6, 1.0)], False),  # right on a ball
    ((0.6, 1.0), [(0.6, 1.0), (0.6 + 2 * R, 1.0), (0.6 - 2 * R, 1.0)], False),  # in a row of balls
    ((0.0, 0.0), [], False),  # in the corner pocket
    ((0.6, 0.7), [], True),  # past the head string on the break
    ((0.6, TABLE.head_string_y), [(0.6, TABLE.head_string_y)], True),  # a ball on the head string
])
def test_nearest_free_is_legal_and_close(xy, others, kitchen):
    others = np.array(others, dtype=float).reshape(-1, 2)
    spot = placement.nearest_free(*xy, others, kitchen=kitchen)
    assert placement.is_free(*spot, others, kitchen=kitchen)
    assert math.dist(spot, xy) < 0.2
    if len(others):
        assert min(math.dist(spot, o) for o in others) == pytest.approx(2 * R, abs=1e-5)


def test_nearest_free_keeps_a_legal_spot():
    assert placement.nearest_free(0.4, 0.4, np.array([[0.9, 0.9]])) == (0.4, 0.4)


def test_env_moves_an_overlapping_placement_and_reports_it():
    env = NineBallEnv(opponent=Scripted([act(90.0, 0.5, placement=(0.3, 0.3))]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {1: (0.6, 1.5), 9: (0.9, 2.0)}, bih="anywhere")
    _, _, _, _, info = env.step(act(90.0, 2.0, placement=(0.6, 1.5)))  # right on the 1 ball
    assert info["placement_adjusted"]
    assert _clear_of(info["placement"], [(0.6, 1.5), (0.9, 2.0)])
    assert math.dist(info["placement"], (0.6, 1.5)) == pytest.approx(2 * R, abs=1e-5)


def test_strict_placement_raises_and_changes_nothing():
    env = NineBallEnv(first_breaker="learner", strict_placement=True)
    env.reset(seed=0)
    position(env, {1: (0.6, 1.5), 9: (0.9, 2.0)}, bih="anywhere")
    before = env.get_state()
    obs_before = env._game.observe(0)
    with pytest.raises(ValueError, match="placement"):
        env.step(act(90.0, 2.0, placement=(0.6, 1.5)))
    after = env.get_state()
    assert after.balls == before.balls and after.rack == before.rack and after.rng_state == before.rng_state
    np.testing.assert_array_equal(env._game.observe(0), obs_before)
    _, _, _, _, info = env.step(act(90.0, 2.0, placement=(0.6, 1.0)))  # a legal spot is fine
    assert not info["placement_adjusted"] and info["placement"] == pytest.approx((0.6, 1.0))


def test_kitchen_placement_on_the_break_stays_behind_the_head_string():
    env = NineBallEnv(first_breaker="learner")
    env.reset(seed=3)
    _, _, _, _, info = env.step(act(90.0, 8.0, placement=(W / 2, 0.5), bih="kitchen"))
    x, y = info["placement"]
    assert not info["placement_adjusted"] and y <= TABLE.head_string_y and (x, y) == pytest.approx((W / 2, 0.5))
