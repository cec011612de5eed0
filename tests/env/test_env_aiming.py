"""The default opponent's geometry helpers and the aiming policy itself."""

from __future__ import annotations

import math

import numpy as np
import pytest
from envkit import FOOT_LEFT, R, TABLE, Scripted, position

import physics
from nineball_env import actions
from nineball_env.aiming import (AimingPolicy, RandomPolicy, aim, cut_angle, direction_deg, ghost_ball, path_clear,
                                 pocket_aims, straight_in_spot)
from nineball_env.env import NineBallEnv


def test_ghost_ball_sits_two_radii_behind_the_object_ball():
    g = ghost_ball(np.array([0.5, 1.0]), np.array([0.5, 2.0]), R)
    np.testing.assert_allclose(g, [0.5, 1.0 - 2 * R])


def test_cut_angle():
    assert cut_angle(np.array([0.5, 0.5]), np.array([0.5, 1.0]), np.array([0.5, 2.0]), R) == pytest.approx(0.0)
    cut = cut_angle(np.array([0.0, 1.0 - 2 * R]), np.array([0.5, 1.0]), np.array([0.5, 2.0]), R)
    assert cut == pytest.approx(90.0, abs=1e-6)


def test_path_clear():
    obstacles = np.array([[0.5, 1.0]])
    assert not path_clear(np.array([0.5, 0.5]), np.array([0.5, 1.5]), obstacles, R)
    assert path_clear(np.array([0.5 + 2 * R + 1e-6, 0.5]), np.array([0.5 + 2 * R + 1e-6, 1.5]), obstacles, R)
    assert path_clear(np.array([0.5, 0.5]), np.array([0.5, 0.95]), obstacles, R) is False  # ends touching it
    assert path_clear(np.array([0.5, 0.5]), np.array([0.5, 1.5]), np.zeros((0, 2)), R)


def test_direction_deg():
    assert direction_deg((0, 0), (0, 1)) == pytest.approx(90.0)
    assert direction_deg((0, 0), (-1, 0)) == pytest.approx(180.0)


def test_aim_prefers_the_straight_clear_pot():
    shots = aim(np.array([0.3, 1.9]), np.array([0.2, 2.2]), np.zeros((0, 2)))
    assert shots[0].pocket == FOOT_LEFT and shots[0].clear and shots[0].cut < 20.0


def test_straight_in_spot_is_behind_the_ball_on_the_pocket_line():
    obj = np.array([0.3, 2.1])
    spot, pocket = straight_in_spot(obj, np.zeros((0, 2)))
    target = pocket_aims(TABLE)[pocket]
    assert cut_angle(np.array(spot), obj, target, R) == pytest.approx(0.0, abs=1e-6)


def _play(env, action):
    return env.step(action)


def test_aiming_policy_pots_a_straight_ball_with_ball_in_hand():
    """The policy (as the learner here) places the cue ball for a straight-in pot and makes it."""
    env = NineBallEnv(opponent=Scripted([np.zeros(9)]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {1: (0.4, 2.0), 9: (0.9, 1.0)}, bih="anywhere")
    obs = env._observe(0)
    _, _, _, _, info = env.step(AimingPolicy().act(obs))
    assert info["pocketed"] == (1,) and not info["ruling"]["foul"]


def test_aiming_policy_breaks_from_the_kitchen_and_never_pushes_out():
    pol = AimingPolicy()
    env = NineBallEnv(first_breaker="learner")
    obs, _ = env.reset(seed=0)
    a = pol.act(obs)
    assert a[actions.A.PUSH_OUT] < 0 and a[actions.A.PASS_BACK] < 0
    x, y = actions.action_to_placement(a, "kitchen")
    assert y <= TABLE.head_string_y
    assert actions.action_to_shot(a).V0 == pytest.approx(9.0, abs=1e-5)


def test_aiming_policy_shoots_on_the_choice():
    env = NineBallEnv(first_breaker="learner")
    env.reset(seed=0)
    position(env, {0: (0.6, 0.6), 1: (0.4, 2.0), 9: (0.9, 1.0)}, phase="push-out-choice")
    assert AimingPolicy()(env._observe(0), {})[actions.A.PASS_BACK] < 0


def test_random_policy_is_seeded():
    a, b = RandomPolicy(3), RandomPolicy(3)
    np.testing.assert_array_equal(a.act(None), b.act(None))
    b.seed(4)
    assert not np.array_equal(a.act(None), b.act(None))
    assert a(None, {}).shape == (9,) and a.act(None).dtype == np.float32


def test_aiming_policy_wins_racks_against_itself():
    env = NineBallEnv(first_breaker="random")
    pol = AimingPolicy()
    pots = decisions = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, r, term, trunc, info = env.step(pol.act(obs))
            pots += sum(1 for b in info["pocketed"] if b)
            decisions += 1
            done = term or trunc
        assert term and r in (-1.0, 1.0)
    assert pots / decisions > 0.3


def test_compiled_policy_matches_the_python_reference_on_game_positions() -> None:
    """``act``/``act_batch`` (numba kernel) give ``act_reference``'s actions on positions from random games:
    breaks, ball in hand (kitchen and anywhere), ordinary shots and push-out choices."""
    from nineball_env import observation
    from nineball_env.game import Game, GameConfig

    policy = AimingPolicy()
    rng = np.random.default_rng(11)
    seen, phases = [], set()
    for seed in range(40):
        game = Game(GameConfig(), np.random.default_rng(seed), first_breaker=seed % 2)
        while not game.over and len(seen) < 600:
            rack, t = game.rack, game.config.table
            obs = observation.encode(game.balls.pos, game.on_table(), rack, game.match, rack.shooter, t.width, t.length)
            seen.append(obs)
            phases.add((str(rack.phase), str(rack.ball_in_hand)))
            act = policy.act(obs) if rng.random() < 0.5 else rng.uniform(-1, 1, 9)  # the policy's own play too
            game.apply(rack.shooter, game.decode(np.asarray(act, dtype=np.float64)))
    assert {("break", "kitchen"), ("normal", "anywhere"), ("normal", "none"), ("push-out-allowed", "none")} <= phases
    batch = policy.act_batch(np.stack(seen))
    for obs, fast in zip(seen, batch):
        np.testing.assert_allclose(fast, policy.act_reference(obs), atol=2e-6)
        np.testing.assert_array_equal(policy.act(obs), fast)
    assert batch.dtype == np.float32 and batch.shape == (len(seen), 9)


def test_act_batch_rejects_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="obs"):
        AimingPolicy().act_batch(np.zeros((3, 50)))


def test_rows_the_kernel_hands_back_are_decided_by_the_python_path() -> None:
    """A blocked break spot needs ``placement.nearest_free``: the kernel flags the row, ``act`` still answers."""
    from nineball_env import observation
    from nineball_env.game import Game, GameConfig

    game = Game(GameConfig(), np.random.default_rng(0), first_breaker=0)
    t = game.config.table
    obs = observation.encode(game.balls.pos, game.on_table(), game.rack, game.match, 0, t.width, t.length)
    blocked = obs.copy()
    blocked[2:4] = (0.5, (t.head_string_y - 0.01) / t.length)  # ball 1 on the policy's break spot
    policy = AimingPolicy()
    out, fallback = np.empty((2, 9)), np.zeros(2, dtype=bool)
    from nineball_env.kernels.aiming import aim_batch
    s = actions.DEFAULT_SCALE
    aim_batch(np.stack([obs, blocked]), t.width, t.length, R, policy._pockets, policy._aims, 9.0, s.v_min, s.v_max,
              s.theta_max, out, fallback)
    assert fallback.tolist() == [False, True]
    np.testing.assert_array_equal(policy.act(blocked), policy.act_reference(blocked))
    placed = actions.action_to_placement(policy.act(blocked).astype(np.float64), "kitchen", t)
    assert math.hypot(placed[0] - 0.5 * t.width, placed[1] - (t.head_string_y - 0.01)) > 2 * R - 1e-9
