"""Steps and resets leave no reference cycles behind: the garbage collector finds nothing to free in a training loop,
so its collections stay cheap (what ``benchmarks/env_throughput.py`` times with the collector on).

Each check runs in a new interpreter: in a test process, objects of earlier tests (a matplotlib figure, say) can
become cyclic garbage at any time and would be counted as the env's."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_MEASURE = """
import gc, json
import gymnasium as gym
import numpy as np
import nineball_env
from nineball_env.vector import NineBallVectorEnv

def cyclic_garbage(play):
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        play()
        gc.collect()
        return [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
"""

_SINGLE = """
env = gym.make("NineBall-v0", noise="icga")
env.reset(seed=0)
rng = np.random.default_rng(0)

def play(steps=300):
    for action in rng.uniform(-1, 1, (steps, 9)).astype(np.float32):
        if any(env.step(action)[2:4]):
            env.reset()
    for _ in range(50):
        env.reset()

play()  # warm: first calls, caches
print(json.dumps(cyclic_garbage(play)))
"""

_VECTOR = """
envs = NineBallVectorEnv(8, threads=1)
envs.reset(seed=0)
rng = np.random.default_rng(1)

def play(steps=40):
    for actions in rng.uniform(-1, 1, (steps, 8, 9)).astype(np.float32):
        envs.step(actions)
    envs.reset(options={"reset_mask": np.arange(8) % 2 == 0})

play()
print(json.dumps(cyclic_garbage(play)))
"""


def _garbage_of(scenario: str) -> list[str]:
    """The type names of what the collector would free after the scenario's timed play, in a new interpreter."""
    code = textwrap.dedent(_MEASURE) + textwrap.dedent(scenario)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_single_env_steps_and_resets_leave_no_cycles() -> None:
    assert _garbage_of(_SINGLE) == []


def test_vector_env_steps_and_resets_leave_no_cycles() -> None:
    assert _garbage_of(_VECTOR) == []
