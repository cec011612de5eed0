"""NineBall-v0 in vector envs (Gymnasium's AsyncVectorEnv, SB3's SubprocVecEnv) and a short PPO run."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import nineball_env  # noqa: F401  (registers NineBall-v0)


def test_async_vector_env_runs():
    envs = gym.vector.AsyncVectorEnv([lambda: gym.make("NineBall-v0", noise="icga") for _ in range(2)])
    try:
        obs, info = envs.reset(seed=[0, 1])
        assert obs.shape == (2, 54) and obs.dtype == np.float32
        for _ in range(15):
            obs, reward, term, trunc, info = envs.step(envs.action_space.sample())
            assert obs.shape == (2, 54) and reward.shape == (2,)
            assert "ruling" in info and "reward_parts" in info
    finally:
        envs.close()


@pytest.mark.extra("train")
def test_sb3_subproc_vec_env_runs():
    import stable_baselines3.common.vec_env as vec
    from stable_baselines3.common.env_util import make_vec_env

    # Fresh worker processes: "module:id" makes Gymnasium import nineball_env (and so register the id) first.
    envs = make_vec_env("nineball_env:NineBall-v0", n_envs=2, seed=0, vec_env_cls=vec.SubprocVecEnv)
    try:
        envs.reset()
        for _ in range(15):
            obs, rewards, dones, infos = envs.step(np.stack([envs.action_space.sample() for _ in range(2)]))
            assert obs.shape == (2, 54) and len(infos) == 2
    finally:
        envs.close()


@pytest.mark.extra("train")
def test_short_ppo_run_completes():
    import stable_baselines3 as sb3

    env = gym.make("NineBall-v0")
    model = sb3.PPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0, device="cpu", verbose=0)
    model.learn(total_timesteps=2048)
    action, _ = model.predict(env.reset(seed=0)[0], deterministic=True)
    assert env.action_space.contains(action.astype(np.float32))
