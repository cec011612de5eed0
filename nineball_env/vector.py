"""NineBallVectorEnv: ``num_envs`` NineBall-v0 tables stepped together, their games held as arrays.

A ``gymnasium.vector.VectorEnv`` with the single-agent semantics of ``NineBall-v0`` (the same spaces,
rewards, infos and time limit); ``gymnasium.make_vec("NineBall-v0")`` builds it. The tables are one
``game.TableBatch`` and a step is ``turns.step`` on all of them: one batch simulation, one read of the
event logs and one call of the rules kernel per round of decisions, one batched query of a shared
opponent per round (``AimingPolicy.act_batch`` or an SB3 model's ``predict``).

Autoreset mode: ``NEXT_STEP`` (``metadata["autoreset_mode"]``): the step after a table terminates or
truncates resets it (its action is ignored, reward 0, terminated/truncated False, the reset's info).
``reset(options={"reset_mask": mask})`` resets only the masked tables.

Seeding: ``reset(seed=s)`` seeds table k with ``s + k`` (a list seeds table by table), as ``SyncVectorEnv``
seeds its sub-envs; each table owns its generator, so table k replays ``gymnasium.make("NineBall-v0")``
reset with seed ``s + k`` and given the same actions, noise included.
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from nineball_env import actions, rewards, turns
from nineball_env.env import NineBallEnv
from nineball_env.game import TableBatch
from nineball_env.turns import LEARNER


class NineBallVectorEnv(VectorEnv):
    """``num_envs`` NineBall-v0 tables in one process, shots simulated in batches (see the module docstring).

    Args:
        num_envs: number of tables.
        max_episode_steps: learner decisions before truncation (default: NineBall-v0's registration, 200).
        threads: numba threads for ``physics.simulate_batch`` (None: numba's default).
        log_capacity: events kept per table in the batch log (longer logs are re-simulated alone).
        **env_kwargs: ``NineBallEnv`` keyword arguments (``opponent``, ``match_race``, ``noise``, ...)
            applied to every table. An ``opponent`` with ``seed()`` is deep-copied per table (each is
            re-seeded from its table's generator); any other opponent object is shared, and one with
            ``act_batch`` (the default ``AimingPolicy``) or an SB3 model decides for all its tables in one call.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, *, max_episode_steps: int | None = None, threads: int | None = None,
                 log_capacity: int = 256, **env_kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs: expected a whole number >= 1, got {num_envs!r}")
        if env_kwargs.pop("render_mode", None) is not None:
            raise ValueError("render_mode: NineBallVectorEnv does not render; use NineBallEnv for that")
        self.num_envs = int(num_envs)
        self.max_episode_steps = int(gym.spec("NineBall-v0").max_episode_steps if max_episode_steps is None
                                     else max_episode_steps)
        if self.max_episode_steps < 1:
            raise ValueError(f"max_episode_steps: expected >= 1, got {max_episode_steps!r}")
        opp = env_kwargs.pop("opponent", None)
        per_table = opp is not None and callable(getattr(opp, "seed", None))
        self.envs: list[NineBallEnv] = [
            NineBallEnv(opponent=copy.deepcopy(opp) if per_table else opp, **env_kwargs) for _ in range(self.num_envs)]
        self.config = self.envs[0].config
        if opp is None:  # the default AimingPolicy has no state: one for every table, so it decides in one batch
            for env in self.envs[1:]:
                env.opponent = self.envs[0].opponent
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._elapsed = np.zeros(self.num_envs, dtype=np.int64)
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._started = False
        env0 = self.envs[0]
        self.tables = TableBatch(self.config, [env.np_random for env in self.envs], env0.noise, env0.scale,
                                 int(log_capacity), threads)
        self._all = np.arange(self.num_envs)

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        seeds = self._seeds(seed)
        mask = None if not options or "reset_mask" not in options else np.asarray(options["reset_mask"])
        if mask is not None:
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"reset_mask: expected a boolean array of shape ({self.num_envs},), got {mask!r}")
            if not self._started and not mask.all():
                raise RuntimeError("the first reset() must reset every table")
        ks = list(range(self.num_envs)) if mask is None else np.flatnonzero(mask).tolist()
        for k in ks:
            gym.Env.reset(self.envs[k], seed=seeds[k])
            self.tables.rngs[k] = self.envs[k].np_random  # a seed makes a new generator
        theirs, redeals = turns.deal(self.tables, self.envs, ks)
        infos = self._reset_infos(ks, theirs, redeals)
        self._started = True
        return self.tables.encode(self._all, LEARNER), self._batch_infos([infos[k] for k in ks], ks)

    def step(self, actions_in):
        acts = self._check_actions(actions_in)  # ValueError, nothing changed
        if not self._started:
            raise RuntimeError("call reset() before step()")
        resetting = np.flatnonzero(self._autoreset).tolist()
        stepping = np.flatnonzero(~self._autoreset)
        mine, theirs, redeals = turns.step(self.tables, self.envs, stepping, acts[stepping], resetting)
        infos = self._reset_infos(resetting, theirs, redeals)
        B = self.num_envs
        reward = np.zeros(B, dtype=np.float64)
        terminated = np.zeros(B, dtype=bool)
        truncated = np.zeros(B, dtype=bool)
        shaping = self.envs[0].shaping
        for k in stepping.tolist():
            parts = rewards.reward_parts((mine[k], *theirs[k]), LEARNER, shaping)
            reward[k] = float(sum(parts.values()))
            terminated[k] = self.tables.done[k]
            self._elapsed[k] += 1
            truncated[k] = self._elapsed[k] >= self.max_episode_steps
            infos[k] = turns.info(self.tables, k, mine[k], theirs[k], parts, 0)
        self._autoreset = terminated | truncated
        obs = self.tables.encode(self._all, LEARNER)
        return obs, reward, terminated, truncated, self._batch_infos([infos[k] for k in range(B)], list(range(B)))

    # -- internals --------------------------------------------------------------------------------

    def _seeds(self, seed) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return [int(seed) + k for k in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed: expected an int, None or {self.num_envs} seeds, got {len(seeds)}")
        return seeds

    def _check_actions(self, actions_in) -> np.ndarray:
        arr = actions.as_action_array(actions_in, "actions")  # TypeError for text, bools, complex numbers
        if arr.shape != (self.num_envs, actions.N_ACTION):
            raise ValueError(f"actions: expected shape ({self.num_envs}, {actions.N_ACTION}), got {arr.shape}")
        if not (-1.0 <= arr.min() and arr.max() <= 1.0):  # NaN fails it too
            for k in range(self.num_envs):
                try:
                    actions.check_action(arr[k])
                except ValueError as err:
                    raise ValueError(f"actions[{k}]: {err}") from None
        return arr

    def _batch_infos(self, infos: list[dict[str, Any]], ks: list[int]) -> dict[str, Any]:
        """``infos[i]`` of table ``ks[i]`` batched as ``VectorEnv._add_info`` does table by table (same arrays,
        dtypes, ``_key`` masks and key order), key by key: every info has the keys (and no arrays) of ``turns.info``."""
        if not ks:
            return {}
        B, out = self.num_envs, {}
        every = len(ks) == B  # ks are sorted table indices: all of them, in order
        mask = np.zeros(B, dtype=np.bool_)
        mask[ks] = True
        for key, first in infos[0].items():
            values = [info[key] for info in infos]
            if isinstance(first, dict):
                array = self._batch_infos(values, ks)
            elif type(first) in (int, float, bool) or issubclass(type(first), np.number):
                if every:
                    array = np.array(values, dtype=type(first))
                else:
                    array = np.zeros(B, dtype=type(first))
                    array[ks] = values
            else:
                array = np.full(B, fill_value=None, dtype=object)
                for k, v in zip(ks, values):
                    array[k] = v
            out[key], out[f"_{key}"] = array, mask.copy()
        return out

    def _reset_infos(self, ks: list[int], theirs: dict, redeals: dict[int, int]) -> dict[int, dict]:
        """The infos of the tables ``ks`` just dealt; their step counts start again."""
        zero = dict.fromkeys(rewards.REWARD_PARTS, 0.0)
        self._elapsed[ks] = 0
        self._autoreset[ks] = False
        return {k: turns.info(self.tables, k, None, theirs[k], dict(zero), redeals[k]) for k in ks}


__all__ = ["NineBallVectorEnv"]
