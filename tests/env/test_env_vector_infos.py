"""NineBallVectorEnv infos: batched key by key exactly as ``VectorEnv._add_info`` would, table by table."""

from __future__ import annotations

import numpy as np



def _equal(x, y) -> bool:
    """Equal values, NaN equal to NaN, tuples element by element."""
    if isinstance(x, tuple) and isinstance(y, tuple):
        return len(x) == len(y) and all(_equal(u, v) for u, v in zip(x, y))
    return x == y or (x != x and y != y)


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
            and all(_equal(x, y) for x, y in zip(a.tolist(), b.tolist())))


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


def test_infos_equal_single_envs_batched_by_add_info() -> None:
    """Every step's infos (ruling texts, opponent rulings, racks, reward parts, reset infos on autoreset) equal
    the single envs' infos batched table by table, with noise, a race to 2 and reward shaping."""
    import gymnasium as gym

    from nineball_env.vector import NineBallVectorEnv

    B, kw = 3, dict(noise="icga", match_race=2, reward_shaping={"pot": 0.1, "foul": -0.2, "opponent_pot": -0.05})
    venv = NineBallVectorEnv(B, max_episode_steps=30, **kw)
    singles = [gym.make("NineBall-v0", max_episode_steps=30, **kw) for _ in range(B)]
    _, info = venv.reset(seed=21)
    want: dict = {}
    for k, env in enumerate(singles):
        want = venv._add_info(want, env.reset(seed=21 + k)[1], k)
    assert _same(info, want)
    rng, done, texts = np.random.default_rng(2), [False] * B, 0
    for _ in range(40):
        acts = rng.uniform(-1, 1, (B, 9))
        _, _, term, trunc, info = venv.step(acts)
        want = {}
        for k, env in enumerate(singles):
            if done[k]:
                one, done[k] = env.reset()[1], False
            else:
                _, _, te, tr, one = env.step(acts[k])
                done[k] = te or tr
            want = venv._add_info(want, one, k)
            texts += len(one["opponent"]["rulings"])
        assert _same(info, want)
    assert texts > 20
