"""Self-play for training: a pool of the learner's frozen snapshots, and an opponent that plays one of them per rack.

``SnapshotPool`` keeps up to ``capacity`` exported actors (``agents.learned.numpy_policy.NumpyPolicy``, so a
snapshot is frozen and costs no torch call); ``SnapshotCallback`` adds the learner every ``every``
PPO updates. ``SelfPlayOpponent`` is an env opponent with ``seed``: the env re-seeds it on every deal, i.e. every
rack, and the table then plays the snapshot drawn from that seed for the whole rack (``GhostBallAgent`` while the
pool is empty).

On the vector env one ``SelfPlayOpponent`` serves every table (``__deepcopy__`` returns itself, so the env keeps
one opponent object and asks it once per round for all its tables: ``act_batch``). ``bind(vector_env)`` lets it
tell the tables apart: it learns which table each ``seed`` belongs to from the deal that follows it, and which
tables a round's observations come from from the encoding that precedes the query. Each round it stacks the
observations of the tables that play the same snapshot, computes their macro features in one
``MacroPlanner.features_batch`` call, evaluates the snapshot once on the stack (numpy) and decodes all the macro
actions with one ``MacroPlanner.actions_batch``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.learned.macro import MACRO_DIM, MacroPlanner, MacroStyle, macro_obs_size
from agents.learned.numpy_policy import NumpyPolicy, export_sb3
from agents.players.ghost_ball import GhostBallAgent

OPPONENT = 1  # the env's seat of the opponent (``nineball_env.turns.OPPONENT``)


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
    """Plays a snapshot of ``pool`` drawn at each ``seed`` (each rack) on each table; GhostBall while the pool is
    empty. One object for every table of a vector env (see the module docstring: ``bind`` it)."""

    def __init__(self, pool: SnapshotPool, seed: int = 0) -> None:
        self.pool = pool
        self.fallback = GhostBallAgent()
        self.snapshots: dict[int, NumpyPolicy | None] = {}  # table -> the snapshot it plays this rack
        self._planners: dict[tuple, MacroPlanner] = {}
        self._tables: Any = None  # the bound vector env's TableBatch
        self._seed: int | None = None  # the last seed, waiting for its table's deal
        self._encoded: np.ndarray | None = None  # the tables of the last opponent observations encoded
        self.seed(seed)

    def __deepcopy__(self, memo: dict) -> "SelfPlayOpponent":
        return self  # one opponent for every table: it decides for all of them in one call

    @property
    def snapshot(self) -> NumpyPolicy | None:
        """The snapshot of table 0 (a lone env's table)."""
        return self.snapshots.get(0)

    def seed(self, seed: int) -> None:
        """Draw the rack's snapshot (the env calls this before every deal): for table 0 of a lone env, for the table
        dealt next once bound to a vector env."""
        self._seed = int(seed)
        if self._tables is None:
            self._draw(0)

    def _draw(self, k: int) -> None:
        """Table k's snapshot for its rack, drawn from the pending seed (which it uses up)."""
        rng = np.random.default_rng(self._seed)
        self._seed = None
        self.snapshots[k] = self.pool.sample(rng)

    def bind(self, vector_env: Any) -> "SelfPlayOpponent":
        """Serve the tables of ``vector_env`` (a ``gym.make_vec("NineBall-v0")`` built with this opponent): its
        batch's deals and opponent encodings are noted, so each seed goes to the table dealt after it and each
        observation of ``act_batch`` to its table. Returns self."""
        base = vector_env.unwrapped
        tables = getattr(base, "tables", None)
        if tables is None or not all(getattr(env, "opponent", None) is self for env in base.envs):
            raise ValueError("vector_env: expected a NineBallVectorEnv built with this opponent")
        deal, encode = tables.deal, tables.encode

        def noted_deal(k: int, breaker: int) -> None:
            if self._seed is not None:  # a deal after a seed: a new rack (a redeal keeps the table's snapshot)
                self._draw(int(k))
            deal(k, breaker)

        def noted_encode(ks: np.ndarray, player: int) -> np.ndarray:
            if player == OPPONENT:
                self._encoded = np.asarray(ks, dtype=np.int64).copy()
            return encode(ks, player)

        tables.deal, tables.encode = noted_deal, noted_encode
        self._tables = tables
        self.snapshots = {k: self.snapshots.get(k) for k in range(len(base.envs))}
        return self

    def act(self, observation: np.ndarray) -> np.ndarray:
        return self.act_batch(np.asarray(observation, dtype=np.float32).reshape(1, -1))[0]

    def act_batch(self, obs: np.ndarray) -> np.ndarray:
        """The actions (n, 9) for the observations (n, 54) of the tables that await the opponent: the rows of each
        snapshot evaluated together (GhostBall row by row on tables without one)."""
        obs = np.asarray(obs, dtype=np.float32)
        ks = self._tables_of(obs)
        out = np.zeros((len(obs), 9), dtype=np.float32)
        groups: dict[int, list[int]] = {}
        for i, k in enumerate(ks):
            groups.setdefault(id(self.snapshots.get(k)), []).append(i)
        for rows in groups.values():
            policy = self.snapshots.get(ks[rows[0]])
            if policy is None:
                for i in rows:
                    out[i] = self.fallback.act(obs[i])
                continue
            planner = self._planner(policy, len(obs))
            macro, _ = policy.predict(planner.features_batch(obs[rows]), deterministic=True)
            out[rows] = planner.actions_batch(obs[rows], np.asarray(macro).reshape(len(rows), MACRO_DIM))[0]
        return out

    def _tables_of(self, obs: np.ndarray) -> list[int]:
        """The table of each observation row: table 0 for a lone env, else the tables just encoded."""
        if self._tables is None:
            return [0] * len(obs)
        ks = self._encoded
        if ks is None or len(ks) != len(obs):
            raise RuntimeError("act_batch: the observations do not come from the bound vector env's last round")
        return ks.tolist()

    def _planner(self, policy: NumpyPolicy, n: int) -> MacroPlanner:
        """The macro planner for a snapshot's observation size and style (one per kind, shared by its snapshots)."""
        if policy.action_space.shape != (MACRO_DIM,):
            raise ValueError(f"snapshot: expected a macro-action policy ({MACRO_DIM} outputs), got "
                             f"{policy.action_space.shape}")
        leaves = policy.obs_dim == macro_obs_size(True)
        style = MacroStyle(**(policy.meta.get("macro_style") or {}))
        key = (leaves, style)
        if key not in self._planners:
            self._planners[key] = MacroPlanner(leaves=leaves, style=style, cache_size=max(2 * n, 16))
        return self._planners[key]


def snapshot_callback(pool: SnapshotPool, every: int, meta: dict[str, Any] | None = None) -> Any:
    """An SB3 callback adding the learner's exported actor (with ``meta``: its macro style) to ``pool`` after every
    ``every``-th update (and at start)."""
    from stable_baselines3.common.callbacks import BaseCallback

    if every < 1:
        raise ValueError(f"every: expected a whole number >= 1, got {every!r}")

    class SnapshotCallback(BaseCallback):
        def _on_training_start(self) -> None:
            self.rollouts = 0
            pool.add(export_sb3(self.model, meta))

        def _on_rollout_end(self) -> None:
            self.rollouts += 1
            if self.rollouts % every == 0:
                pool.add(export_sb3(self.model, meta))
            self.logger.record("nineball/pool_size", len(pool))

        def _on_step(self) -> bool:
            return True

    return SnapshotCallback()
