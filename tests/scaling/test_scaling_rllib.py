"""RLlib: the two-player env passes RLlib's checks and lets the rules pick who acts; env runners get the native
vector env; ``agents.training.rllib --iterations 1`` trains, saves a checkpoint, and the checkpoint plays a match."""

import numpy as np
import pytest

from extrakit import require_extra

require_extra("ray", "ray.rllib")

from agents.players.ghost_ball import GhostBallAgent  # noqa: E402
from nineball_env.rllib import SELF_PLAY, SINGLE_AGENT, NineBallMultiAgentEnv, register, single_agent_env  # noqa: E402
from nineball_env.vector import NineBallVectorEnv  # noqa: E402

TINY = ["--iterations", "1", "--env-runners", "1", "--envs-per-runner", "2", "--train-batch-size", "64",
        "--minibatch-size", "32", "--num-epochs", "1", "--net-width", "16", "--noise", "none"]


def test_multi_agent_env_passes_rllib_checks():
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    env = NineBallMultiAgentEnv({"noise": "icga"})
    check_multiagent_environments(env)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.get_observation_space("player_1") == env.game.observation_space("player_1")


def _play_rack(env, seed):
    """A rack between two ghost-ball agents: (mover, info of the next observer, obs keys) per step, last step."""
    agent = GhostBallAgent()
    obs, infos = env.reset(seed=seed)
    assert len(obs) == 1
    steps = []
    while True:
        (mover, ob), = obs.items()
        assert mover == env.game.agent_selection
        obs, rewards, terms, truncs, infos = env.step({mover: agent.act(ob)})
        steps.append((mover, rewards, terms, truncs, obs, infos))
        if terms["__all__"] or truncs["__all__"]:
            return steps


def test_only_the_player_to_move_observes_and_the_rules_pick_who_acts():
    env = NineBallMultiAgentEnv({"noise": "none"})
    steps = _play_rack(env, seed=3)
    repeats = 0
    for (mover, rewards, terms, truncs, obs, infos), nxt in zip(steps[:-1], steps[1:]):
        assert list(obs) == [nxt[0]] and not terms["__all__"]  # one observer: the one who acts next
        ruling = infos[nxt[0]]["ruling"]
        if nxt[0] == mover:  # the same player again: the rules kept them at the table (a legal pot)
            repeats += 1
            assert not ruling["foul"] and infos[mover]["pocketed"]
        assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert repeats >= 1
    mover, rewards, terms, truncs, obs, infos = steps[-1]
    assert set(obs) == {"player_0", "player_1"} and terms == {"player_0": True, "player_1": True, "__all__": True}
    assert sorted(rewards.values()) == [-1.0, 1.0] and env.agents == []


def test_an_action_for_the_wrong_player_is_rejected_and_changes_nothing():
    env = NineBallMultiAgentEnv()
    obs, _ = env.reset(seed=0)
    (mover, ob), = obs.items()
    other = "player_1" if mover == "player_0" else "player_0"
    with pytest.raises(ValueError, match="the player to move"):
        env.step({other: np.zeros(9, np.float32)})
    with pytest.raises(ValueError):
        env.step({mover: np.full(9, np.nan, np.float32)})
    assert env.game.agent_selection == mover and np.array_equal(env.game.observe(mover), ob)


def test_the_single_agent_creator_gives_the_native_vector_env():
    assert isinstance(single_agent_env({"num_envs": 3, "noise": "none"}), NineBallVectorEnv)
    assert single_agent_env({}).spec.id == "NineBall-v0"


def test_env_runners_sample_from_the_native_vector_env():
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from agents.training.rllib import Args, ppo_config

    runner = SingleAgentEnvRunner(config=ppo_config(Args(env_runners=0, envs_per_runner=3, noise="none",
                                                         net_width=16)))
    try:
        assert isinstance(runner.env.unwrapped, NineBallVectorEnv) and runner.env.unwrapped.num_envs == 3
        episodes = runner.sample(num_timesteps=30, random_actions=True)
        assert sum(len(e) for e in episodes) >= 30
    finally:
        runner.stop()


def test_train_one_iteration_saves_a_checkpoint_that_plays(local_ray, tmp_path, capsys):
    from agents.cli import main
    from agents.training import rllib as train_rllib

    register()
    assert train_rllib.main(TINY + ["--runs-dir", str(tmp_path / "runs"),
                                    "--checkpoints-dir", str(tmp_path / "ck")]) == 0
    out = capsys.readouterr().out
    assert "iteration 1/1" in out and "env steps/s" in out
    checkpoint, = (tmp_path / "ck").glob("*/checkpoint")
    assert (checkpoint / "learner_group" / "learner" / "rl_module" / "default_policy").is_dir()
    assert list((tmp_path / "runs").glob("*/events.out.tfevents.*"))
    assert main(["match", f"rllib:{checkpoint}", "random", "--race", "1", "--matches", "1", "--no-progress"]) == 0
    assert "match wins" in capsys.readouterr().out


def test_self_play_trains_one_shared_module(local_ray, tmp_path, capsys):
    from agents.learned.rllib_agent import RLlibAgent
    from agents.training import rllib as train_rllib

    assert SELF_PLAY != SINGLE_AGENT
    assert train_rllib.main(TINY + ["--selfplay", "true", "--runs-dir", str(tmp_path / "runs"),
                                    "--checkpoints-dir", str(tmp_path / "ck")]) == 0
    checkpoint, = (tmp_path / "ck").glob("*/checkpoint")
    agent = RLlibAgent.load(checkpoint.parent)  # the run folder works as well
    action = agent.act(np.zeros(54, np.float32))
    assert action.shape == (9,) and np.all(np.abs(action) <= 1.0)


@pytest.mark.parametrize("argv, message", [
    (["--iterations", "0"], "iterations"),
    (["--minibatch-size", "500", "--train-batch-size", "100"], "minibatch_size"),
    (["--address", "nowhere"], "expected 'auto', HOST:PORT"),
])
def test_train_rllib_rejects_bad_flags_with_exit_2(argv, message, capsys):
    from agents.training import rllib as train_rllib

    assert train_rllib.main(argv) == 2
    assert message in capsys.readouterr().err
