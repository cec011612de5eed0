"""SB3VecEnvAdapter: a ``NineBallVectorEnv`` (or a vector wrapper of one) as a stable-baselines3 ``VecEnv``.

SB3 resets a finished env in the same step and returns the final observation in
``info["terminal_observation"]`` (``info["TimeLimit.truncated"]`` on a truncation): the adapter puts the vector env
in ``AutoresetMode.SAME_STEP`` mode, so one vector step is one SB3 step, the finished tables' new racks dealt and
their opening decisions played in it (``infos["final_obs"]`` is the terminal observation). Infos come back as
SB3's list of per-env dicts: each table's NineBall-v0 info (``NineBallVectorEnv.table_info``; of the step that
ended, ``final_table_info``, for a finished table, whose new rack's info goes to ``reset_infos``) and the keys a
vector wrapper adds (``macro_slot``); the vector env's own array infos, which these replace, are not built
(``array_infos = False``). stable-baselines3 is imported when this module is.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("nineball_env.sb3_vec needs stable-baselines3: pip install stable-baselines3") from err

from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as VectorEnv_

from nineball_env.vector import NineBallVectorEnv

_FINAL_KEYS = frozenset(("final_obs", "_final_obs", "final_info", "_final_info"))


def unbatch_info(infos: dict[str, Any], k: int) -> dict[str, Any]:
    """Table ``k``'s info from Gymnasium's vector info dict (values + ``_key`` masks, nested dicts too)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get("_" + key)
        if mask is not None and not mask[k]:
            continue
        out[key] = unbatch_info(value, k) if isinstance(value, dict) else value[k]
    return out


def unbatch_infos(infos: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """``unbatch_info`` of every table 0..n-1 in one pass over the keys (each mask read once): the same dicts, keys
    in the same order."""
    out: list[dict[str, Any]] = [{} for _ in range(n)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get("_" + key)
        nested = unbatch_infos(value, n) if isinstance(value, dict) else None
        keep = range(n) if mask is None else [k for k, m in enumerate(np.asarray(mask)[:n].tolist()) if m]
        for k in keep:
            out[k][key] = value[k] if nested is None else nested[k]
    return out


class SB3VecEnvAdapter(VecEnv):
    """A stable-baselines3 ``VecEnv`` over a ``NineBallVectorEnv`` (see the module docstring); it sets the vector
    env's ``autoreset_mode`` to ``SAME_STEP``."""

    def __init__(self, venv: VectorEnv_) -> None:
        if not isinstance(getattr(venv, "unwrapped", None), NineBallVectorEnv):
            raise ValueError("venv: expected a NineBallVectorEnv (or a vector wrapper of one), got "
                             f"{type(venv).__name__}")
        self.venv = venv
        self.base = venv.unwrapped
        self._actions: np.ndarray | None = None
        self.base.array_infos = False  # each table's info comes from ``table_info``: the arrays would go unread
        self.base.autoreset_mode = AutoresetMode.SAME_STEP  # one vector step per SB3 step
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def _extra(self, infos: dict[str, Any]) -> list[dict[str, Any]]:
        """The keys a wrapper added to the vector infos, per table (none: the same empty dict for every table)."""
        keys = {key: value for key, value in infos.items() if key not in _FINAL_KEYS}
        if not keys:
            return [{}] * self.num_envs
        return unbatch_infos(keys, self.num_envs)

    def reset(self) -> np.ndarray:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, infos = self.venv.reset(seed=seeds)
        extra = self._extra(infos)
        self.reset_infos = self.base.table_infos()
        for info, more in zip(self.reset_infos, extra):
            info.update(more)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        acts, self._actions = self._actions, None
        obs, reward, terminated, truncated, infos = self.venv.step(acts)
        dones = terminated | truncated
        extra = self._extra(infos)
        per_env = self.base.table_infos()  # each table's info, one pass (of its new rack where its episode ended)
        cuts = (truncated & ~terminated).tolist()
        ended = np.flatnonzero(dones).tolist()
        for k, final in zip(ended, self.base.final_table_infos(ended)):  # SB3 returns the final info
            final.update(extra[k])
            final["TimeLimit.truncated"] = cuts[k]
            final["terminal_observation"] = np.array(infos["final_obs"][k])
            self.reset_infos[k], per_env[k] = per_env[k], final
        for k, done in enumerate(dones.tolist()):
            if not done:
                info = per_env[k]
                info.update(extra[k])
                info["TimeLimit.truncated"] = cuts[k]
        return obs, reward.astype(np.float32), dones, per_env

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self.base.envs[k], attr_name) for k in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        for k in self._get_indices(indices):
            setattr(self.base.envs[k], attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        envs = [self.base.envs[k] for k in self._get_indices(indices)]
        return [getattr(env, method_name)(*method_args, **method_kwargs) for env in envs]

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> Sequence[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]


__all__ = ["SB3VecEnvAdapter", "unbatch_info", "unbatch_infos"]
