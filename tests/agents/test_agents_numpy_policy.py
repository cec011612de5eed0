"""The exported numpy actor plays the same actions as the torch policy it came from; ``learned`` needs no torch."""

import subprocess
import sys
import textwrap

import gymnasium as gym
import numpy as np
import pytest

from agents.learned.macro import MACRO_DIM, MACRO_OBS_SIZE, macro_action_space, macro_obs_size, macro_observation_space
from agents.learned.numpy_policy import NumpyPolicy
from agents.registry import AgentSpecError, make_agent


class _Spaces(gym.Env):
    """Only the macro spaces: what an SB3 model needs to be built."""

    observation_space = macro_observation_space()
    action_space = macro_action_space()

    def reset(self, *, seed=None, options=None):
        return np.zeros(MACRO_OBS_SIZE, np.float32), {}

    def step(self, action):
        return np.zeros(MACRO_OBS_SIZE, np.float32), 0.0, True, False, {}


@pytest.fixture(scope="module")
def torch_model():
    """An SB3 PPO policy (the tests that use it need the train extra)."""
    import torch
    from stable_baselines3 import PPO

    model = PPO("MlpPolicy", _Spaces(), seed=3, device="cpu", policy_kwargs={"net_arch": [64, 32]})
    with torch.no_grad():  # scale the head up so that many actions hit the clip at ±1
        model.policy.action_net.weight.uniform_(-0.3, 0.3)
        model.policy.action_net.bias.uniform_(-0.5, 0.5)
    return model


@pytest.mark.extra("train")
def test_exported_policy_matches_the_torch_policy(torch_model, tmp_path):
    from agents.learned.numpy_policy import export_sb3

    rng = np.random.default_rng(0)
    obs = rng.uniform(0.0, 1.0, (2000, MACRO_OBS_SIZE)).astype(np.float32)
    obs[:100] = 0.0
    obs[100:200] = 1.0
    expected, _ = torch_model.predict(obs, deterministic=True)
    policy = NumpyPolicy.load(export_sb3(torch_model).save(tmp_path / "p.npz"))
    got, _ = policy.predict(obs)
    assert got.shape == expected.shape == (2000, MACRO_DIM)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    clipped = np.abs(expected) == 1.0
    assert clipped.any() and not clipped.all()  # both branches of the clip are compared
    for i in range(0, 2000, 97):  # one observation at a time, as an agent asks
        np.testing.assert_allclose(policy.predict(obs[i])[0], torch_model.predict(obs[i], deterministic=True)[0],
                                   atol=1e-5)


def test_policy_rejects_bad_input(tmp_path):
    policy = NumpyPolicy([np.ones((3, 2))], [np.zeros(2)], "tanh", -np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="observation"):
        policy.predict(np.zeros(4))
    with pytest.raises(ValueError, match="deterministic"):
        policy.predict(np.zeros(3), deterministic=False)
    with pytest.raises(ValueError, match="layer 1"):
        NumpyPolicy([np.ones((3, 2)), np.ones((3, 2))], [np.zeros(2), np.zeros(2)], "tanh", -np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="activation"):
        NumpyPolicy([np.ones((3, 2))], [np.zeros(2)], "gelu", -np.ones(2), np.ones(2))
    np.savez(tmp_path / "bad.npz", w0=np.ones((3, 2)))
    with pytest.raises(ValueError, match="format"):
        NumpyPolicy.load(tmp_path / "bad.npz")
    with pytest.raises(AgentSpecError, match="no exported policy"):
        make_agent(f"learned:{tmp_path / 'missing.npz'}")


def test_shipped_policy_fits_the_macro_spaces():
    policy = NumpyPolicy.shipped()
    assert policy.obs_dim == macro_obs_size(True) and policy.action_space.shape == (MACRO_DIM,)
    agent = make_agent("learned")
    assert agent.macro and agent.planner.leaves and agent.name == "learned"  # trained with the leave features
    # It plays in the style it was trained in, with its macro action re-ranked (see the README).
    from agents.learned.macro import MacroStyle

    assert agent.planner.style == MacroStyle(placement="leave", safety="search") and agent.rerank_samples == 6


@pytest.mark.parametrize("agent", ["learned", "value"])
def test_shipped_agent_plays_without_torch(agent):
    """A base install has no torch: block its import and play a match with a shipped agent (the numpy actor of
    ``learned``, the numpy value network of ``value``)."""
    code = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("torch", "stable_baselines3"):
                    raise ImportError(f"blocked: {{name}}")
        sys.meta_path.insert(0, Block())
        from agents.arena.match import MatchConfig
        from agents.arena.series import run_series
        result = run_series("{agent}", "random", 1, MatchConfig(race_to=1), seed=5, jobs=1, progress=False)
        assert len(result.matches) == 1
        assert "torch" not in sys.modules and "stable_baselines3" not in sys.modules
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")
