"""A vector env's table can change its opponent between steps (``NineBallVectorEnv.set_opponent``): a Python
opponent is asked from the next decision on, and the compiled opponent again after it is set back."""

from __future__ import annotations

import numpy as np

from nineball_env.aiming import AimingPolicy
from nineball_env.vector import NineBallVectorEnv


class Counting:
    """A Python opponent that shoots softly straight up the table and counts its decisions."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, obs: np.ndarray, info: dict) -> np.ndarray:
        self.calls += 1
        return np.array([0.5, -0.8, 0, 0, -1, 0, 0, -1, -1], dtype=np.float32)


def test_a_table_set_to_a_python_opponent_asks_it_and_set_back_does_not() -> None:
    envs = NineBallVectorEnv(4, threads=1, first_breaker="opponent")
    envs.reset(seed=3)
    rng = np.random.default_rng(0)
    python = Counting()
    envs.set_opponent(1, python)
    assert envs._seats.external
    decisions = 0
    for _ in range(30):
        _, _, _, _, infos = envs.step(rng.uniform(-1, 1, (4, 9)).astype(np.float32))
        decisions += int(infos["opponent"]["decisions"][1])
    assert python.calls == decisions > 0  # every opponent decision on table 1 was the Python opponent's
    envs.set_opponent(1, AimingPolicy())
    assert not envs._seats.external
    before = python.calls
    for _ in range(10):
        envs.step(rng.uniform(-1, 1, (4, 9)).astype(np.float32))
    assert python.calls == before
