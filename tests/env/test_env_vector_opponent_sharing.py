"""Which opponent objects a vector env shares between its tables: one with ``act_batch`` serves every table (it is
asked once per round for all of them), one with only ``seed()`` is copied per table (each re-seeded from its own
table's generator)."""

from __future__ import annotations

import numpy as np

from nineball_env.vector import NineBallVectorEnv

_SOFT = np.array([0.5, -0.8, 0, 0, -1, 0, 0, -1, -1], dtype=np.float64)


class Seeded:
    """An opponent with ``seed()`` that decides one observation at a time."""

    def __init__(self) -> None:
        self.seeds: list[int] = []

    def seed(self, seed: int | None = None) -> None:
        self.seeds.append(int(seed))

    def act(self, obs: np.ndarray) -> np.ndarray:
        return _SOFT.copy()


class SeededBatch(Seeded):
    """The same, deciding a batch of observations in one call."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[int] = []

    def act_batch(self, obs: np.ndarray) -> np.ndarray:
        self.rows.append(len(obs))
        return np.tile(_SOFT, (len(obs), 1))


def test_a_batched_opponent_is_shared_by_every_table_and_reseeded_by_each() -> None:
    opponent = SeededBatch()
    envs = NineBallVectorEnv(4, threads=1, opponent=opponent, first_breaker="opponent")
    assert all(seat.opponent is opponent for seat in envs.seats)
    envs.reset(seed=0)
    assert len(opponent.seeds) == 4  # one draw from each table's generator, as a per-table copy would get
    rng = np.random.default_rng(0)
    for _ in range(5):
        envs.step(rng.uniform(-1, 1, (4, 9)))
    assert max(opponent.rows) > 1  # asked for several tables in one call


def test_an_opponent_with_seed_but_no_batch_is_copied_per_table() -> None:
    opponent = Seeded()
    envs = NineBallVectorEnv(3, threads=1, opponent=opponent)
    copies = [seat.opponent for seat in envs.seats]
    assert len({id(c) for c in copies}) == 3 and all(c is not opponent for c in copies)

