"""nineball_env: the nine-ball rules engine (``nineball_env.rules``) and the Gymnasium environments.

Importing it registers ``NineBall-v0`` (``gymnasium.make("NineBall-v0")``, a time limit of 200
learner decisions); ``nineball_env.NineBallEnv`` is the class behind it, and
``gymnasium.make_vec("NineBall-v0", num_envs=N, **kwargs)`` (the same keyword arguments) builds the
native ``nineball_env.vector.NineBallVectorEnv``. The two-player PettingZoo env is
``nineball_env.aec.NineBallAEC`` (needs the ``pettingzoo`` extra). The env modules are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from gymnasium.envs.registration import register, registry

if "NineBall-v0" not in registry:
    register(id="NineBall-v0", entry_point="nineball_env.env:NineBallEnv",
             vector_entry_point="nineball_env.vector:NineBallVectorEnv", max_episode_steps=200)


_LAZY = {"NineBallEnv": "nineball_env.env", "AimingPolicy": "nineball_env.aiming"}  # name -> its module


def __getattr__(name: str) -> Any:
    """``NineBallEnv`` and ``AimingPolicy`` on first use (lazy, see the module docstring)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'nineball_env' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


__all__ = ["AimingPolicy", "NineBallEnv"]
