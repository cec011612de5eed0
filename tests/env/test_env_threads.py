"""A turn on several threads plays exactly as on one: each table claims its own generator's draws, whichever thread
plays it (``kernels.turn.play_turns``)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from nineball_env.vector import NineBallVectorEnv


@pytest.mark.parametrize("kwargs", [dict(noise="icga", match_race=2), dict(reward_shaping={"pot": 0.1})])
def test_two_threads_play_like_one(kwargs) -> None:
    if numba.config.NUMBA_NUM_THREADS < 2:  # a one-CPU machine (or affinity): as tests/physics/test_physics_batch.py
        pytest.skip(f"numba has {numba.config.NUMBA_NUM_THREADS} thread(s) here; the test needs 2")
    runs = []
    for threads in (1, 2):
        venv = NineBallVectorEnv(24, threads=threads, max_episode_steps=20, **kwargs)
        rng = np.random.default_rng(3)
        obs, _ = venv.reset(seed=7)
        got = [obs]
        for _ in range(30):
            obs, reward, term, trunc, info = venv.step(rng.uniform(-1, 1, (24, 9)))
            got += [obs, reward, term, trunc, info["n_events"], info["opponent"]["decisions"]]
        runs.append(got)
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


def test_threads_outside_the_range_are_refused() -> None:
    with pytest.raises(ValueError, match="threads"):
        NineBallVectorEnv(2, threads=0)
