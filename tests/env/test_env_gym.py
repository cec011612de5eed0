"""NineBall-v0 as a Gymnasium env: checkers, registration, determinism, pickling, state, bad input, info, opponents."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from envkit import MISS, Scripted, act, pot_action, position

import nineball_env
from nineball_env.env import NineBallEnv

INFO_KEYS = {"ruling", "pocketed", "placement", "placement_adjusted", "n_events", "voided", "opponent", "phase",
             "ball_in_hand", "foul_counts", "score", "racks", "redeals", "reward_parts"}


def _rollout(env, seed: int, n: int, action_seed: int = 0):
    """(observations, rewards, flags, ruling texts) of ``n`` random learner decisions, resetting as needed."""
    rng = np.random.default_rng(action_seed)
    obs, info = env.reset(seed=seed)
    trace = [(obs.tobytes(), info["opponent"]["rulings"])]
    for _ in range(n):
        obs, r, term, trunc, info = env.step(rng.uniform(-1, 1, 9).astype(np.float32))
        trace.append((obs.tobytes(), r, term, trunc, info["ruling"]["text"], info["opponent"]["rulings"]))
        if term or trunc:
            obs, info = env.reset()
            trace.append((obs.tobytes(), info["opponent"]["rulings"]))
    return trace


def test_gymnasium_check_env_passes_without_warnings():
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make("NineBall-v0").unwrapped)
        check_env(gym.make("NineBall-v0", render_mode="rgb_array", noise="icga").unwrapped)
    assert [str(w.message) for w in caught] == []


@pytest.mark.extra("train")
def test_sb3_check_env_passes_without_warnings():
    import stable_baselines3.common.env_checker as sb3_checker

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(NineBallEnv(), warn=True)
        sb3_checker.check_env(NineBallEnv(match_race=3, noise="icga"), warn=True)
    assert [str(w.message) for w in caught] == []


def test_registered_with_a_time_limit_and_options():
    env = gym.make("NineBall-v0", noise="icga", match_race=3, first_breaker="learner")
    assert env.spec.id == "NineBall-v0" and env.spec.max_episode_steps == 200
    assert isinstance(env.unwrapped, nineball_env.NineBallEnv)
    assert env.unwrapped.noise.phi == 0.125 and env.unwrapped.config.race_to == 3


def test_same_seed_same_episode_bit_for_bit():
    make = lambda: NineBallEnv(noise="icga", first_breaker="random")  # noqa: E731
    assert _rollout(make(), 11, 60) == _rollout(make(), 11, 60)
    assert _rollout(make(), 11, 60) != _rollout(make(), 12, 60)


def test_pickle_round_trip_continues_identically():
    env = NineBallEnv(noise="icga")
    env.reset(seed=5)
    env.step(np.zeros(9, dtype=np.float32))
    copy = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(1)
    for _ in range(20):
        a = rng.uniform(-1, 1, 9).astype(np.float32)
        out_a, out_b = env.step(a), copy.step(a)
        assert out_a[0].tobytes() == out_b[0].tobytes() and out_a[1:4] == out_b[1:4]
        assert out_a[4]["ruling"] == out_b[4]["ruling"]
        if out_a[2]:
            break


def test_get_state_set_state_and_clone_replay_a_shot():
    env = NineBallEnv(noise="icga")
    env.reset(seed=2)
    a = np.full(9, 0.3, dtype=np.float32)
    saved = env.get_state()
    twin = env.clone()
    first = env.step(a)
    env.set_state(saved)
    again = env.step(a)
    third = twin.step(a)
    for out in (again, third):
        assert out[0].tobytes() == first[0].tobytes() and out[1:4] == first[1:4]
        assert out[4]["ruling"] == first[4]["ruling"] and out[4]["opponent"] == first[4]["opponent"]
    with pytest.raises(ValueError, match="snapshot"):
        env.set_state("nope")


@pytest.mark.parametrize("bad, words", [
    (np.full(9, np.nan), "NaN"),
    (np.array([0, 0, 0, 0, 0, 0, 0, 0, np.inf]), "PASS_BACK"),
    (np.array([0, 2.0, 0, 0, 0, 0, 0, 0, 0]), "SPEED=2"),
    (np.zeros(10), "shape"),
])
def test_bad_action_raises_and_changes_nothing(bad, words):
    env = NineBallEnv(noise="icga")
    obs, _ = env.reset(seed=0)
    before = env.get_state()
    with pytest.raises(ValueError, match=words):
        env.step(bad)
    after = env.get_state()
    assert after.balls == before.balls and after.rack == before.rack and after.match == before.match
    assert after.rng_state == before.rng_state
    np.testing.assert_array_equal(env._game.observe(0), obs)


def test_step_needs_reset_and_stops_at_the_end():
    env = NineBallEnv()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(9))
    env.reset(seed=0)
    position(env, {0: (0.3, 1.9), 9: (0.2, 2.2)})
    _, r, term, _, _ = env.step(pot_action((0.3, 1.9), (0.2, 2.2)))
    assert term and r == 1.0
    with pytest.raises(RuntimeError, match="over"):
        env.step(np.zeros(9))


def test_info_has_the_same_keys_every_step():
    env = NineBallEnv(noise="icga", reward_shaping={"pot": 0.1, "foul": -0.1})
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    assert set(info) == INFO_KEYS
    for _ in range(40):
        _, r, term, trunc, info = env.step(rng.uniform(-1, 1, 9).astype(np.float32))
        assert set(info) == INFO_KEYS
        assert set(info["ruling"]) == {"declaration", "foul", "fouls", "cited", "text"}
        assert set(info["opponent"]) == {"decisions", "fouls", "pocketed", "rulings"}
        assert r == pytest.approx(sum(info["reward_parts"].values()))
        assert info["n_events"] >= 1
        if term or trunc:
            _, info = env.reset()
            assert set(info) == INFO_KEYS


def test_reward_shaping_is_off_by_default_and_configurable():
    for shaping, expected in ((None, 0.0), ({"pot": 0.25}, 0.25)):
        env = NineBallEnv(opponent=Scripted([MISS]), reward_shaping=shaping)
        env.reset(seed=0)
        position(env, {0: (0.5, 1.5), 1: (0.2, 2.3), 9: (1.0, 1.0)})
        _, r, _, _, info = env.step(pot_action((0.5, 1.5), (0.2, 2.3)))
        assert info["pocketed"] == (1,) and r == expected and info["reward_parts"]["pot"] == expected
    with pytest.raises(ValueError, match="unknown"):
        NineBallEnv(reward_shaping={"style": 1.0})
    with pytest.raises(ValueError, match="reward_shaping: expected a dict of its fields or a RewardShaping, got str"):
        NineBallEnv(reward_shaping="dense")  # no presets: a name is not a shaping
    with pytest.raises(ValueError, match="'pot'"):
        NineBallEnv(reward_shaping={"pot": "0.1"})


def test_opponent_protocols():
    calls = []

    def fn(obs, info):
        calls.append(info["phase"])
        return MISS

    class Model:  # stable-baselines3 style
        def predict(self, obs, deterministic=True):
            return MISS, None

    for opp in (fn, Model(), Scripted([MISS])):
        env = NineBallEnv(opponent=opp, first_breaker="opponent")
        _, info = env.reset(seed=0)
        assert info["opponent"]["decisions"] == 1 and info["opponent"]["fouls"] == 1
    assert calls == ["break"]
    with pytest.raises(ValueError, match="opponent"):
        NineBallEnv(opponent=42)


def test_a_bad_opponent_action_rolls_the_step_back():
    env = NineBallEnv(opponent=Scripted([np.full(9, np.nan)]), first_breaker="learner")
    obs, _ = env.reset(seed=0)
    before = env.get_state()
    with pytest.raises(ValueError, match="opponent action"):
        env.step(act(90.0, 8.0, placement=(0.6, 0.5), bih="kitchen"))
    after = env.get_state()
    assert after.balls == before.balls and after.rack == before.rack and after.rng_state == before.rng_state


def test_first_breaker_option_is_seeded():
    _, info = NineBallEnv(first_breaker="opponent").reset(seed=0)
    assert info["opponent"]["decisions"] >= 1
    obs, info = NineBallEnv(first_breaker="learner").reset(seed=0)
    assert info["opponent"]["decisions"] == 0 and info["phase"] == "break"
    breakers = {NineBallEnv().reset(seed=s)[1]["opponent"]["decisions"] > 0 for s in range(12)}
    assert breakers == {True, False}
    with pytest.raises(ValueError, match="first_breaker"):
        NineBallEnv(first_breaker="me")


@pytest.mark.parametrize("kwargs, words", [({"match_race": 0}, "match_race"), ({"noise": "loud"}, "noise"),
                                           ({"render_mode": "ascii"}, "render_mode"),
                                           ({"break_order": "loser"}, "break_order")])
def test_bad_constructor_arguments(kwargs, words):
    with pytest.raises(ValueError, match=words):
        NineBallEnv(**kwargs)


def test_race_to_two_scores_racks_and_ends_with_the_match():
    from nineball_env.rules import Match

    env = NineBallEnv(opponent=Scripted([MISS]), match_race=2, first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.3, 1.9), 9: (0.2, 2.2)}, match=Match(race_to=2, breaker=0))
    obs, r, term, _, info = env.step(pot_action((0.3, 1.9), (0.2, 2.2)))
    # Rack 1 won; the opponent breaks rack 2 (a foul) inside the same step and the learner has ball in hand.
    assert r == 1.0 and not term and info["racks"] == ("learner",) and info["score"] == (1, 0)
    assert obs[50] == pytest.approx(0.5) and obs[51] == 0.0
    assert info["opponent"]["decisions"] == 1 and info["ball_in_hand"] == "anywhere"
    position(env, {0: (0.3, 1.9), 9: (0.2, 2.2)}, match=Match(race_to=2, breaker=1, racks_won=(1, 0)), breaker=1)
    _, r, term, _, info = env.step(pot_action((0.3, 1.9), (0.2, 2.2)))
    assert r == 1.0 and term and info["score"] == (2, 0)
