"""The agents: protocol, valid actions in every phase, seeds, the view rebuilt from an observation, env opponents."""

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)
import physics
from agents.players.ghost_ball import GhostBallAgent
from agents.players.random_agent import RandomAgent
from agents.players.search import SearchAgent, SearchConfig
from agents.protocol import Agent, TableView
from nineball_env import actions, observation
from nineball_env.game import Game, GameConfig
from nineball_env.noise import make_noise
from nineball_env.rules import RackState

SMALL = SearchConfig(candidates=16, top=3, samples=4, refine=1, options=2, placements=2)


def _view(positions, *, phase="normal", in_hand="none", noise="icga"):
    balls = physics.place_balls(positions)
    on = frozenset(b for b in positions if b)
    rack = RackState(breaker=0, shooter=0, on_table=on, phase=phase, ball_in_hand=in_hand)
    return TableView(balls, rack, 0, noise=make_noise(noise))


def _obs(view):
    t = view.table
    from nineball_env.rules import Match
    return observation.encode(view.balls.pos, view.on, view.rack, Match(race_to=1), 0, t.width, t.length)


@pytest.mark.parametrize("agent", [RandomAgent(0), GhostBallAgent(), SearchAgent(SMALL, seed=0)])
def test_agents_follow_the_protocol(agent):
    assert isinstance(agent, Agent)
    view = _view({0: (0.6, 0.8), 1: (0.5, 1.6), 9: (0.9, 2.0)})
    action = agent.act(_obs(view), view)
    assert action.shape == (actions.N_ACTION,) and np.all(np.abs(action) <= 1.0)


@pytest.mark.parametrize("make", [GhostBallAgent, lambda: SearchAgent(SMALL, seed=1)])
def test_agents_act_in_every_phase(make):
    agent = make()
    game = Game(GameConfig(), np.random.default_rng(3))
    seen = set()
    # play a rack with the agent on both sides, checking each decision's action
    while not game.over:
        view = TableView.from_game(game, make_noise("icga"))
        seen.add(str(game.rack.phase))
        action = agent.act(_obs_from_game(game), view)
        assert action.shape == (9,) and np.all(np.abs(action) <= 1.0)
        game.play(game.to_move, actions.check_action(action))
    assert "break" in seen


def _obs_from_game(game):
    t = game.config.table
    return observation.encode(game.balls.pos, game.on_table(), game.rack, game.match, game.to_move, t.width, t.length)


def test_random_agent_is_reproducible_by_seed():
    obs = np.zeros(observation.OBS_SIZE, dtype=np.float32)
    a, b = RandomAgent(5), RandomAgent()
    b.seed(5)
    assert np.array_equal(a.act(obs), b.act(obs))


def test_the_generator_made_on_first_use_draws_as_a_fresh_seeded_one():
    # BaseAgent makes its generator when first asked for (an env re-seeds its opponent every reset); the draws must be
    # those of default_rng(seed) at the time of the latest seed(), and an assigned generator is kept.
    agent = RandomAgent(seed=4)
    agent.seed(7)
    first = agent.rng.uniform(size=3)
    agent.seed(7)
    np.testing.assert_array_equal(agent.rng.uniform(size=3), first)
    np.testing.assert_array_equal(first, np.random.default_rng(7).uniform(size=3))
    np.testing.assert_array_equal(RandomAgent(seed=4).rng.uniform(size=2), np.random.default_rng(4).uniform(size=2))
    mine = np.random.default_rng(1)
    agent.rng = mine
    assert agent.rng is mine


def test_search_is_reproducible_by_seed():
    view = _view({0: (0.6, 0.8), 1: (0.5, 1.6), 3: (0.2, 1.0), 9: (0.9, 2.0)})
    first = SearchAgent(SMALL, seed=11).act(_obs(view), view)
    second = SearchAgent(SMALL, seed=11).act(_obs(view), view)
    assert np.array_equal(first, second)


def test_ghost_pots_an_easy_ball():
    view = _view({0: (0.3, 1.9), 1: (0.2, 2.2), 9: (1.0, 1.0)}, noise="none")
    agent = GhostBallAgent()
    action = agent.act(_obs(view), view)
    assert agent.intent == "pot"
    shot = actions.action_to_shot(action.astype(np.float64))
    assert physics.simulate(view.balls, shot).state.pocket[1] == 4


def test_search_takes_the_win_on_the_nine():
    view = _view({0: (0.3, 1.9), 9: (0.2, 2.2)})
    agent = SearchAgent(SMALL, seed=0)
    agent.act(_obs(view), view)
    assert agent.intent == "pot" and agent.last_plan.success > 0.7


def test_search_places_the_cue_ball_with_ball_in_hand():
    view = _view({1: (0.6, 1.5), 5: (0.3, 2.0), 9: (0.9, 2.1)}, in_hand="anywhere")
    agent = SearchAgent(SMALL, seed=0)
    action = agent.act(_obs(view), view)
    assert agent.last_plan.spot is not None and agent.intent == "pot"
    x, y = actions.action_to_placement(action.astype(np.float64), "anywhere")
    assert np.hypot(x - agent.last_plan.spot[0], y - agent.last_plan.spot[1]) < 1e-4


def test_search_config_rejects_bad_budgets():
    with pytest.raises(ValueError, match="samples"):
        SearchConfig(samples=0)
    with pytest.raises(ValueError, match="safety_below"):
        SearchConfig(safety_below=2.0)


def test_view_from_observation_matches_the_game():
    game = Game(GameConfig(), np.random.default_rng(0))
    view = TableView.from_observation(_obs_from_game(game))
    assert view.rack.phase == "break" and view.cue_in_hand
    assert np.allclose(view.balls.pos[1:], game.balls.pos[1:], atol=1e-6)
    physics.validate_state(view.balls, physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS)  # rounding undone


@pytest.mark.parametrize("make", [GhostBallAgent, lambda: RandomAgent(1), lambda: SearchAgent(SMALL, seed=0)])
def test_agents_play_as_env_opponents(make):
    # the env asks the agent for every opponent decision it reports (and for those of racks it deals again, when the
    # opponent wins one before the learner's first decision: info["redeals"]), and each answer is a legal action
    opponent, learner = make(), GhostBallAgent()
    answers = []

    def act(obs, *args, **kwargs):
        action = type(opponent).act(opponent, obs, *args, **kwargs)
        answers.append(action)
        return action

    opponent.act = act
    env = gym.make("NineBall-v0", opponent=opponent, noise="icga", first_breaker="opponent")
    obs, info = env.reset(seed=0)
    decided = info["opponent"]["decisions"]
    for _ in range(20):
        if decided >= 3:
            break
        obs, _, term, trunc, info = env.step(learner.act(obs))
        decided += info["opponent"]["decisions"]
        if term or trunc:
            obs, info = env.reset()
            decided += info["opponent"]["decisions"]
    env.close()
    assert decided >= 3 and len(answers) >= decided
    assert all(env.action_space.contains(np.asarray(a, dtype=np.float32)) for a in answers)
