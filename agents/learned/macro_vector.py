"""MacroActionVectorWrapper: the macro actions of ``agents.learned.macro`` on the native ``NineBallVectorEnv``.

The single-env ``MacroActionWrapper`` needs one env per table; this wrapper serves every table of a
``gym.make_vec("NineBall-v0", num_envs=B)`` env with one ``MacroPlanner``: the slot features of all B
observations come from ``MacroPlanner.features_batch`` and the B macro actions are decoded by
``MacroPlanner.actions_batch`` (pot options, throw-corrected aims and leave values of every table in one
compiled call each, ``agents.shots.kernels``) before one batched ``step`` of the vector env (so the shots of every
table are simulated together, and a batched opponent decides for all tables at once). The single wrapper makes
the same calls with one row, so the two paths cannot disagree. Tables that the vector env autoresets this step
(``AutoresetMode.NEXT_STEP``) get a zero action, which it ignores. In ``SAME_STEP`` mode the final observations
(``infos["final_obs"]``) become features too, in the same one call as the step's observations.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv, VectorWrapper
from gymnasium.vector.utils import batch_space

from agents.learned.macro import MacroPlanner, MacroStyle, macro_action_space, macro_observation_space
from nineball_env.actions import N_ACTION
from nineball_env.vector import NineBallVectorEnv


class MacroActionVectorWrapper(VectorWrapper):
    """A ``NineBallVectorEnv`` with macro actions and slot features (``agents.learned.macro``), for all tables.

    ``noise`` is the noise preset the slots' ease estimates assume; ``leaves`` adds the leave features, ``style`` is
    the planner's ``MacroStyle``. Infos gain ``macro_slot`` (−1 where no
    slot was chosen: breaks, push-out choices, autoresets).
    """

    def __init__(self, env: VectorEnv, noise: str = "icga", leaves: bool = False,
                 style: MacroStyle | None = None) -> None:
        super().__init__(env)
        base = env.unwrapped
        if not isinstance(base, NineBallVectorEnv):
            raise ValueError(f"env: expected a NineBallVectorEnv (gym.make_vec('NineBall-v0')), got "
                             f"{type(base).__name__}")
        cfg = base.config
        scales = {base.envs[k].scale for k in range(self.num_envs)}
        if len(scales) != 1:
            raise ValueError("env: expected one action scale for every table")
        self.planner = MacroPlanner(cfg.table, cfg.params, noise, scales.pop(), leaves, style,
                                    cache_size=4 * self.num_envs)  # room for a step's final observations too
        self.single_action_space = macro_action_space()
        self.single_observation_space = macro_observation_space(leaves)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._obs: np.ndarray | None = None
        self._feats: np.ndarray | None = None  # the features of ``_obs`` (a copy of those returned)

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        feats = self._reset_features(obs, None if not options else options.get("reset_mask"))
        self._obs, self._feats = obs, feats.copy()
        return feats, self._with_slots(info, np.full(self.num_envs, -1))

    def decode(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The vector env's (B, 9) actions for (B, MACRO_DIM) macro actions on the current tables, and each
        table's slot (−1: none). Changes nothing but the planner's cache."""
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        macro = np.asarray(actions, dtype=np.float64)
        if macro.shape != (self.num_envs, self.single_action_space.shape[0]):
            raise ValueError(f"actions: expected shape {(self.num_envs, self.single_action_space.shape[0])}, "
                             f"got {macro.shape}")
        live = np.flatnonzero(~self.env.unwrapped._autoreset)
        env_actions = np.zeros((self.num_envs, N_ACTION), dtype=np.float32)
        slots = np.full(self.num_envs, -1)
        if live.size:
            env_actions[live], slots[live] = self.planner.actions_batch(self._obs[live], macro[live])
        return env_actions, slots

    def step(self, actions):
        env_actions, slots = self.decode(actions)
        obs, reward, terminated, truncated, info = self.env.step(env_actions)
        ended = info.get("_final_obs") if self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP else None
        if ended is None or not ended.any():
            feats = self._features(obs)
        else:  # the final observations' features in the same call (a new dict: the env's infos are left as they are)
            rows = np.flatnonzero(ended)
            both = self._features(np.concatenate([obs, np.stack(list(info["final_obs"][rows]))]))
            feats = both[:self.num_envs]
            final = np.full(self.num_envs, None, dtype=object)
            for i, k in enumerate(rows.tolist()):
                final[k] = both[self.num_envs + i]
            info = dict(info, final_obs=final)
        self._obs, self._feats = obs, feats.copy()
        return feats, reward, terminated, truncated, self._with_slots(info, slots)

    def _features(self, obs: np.ndarray) -> np.ndarray:
        return self.planner.features_batch(obs)

    def _reset_features(self, obs: np.ndarray, mask: Any) -> np.ndarray:
        """The features of a reset's observations: with a ``reset_mask``, only the reset rows' are computed, the
        others kept from the last call where their observations are unchanged (the features are a function of the
        observation alone); else all of them."""
        if mask is None or self._feats is None:
            return self._features(obs)
        mask = np.asarray(mask, dtype=bool)
        if not np.array_equal(obs[~mask], self._obs[~mask]):  # tables changed behind the wrapper's back
            return self._features(obs)
        feats = self._feats.copy()
        if mask.any():
            feats[mask] = self._features(obs[mask])
        return feats

    def _with_slots(self, info: dict[str, Any], slots: np.ndarray) -> dict[str, Any]:
        return dict(info, macro_slot=slots, _macro_slot=np.ones(self.num_envs, dtype=bool))


__all__ = ["MacroActionVectorWrapper"]
