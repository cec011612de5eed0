"""Learned agents: the macro-action wrapper is a valid env, and a tiny training run saves a model that plays."""

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)
from agents.learned.macro import MACRO_DIM, MACRO_OBS_SIZE, MacroActionWrapper, MacroPlanner
from agents.players.random_agent import RandomAgent


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")
def test_macro_wrapper_passes_the_env_checker():
    from gymnasium.utils.env_checker import check_env

    env = MacroActionWrapper(gym.make("NineBall-v0", opponent=RandomAgent(0), noise="icga"))
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert obs.shape == (MACRO_OBS_SIZE,) and env.action_space.shape == (MACRO_DIM,)
    for _ in range(5):
        obs, r, term, trunc, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs) and "macro_slot" in info
        if term or trunc:
            obs, info = env.reset()


def test_macro_slot_zero_is_the_easiest_pot():
    import physics
    from nineball_env import observation
    from nineball_env.rules import Match, RackState

    balls = physics.place_balls({0: (0.6, 1.0), 1: (0.5, 1.8), 4: (1.0, 1.2), 9: (0.9, 2.2)})
    rack = RackState(breaker=1, shooter=0, on_table=frozenset({1, 4, 9}), phase="normal", ball_in_hand="none")
    obs = observation.encode(balls.pos, balls.on_table(), rack, Match(race_to=1), 0, 1.27, 2.54)
    planner = MacroPlanner()
    slots = planner.features(obs)[-4 * 6:].reshape(4, 6)
    assert slots[0, 0] == 1.0 and slots[0, 1] >= slots[1, 1]  # valid, and easiest first
    assert slots[3, 0] == 1.0  # the safety slot is always there
    action = planner.action(obs, np.array([-1.0, 0, 0, 0, 0, -1.0]))
    assert planner.last_slot == 0 and action.shape == (9,)
    planner.action(obs, np.array([1.0, 0, 0, 0, 0, -1.0]))
    assert planner.last_slot == 3


@pytest.mark.extra("train")
@pytest.mark.parametrize("algo", ["ppo", "sac"])
def test_tiny_training_run_saves_and_reloads(tmp_path, algo):
    from agents.arena.match import MatchConfig
    from agents.arena.series import run_series
    from agents.learned.agent import LearnedAgent
    from agents.registry import make_agent

    if algo == "ppo":
        from agents.training.ppo import Args, train

        args = Args(total_timesteps=128, n_envs=2, n_steps=32, batch_size=32, n_epochs=1, opponent="random",
                    checkpoint_freq=64, runs_dir=str(tmp_path / "runs"), checkpoints_dir=str(tmp_path / "ck"),
                    progress_bar=False)
    else:
        from agents.training.sac import Args, train

        args = Args(total_timesteps=96, learning_starts=32, batch_size=32, opponent="random", checkpoint_freq=64,
                    runs_dir=str(tmp_path / "runs"), checkpoints_dir=str(tmp_path / "ck"), progress_bar=False)
    path = train(args)
    assert path.exists() and (path.parent / "args.json").exists()
    assert any((tmp_path / "runs").iterdir())  # TensorBoard logs
    assert list(path.parent.glob("model_*_steps.zip"))  # checkpoints
    agent = LearnedAgent.load(path, algo=algo)
    assert agent.macro
    again = make_agent(f"{algo}:{path}")
    obs = np.zeros(nineball_env.observation.OBS_SIZE, dtype=np.float32)
    obs[20:30] = 1.0
    obs[[0, 1]] = (0.5, 0.2)
    obs[2:20] = np.linspace(0.3, 0.9, 18)
    obs[30] = obs[42] = obs[43] = 1.0  # lowest 1, normal phase, no ball in hand
    assert np.array_equal(agent.act(obs), again.act(obs))
    jobs = 2 if algo == "ppo" else 1  # worker processes load the model themselves (spawned: torch is loaded)
    result = run_series(f"{algo}:{path}", "random", 2, MatchConfig(race_to=1), seed=0, jobs=jobs, progress=False)
    assert len(result.matches) == 2


@pytest.mark.extra("train")
def test_training_args_from_the_command_line():
    from agents.training.common import parse_args
    from agents.training.ppo import Args

    args = parse_args(Args, ["--total-timesteps", "1000", "--macro", "false", "--opponent", "random"])
    assert args.total_timesteps == 1000 and args.macro is False and args.opponent == "random"
    with pytest.raises(SystemExit):
        parse_args(Args, ["--macro", "maybe"])


@pytest.mark.extra("train")
def test_rack_win_rate_is_the_mean_of_the_last_200_racks(tmp_path):
    from types import SimpleNamespace

    from agents.training.common import callbacks

    recorded: dict[str, float] = {}
    logger = SimpleNamespace(record=lambda key, value: recorded.__setitem__(key, value))
    model = SimpleNamespace(logger=logger, num_timesteps=0, get_env=lambda: SimpleNamespace(num_envs=2))
    stats = callbacks(1000, tmp_path, 10**6, 2, progress=False)[-1]
    stats.init_callback(model)
    stats.on_training_start({}, {})
    rng = np.random.default_rng(0)
    winners = rng.choice(["learner", "opponent"], size=260).tolist()
    for start in range(0, 260, 3):  # one or two finished racks per table and step, some steps none
        stats.locals = {"infos": [{"racks": winners[start:start + 2]}, {"racks": winners[start + 2:start + 3]}, {}]}
        stats.on_step()
        seen = winners[:start + 3][-200:]
        assert recorded["nineball/rack_win_rate"] == np.mean([w == "learner" for w in seen])
