"""nineball_env: the nine-ball rules engine (``nineball_env.rules``) and the Gymnasium environments.

Importing it registers ``NineBall-v0`` (``gymnasium.make("NineBall-v0")``, a time limit of 200
learner decisions); ``nineball_env.NineBallEnv`` is the class behind it. The two-player PettingZoo
env is ``nineball_env.aec.NineBallAEC`` (needs the ``pettingzoo`` extra). The env modules are
imported on first use, so ``import nineball_env.rules`` stays free of the physics and Gymnasium.
"""

from __future__ import annotations

from typing import Any

from gymnasium.envs.registration import register, registry

if "NineBall-v0" not in registry:
    register(id="NineBall-v0", entry_point="nineball_env.env:NineBallEnv", max_episode_steps=200,
             vector_entry_point="nineball_env.vector:NineBallVectorEnv")


def __getattr__(name: str) -> Any:
    """``NineBallEnv`` and ``AimingPolicy`` on first use (lazy, see the module docstring)."""
    if name == "NineBallEnv":
        from nineball_env.env import NineBallEnv

        return NineBallEnv
    if name == "AimingPolicy":
        from nineball_env.aiming import AimingPolicy

        return AimingPolicy
    raise AttributeError(f"module 'nineball_env' has no attribute {name!r}")


__all__ = ["AimingPolicy", "NineBallEnv"]
