"""Steps and resets leave no reference cycles behind: the garbage collector finds nothing to free in a training loop,
so its collections stay cheap (what ``benchmarks/env_throughput.py`` times with the collector on)."""

from __future__ import annotations

import gc

import gymnasium as gym
import numpy as np

import nineball_env  # noqa: F401  (registers NineBall-v0)
from nineball_env.vector import NineBallVectorEnv


def _cyclic_garbage(play) -> list:
    """What the collector would free after ``play()`` (kept aside with DEBUG_SAVEALL, then released)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        play()
        gc.collect()
        return [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_single_env_steps_and_resets_leave_no_cycles() -> None:
    env = gym.make("NineBall-v0", noise="icga")
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def play(steps: int = 300) -> None:
        for action in rng.uniform(-1, 1, (steps, 9)).astype(np.float32):
            if any(env.step(action)[2:4]):
                env.reset()
        for _ in range(50):
            env.reset()

    play()  # warm: first calls, caches
    assert _cyclic_garbage(play) == []


def test_vector_env_steps_and_resets_leave_no_cycles() -> None:
    envs = NineBallVectorEnv(8, threads=1)
    envs.reset(seed=0)
    rng = np.random.default_rng(1)

    def play(steps: int = 40) -> None:
        for actions in rng.uniform(-1, 1, (steps, 8, 9)).astype(np.float32):
            envs.step(actions)
        envs.reset(options={"reset_mask": np.arange(8) % 2 == 0})

    play()
    assert _cyclic_garbage(play) == []
