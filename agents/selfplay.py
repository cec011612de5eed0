"""Self-play for training: a pool of the learner's frozen snapshots, and an opponent that plays one of them per rack.

``SnapshotPool`` keeps up to ``capacity`` exported actors (``agents.numpy_policy.NumpyPolicy``, so a
snapshot is frozen and costs no torch call); ``SnapshotCallback`` adds the learner every ``every``
PPO updates. ``SelfPlayOpponent`` is an env opponent with ``seed``: the env re-seeds it on every
reset, i.e. every rack, and it then draws the snapshot it plays for that whole rack (``GhostBallAgent``
while the pool is empty). The vector env deep-copies a seeded opponent per table; the copies share
one pool (``__deepcopy__`` returns the pool itself), so each table's opponent is fixed for its rack.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.ghost_ball import GhostBallAgent
from agents.learned import LearnedAgent
from agents.numpy_policy import NumpyPolicy


class SnapshotPool:
    """The most recent ``capacity`` frozen policies; ``sample`` draws one uniformly."""

    def __init__(self, capacity: int = 8) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity: expected a whole number >= 1, got {capacity!r}")
        self.capacity = capacity
        self.snapshots: list[NumpyPolicy] = []
        self.added = 0

    def __len__(self) -> int:
        return len(self.snapshots)

    def __deepcopy__(self, memo: dict) -> "SnapshotPool":
        return self  # shared by every table's opponent

    def add(self, policy: NumpyPolicy) -> None:
        """Add a frozen policy, dropping the oldest beyond ``capacity``."""
        if not isinstance(policy, NumpyPolicy):
            raise ValueError(f"policy: expected a NumpyPolicy, got {type(policy).__name__}")
        self.snapshots.append(policy)
        self.added += 1
        del self.snapshots[:-self.capacity]

    def sample(self, rng: np.random.Generator) -> NumpyPolicy | None:
        """A uniformly drawn snapshot, or None while the pool is empty."""
        return self.snapshots[int(rng.integers(len(self.snapshots)))] if self.snapshots else None


class SelfPlayOpponent:
    """Plays a snapshot of ``pool`` drawn at each ``seed`` (each rack); GhostBall while the pool is empty."""

    def __init__(self, pool: SnapshotPool, seed: int = 0) -> None:
        self.pool = pool
        self.fallback = GhostBallAgent()
        self.player: Any = self.fallback
        self.snapshot: NumpyPolicy | None = None
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Draw this rack's snapshot (the env calls this on every reset)."""
        rng = np.random.default_rng(seed)
        self.snapshot = self.pool.sample(rng)
        self.player = self.fallback if self.snapshot is None else LearnedAgent(self.snapshot)
        if hasattr(self.fallback, "seed"):
            self.fallback.seed(int(rng.integers(2**31)))

    def act(self, observation: np.ndarray) -> np.ndarray:
        return self.player.act(observation)


def snapshot_callback(pool: SnapshotPool, every: int) -> Any:
    """An SB3 callback adding the learner's exported actor to ``pool`` after every ``every``-th update (and at start)."""
    from stable_baselines3.common.callbacks import BaseCallback

    from agents.numpy_policy import export_sb3

    if every < 1:
        raise ValueError(f"every: expected a whole number >= 1, got {every!r}")

    class SnapshotCallback(BaseCallback):
        def _on_training_start(self) -> None:
            self.rollouts = 0
            pool.add(export_sb3(self.model))

        def _on_rollout_end(self) -> None:
            self.rollouts += 1
            if self.rollouts % every == 0:
                pool.add(export_sb3(self.model))
            self.logger.record("nineball/pool_size", len(pool))

        def _on_step(self) -> bool:
            return True

    return SnapshotCallback()
