"""The default opponent: its geometry kernel and the aiming policy itself."""

from __future__ import annotations

import math

import numpy as np
import pytest
from envkit import FOOT_LEFT, R, TABLE, Scripted, position

import physics
from agents.shots.aim import direction_deg
from nineball_env import actions
from nineball_env.aiming import AimingPolicy
from nineball_env.env import NineBallEnv
from nineball_env.kernels import aiming as kernel


def test_the_kernels_cut_angle():
    """The policy's cut angle (``kernels.aiming.cut_deg`` from the ghost ball): 0 straight in, 90 at right angles."""
    def cut(cue, obj, target):
        gx, gy, ux, uy = kernel.ghost(*obj, *target, R)
        return kernel.cut_deg(*cue, gx, gy, ux, uy)

    assert cut((0.5, 0.5), (0.5, 1.0), (0.5, 2.0)) == pytest.approx(0.0)
    assert cut((0.0, 1.0 - 2 * R), (0.5, 1.0), (0.5, 2.0)) == pytest.approx(90.0, abs=1e-6)


def _play(env, action):
    return env.step(action)


def test_aiming_policy_pots_a_straight_ball_with_ball_in_hand():
    """The policy (as the learner here) places the cue ball for a straight-in pot and makes it."""
    env = NineBallEnv(opponent=Scripted([np.zeros(9)]), first_breaker="learner")
    env.reset(seed=0)
    position(env, {1: (0.4, 2.0), 9: (0.9, 1.0)}, bih="anywhere")
    obs = env._game.observe(0)
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
    assert AimingPolicy()(env._game.observe(0), {})[actions.A.PASS_BACK] < 0


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


def test_policy_decisions_on_game_positions_are_legal_and_batch_equals_one_by_one() -> None:
    """On positions from random games (breaks, ball in hand in the kitchen and anywhere, ordinary shots, push-out
    choices) ``act_batch`` equals ``act`` row by row, every ball-in-hand spot is free, and the choice shoots on."""
    from nineball_env import observation, placement
    from nineball_env.game import Game, GameConfig

    policy = AimingPolicy()
    rng = np.random.default_rng(11)
    seen, phases = [], set()
    for seed in range(40):
        game = Game(GameConfig(), np.random.default_rng(seed), first_breaker=seed % 2)
        while not game.over and len(seen) < 600:
            rack, t = game.rack, game.config.table
            obs = observation.encode(game.balls.pos, game.on_table(), rack, game.match, rack.shooter, t.width, t.length)
            seen.append((obs, rack, game.balls.pos[game.on_table()][1 if game.on_table()[0] else 0:]))
            phases.add((str(rack.phase), str(rack.ball_in_hand)))
            act = policy.act(obs) if rng.random() < 0.5 else rng.uniform(-1, 1, 9)  # the policy's own play too
            game.play(rack.shooter, np.asarray(act, dtype=np.float64))
    assert {("break", "kitchen"), ("normal", "anywhere"), ("normal", "none"), ("push-out-allowed", "none")} <= phases
    batch = policy.act_batch(np.stack([obs for obs, _, _ in seen]))
    assert batch.dtype == np.float32 and batch.shape == (len(seen), 9)
    for (obs, rack, others), fast in zip(seen, batch):
        np.testing.assert_array_equal(policy.act(obs), fast)
        assert fast[actions.A.PUSH_OUT] < 0 and fast[actions.A.PASS_BACK] < 0
        if str(rack.ball_in_hand) != "none":
            x, y = actions.action_to_placement(fast.astype(np.float64), str(rack.ball_in_hand))
            assert placement.is_free(x, y, others + 0.0, kitchen=str(rack.ball_in_hand) == "kitchen") or \
                min(np.hypot(*(others - (x, y)).T)) > 2 * R - 1e-5  # float32 rounding of an exactly free spot


def test_act_batch_rejects_a_wrong_shape() -> None:
    with pytest.raises(ValueError, match="obs"):
        AimingPolicy().act_batch(np.zeros((3, 50)))


def test_a_blocked_spot_is_moved_to_the_nearest_free_one() -> None:
    """A ball on the policy's break spot: the kernel flags the row with the spot it wanted, and the policy plays
    from the nearest free spot instead (``placement.nearest_free``), still breaking at the 1."""
    from nineball_env import observation, placement
    from nineball_env.game import Game, GameConfig

    game = Game(GameConfig(), np.random.default_rng(0), first_breaker=0)
    t = game.config.table
    obs = observation.encode(game.balls.pos, game.on_table(), game.rack, game.match, 0, t.width, t.length)
    blocked = obs.copy()
    blocked[2:4] = (0.5, (t.head_string_y - 0.01) / t.length)  # ball 1 on the policy's break spot
    policy = AimingPolicy()
    out, fallback, spots = np.empty((2, 9)), np.zeros(2, dtype=bool), np.zeros((2, 2))
    policy._aim(np.stack([obs, blocked]), spots, np.zeros(2, dtype=bool), out, fallback)
    assert fallback.tolist() == [False, True]
    np.testing.assert_allclose(spots[1], (0.5 * t.width, t.head_string_y - 0.01))
    act = policy.act(blocked)
    placed = actions.action_to_placement(act.astype(np.float64), "kitchen", t)
    assert math.hypot(placed[0] - 0.5 * t.width, placed[1] - (t.head_string_y - 0.01)) > 2 * R - 1e-9
    ones = blocked[:20].astype(np.float64).reshape(10, 2) * (t.width, t.length)
    want = placement.nearest_free(0.5 * t.width, t.head_string_y - 0.01, ones[1:], t, kitchen=True)
    np.testing.assert_allclose(placed, want, atol=1e-5)
    assert actions.action_to_shot(act.astype(np.float64)).phi == pytest.approx(direction_deg(want, ones[1]), abs=1e-3)
