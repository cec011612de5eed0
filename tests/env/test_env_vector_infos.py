"""NineBallVectorEnv infos: batched key by key exactly as ``VectorEnv._add_info`` would, table by table."""

from __future__ import annotations

import numpy as np



def _same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
            and all(x == y or (x != x and y != y) for x, y in zip(a.tolist(), b.tolist())))


def test_batched_infos_match_add_info_table_by_table() -> None:
    from nineball_env.vector import NineBallVectorEnv

    venv = NineBallVectorEnv(4, match_race=2, reward_shaping={"pot": 0.1})
    infos = {}
    original = venv._batch_infos

    def both(items, ks):
        slow: dict = {}
        for k, info in zip(ks, items):
            slow = venv._add_info(slow, info, k)
        fast = original(items, ks)
        assert _same(fast, slow)
        infos["n"] = infos.get("n", 0) + 1
        return fast

    venv._batch_infos = both
    rng = np.random.default_rng(0)
    venv.reset(seed=3)
    venv.reset(options={"reset_mask": np.array([True, False, True, False])})
    for _ in range(15):
        venv.step(rng.uniform(-1, 1, (4, 9)))
    assert infos["n"] >= 17  # nested dicts count too
