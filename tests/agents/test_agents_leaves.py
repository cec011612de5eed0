"""Leave features of the macro layer: the noise-free value of a shot, and each slot's value on the speed × spin grid."""

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)
import physics
from agents.learned.macro import (LEAVE_FEATURES, LEAVE_GRID, MACRO_DIM, MACRO_OBS_SIZE, MacroActionWrapper,
                                  MacroPlanner, N_POTS, macro_obs_size)
from agents.protocol import TableView
from agents.shots.aim import direction_deg
from agents.shots.leaves import leave_ease, shot_value
from nineball_env import actions, observation
from nineball_env.noise import make_noise
from nineball_env.rules import Match, RackState
from physics import Shot


def _obs(balls: dict, on: set[int], phase: str = "normal") -> np.ndarray:
    state = physics.place_balls(balls)
    breaker, in_hand = (0, "kitchen") if phase == "break" else (1, "none")
    rack = RackState(breaker=breaker, shooter=0, on_table=frozenset(on), phase=phase, ball_in_hand=in_hand)
    return observation.encode(state.pos, state.on_table(), rack, Match(race_to=1), 0, 1.27, 2.54)


def _view(obs: np.ndarray) -> TableView:
    return TableView.from_observation(obs, noise=make_noise("icga"))


def test_shot_value_scores_win_foul_pot_and_miss():
    # The 9 alone, straight in front of the bottom-left corner pocket: a soft straight shot wins (R-WIN-9).
    obs = _obs({0: (0.5, 0.5), 9: (0.3, 0.3)}, {9})
    view = _view(obs)
    state = view.balls.copy()
    win = shot_value(view, state, Shot(V0=2.0, phi=direction_deg(state.pos[0], state.pos[9])))
    assert win == 1.0
    # Away from the 9, gently: no ball hit (R-FOUL-NO-HIT): a foul is worth 0.
    assert shot_value(view, state, Shot(V0=0.8, phi=direction_deg(state.pos[9], state.pos[0]))) == 0.0
    # The 1 then the 9: potting the 1 keeps the table (> 0.5); hitting it into a rail passes the turn (<= 0.5).
    obs = _obs({0: (0.5, 0.5), 1: (0.3, 0.3), 9: (0.9, 1.9)}, {1, 9})
    view = _view(obs)
    state = view.balls.copy()
    pot = shot_value(view, state, Shot(V0=2.0, phi=direction_deg(state.pos[0], state.pos[1])))
    assert 0.5 < pot <= 1.0
    miss = shot_value(view, state, Shot(V0=2.0, phi=direction_deg(state.pos[0], state.pos[1]) + 8.0))
    assert 0.0 <= miss <= 0.5


def test_leave_ease_is_one_with_ball_in_hand_or_an_empty_table():
    obs = _obs({0: (0.5, 0.5), 1: (0.3, 0.3), 9: (0.9, 1.9)}, {1, 9})
    view = _view(obs)
    state = view.balls.copy()
    assert 0.0 < leave_ease(view, state) < 1.0
    assert leave_ease(view, physics.place_balls({0: (0.5, 0.5)})) == 1.0  # every object ball gone
    assert leave_ease(view, physics.place_balls({1: (0.3, 0.3)})) == 1.0  # cue ball gone: ball in hand


def test_leave_features_are_the_values_of_the_decoded_shots():
    obs = _obs({0: (0.6, 1.0), 1: (0.5, 1.8), 4: (1.0, 1.2), 9: (0.9, 2.2)}, {1, 4, 9})
    planner = MacroPlanner(leaves=True)
    x = planner.features(obs)
    assert x.shape == (macro_obs_size(True),) == (MACRO_OBS_SIZE + LEAVE_FEATURES,)
    np.testing.assert_array_equal(x[:MACRO_OBS_SIZE], MacroPlanner().features(obs))
    leaves = x[MACRO_OBS_SIZE:]
    assert np.all((leaves >= 0.0) & (leaves <= 1.0))
    view, spot, pots = planner.slots(obs)
    assert pots[0] is not None
    state = view.balls.copy()
    for j, (speed, tip) in enumerate(LEAVE_GRID):
        u = np.array([-1.0, 0.0, speed, tip, 0.0, -1.0])
        shot = planner._pot_shot(view, state, view.balls.pos[0], pots[0], u)
        assert leaves[j] == pytest.approx(shot_value(view, state, shot), abs=1e-6)
        expected = actions.shot_to_action(shot, table=view.table, params=view.params, scale=view.scale)
        np.testing.assert_array_equal(planner.action(obs, u), expected)  # the feature's shot is the one played
    for i, option in enumerate(pots):
        if option is None:
            assert not leaves[i * len(LEAVE_GRID):(i + 1) * len(LEAVE_GRID)].any()
    assert len(leaves) == N_POTS * len(LEAVE_GRID) + 1


def test_leave_features_are_zero_on_the_break():
    obs = _obs({0: (0.6, 0.5), 1: (0.635, 1.9), 9: (0.635, 2.0)}, {1, 9}, phase="break")
    assert observation.decode(obs, 1.27, 2.54)["phase"] == "break"
    assert not MacroPlanner(leaves=True).features(obs)[MACRO_OBS_SIZE:].any()


def test_wrapper_with_leaves_is_a_valid_env():
    env = MacroActionWrapper(gym.make("NineBall-v0", noise="icga"), leaves=True)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.shape == (macro_obs_size(True),) and env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    for _ in range(6):
        obs, _, term, trunc, _ = env.step(rng.uniform(-1, 1, MACRO_DIM).astype(np.float32))
        assert env.observation_space.contains(obs)
        if term or trunc:
            obs, _ = env.reset()


def test_learned_agent_picks_the_planner_from_the_policy_size():
    from agents.learned.agent import LearnedAgent
    from agents.learned.numpy_policy import NumpyPolicy

    def policy(n):
        return NumpyPolicy([np.zeros((n, MACRO_DIM))], [np.zeros(MACRO_DIM)], "tanh", -np.ones(MACRO_DIM),
                           np.ones(MACRO_DIM))

    assert LearnedAgent(policy(macro_obs_size(True))).planner.leaves
    assert not LearnedAgent(policy(macro_obs_size(False))).planner.leaves
    with pytest.raises(ValueError, match="macro observation"):
        LearnedAgent(policy(macro_obs_size(False) + 1))
