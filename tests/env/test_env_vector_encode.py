"""nineball_env.vector.encode_batch: observation.encode for many games at once, bit for bit."""

from __future__ import annotations

import numpy as np

from nineball_env import actions, observation
from nineball_env.game import Game, GameConfig
from nineball_env.vector import encode_batch


def test_encode_batch_matches_encode_for_both_players() -> None:
    rng = np.random.default_rng(1)
    games = [Game(GameConfig(race_to=1 + s % 3), np.random.default_rng(s), first_breaker=s % 2) for s in range(12)]
    t = games[0].config.table
    checked = 0
    for _ in range(25):
        for player in (0, 1):
            got = encode_batch(games, player, t.width, t.length)
            want = np.stack([observation.encode(g.balls.pos, g.on_table(), g.rack, g.match, player, t.width, t.length)
                             for g in games])
            assert got.dtype == np.float32 and np.array_equal(got, want)
            checked += len(games)
        for g in games:
            if not g.over:
                g.apply(g.rack.shooter, g.decode(rng.uniform(-1, 1, actions.N_ACTION)))
    assert checked >= 500 and encode_batch([], 0, t.width, t.length).shape == (0, observation.OBS_SIZE)


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
