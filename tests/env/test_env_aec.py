"""The two-player PettingZoo AEC env: API test, the rules choose the mover, point of view, self-play."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from envkit import MISS, pot_action, position
from pettingzoo.test import api_test  # pettingzoo: the test extra

from nineball_env import observation
from nineball_env.aec import NineBallAEC, env as make_env
from nineball_env.aiming import AimingPolicy


def test_pettingzoo_api_test_passes_without_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make_env(), num_cycles=300)
        api_test(make_env(noise="icga", match_race=2), num_cycles=300)
    assert [str(w.message) for w in caught] == []


def test_self_play_to_the_end_of_a_rack():
    env = NineBallAEC(first_breaker="player_0")
    env.reset(seed=0)
    pol = AimingPolicy()
    movers, total = [], {"player_0": 0.0, "player_1": 0.0}
    for agent in env.agent_iter(max_iter=500):
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        movers.append(agent)
        env.step(None if term or trunc else pol.act(obs))
    assert sorted(total.values()) == [-1.0, 1.0]
    assert any(a == b for a, b in zip(movers, movers[1:]))  # a player who pockets moves again


def test_the_rules_pick_the_next_player_and_observations_are_the_movers():
    env = NineBallAEC(first_breaker="player_0")
    env.reset(seed=0)
    position(env, {0: (0.5, 1.5), 1: (0.2, 2.3), 9: (1.0, 1.0)}, counts=(0, 2))
    env.step(pot_action((0.5, 1.5), (0.2, 2.3)))
    assert env.agent_selection == "player_0" and env.infos["player_0"]["pocketed"] == (1,)
    env.step(MISS)  # no contact: a foul, the other player comes in with ball in hand
    assert env.agent_selection == "player_1"
    mine = observation.decode(env.observe("player_1"))
    theirs = observation.decode(env.observe("player_0"))
    assert mine["fouls"] == (2, 1) and mine["warning"] == (True, False) and mine["to_move"]
    assert theirs["fouls"] == (1, 2) and not theirs["to_move"] and mine["in_hand"] == "anywhere"


def test_bad_action_raises_and_changes_nothing():
    env = NineBallAEC()
    env.reset(seed=1)
    before = env.get_state()
    with pytest.raises(ValueError, match="NaN"):
        env.step(np.full(9, np.nan))
    after = env.get_state()
    assert after.balls == before.balls and after.rack == before.rack and after.rng_state == before.rng_state


def test_truncation_after_max_decisions_and_pickle():
    env = NineBallAEC(max_decisions=3)
    env.reset(seed=0)
    clone = pickle.loads(pickle.dumps(env))
    for e in (env, clone):
        for _ in range(3):
            e.step(MISS)
    assert all(env.truncations.values()) and env.truncations == clone.truncations
    assert env.observe("player_0").tobytes() == clone.observe("player_0").tobytes()


def test_rgb_render():
    env = NineBallAEC(render_mode="rgb_array")
    env.reset(seed=0)
    env.step(MISS)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape[2] == 3
