"""The opponent protocol: turn any policy object or callable into ``observation, info -> action``.

Accepted, in this order: an object with ``act(observation)`` (nineball agents), one with
``predict(observation, deterministic=True)`` (a stable-baselines3 model), or a callable
``(observation, info) -> action``. An opponent with ``seed(int)`` is re-seeded from the env's
generator on every ``reset`` so that a seeded episode replays exactly.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from nineball_env.actions import N_ACTION, _in_unit_box

Opponent = Any  # an agent object or a callable, see the module docstring


def check_opponent(opponent: Opponent) -> Opponent:
    """``opponent`` if it follows the protocol, else ValueError."""
    if not (hasattr(opponent, "act") or hasattr(opponent, "predict") or callable(opponent)):
        raise ValueError(f"opponent: expected an object with act(observation), predict(observation) or a callable "
                         f"(observation, info) -> action, got {type(opponent).__name__}")
    return opponent


def query(opponent: Opponent, obs: np.ndarray, info: dict) -> np.ndarray:
    """The opponent's action as float64, clipped to [-1, 1]; ValueError for a wrong shape or NaN."""
    if hasattr(opponent, "act"):
        action = opponent.act(obs)
    elif hasattr(opponent, "predict"):
        action, _ = opponent.predict(obs, deterministic=True)
    else:
        action = opponent(obs, info)
    return _checked(np.asarray(action, dtype=np.float64).reshape(-1), (N_ACTION,), "opponent action")


def batched(opponent: Opponent) -> bool:
    """``query_batch`` decides for all rows of this opponent in one call (and needs no infos)."""
    return hasattr(opponent, "act_batch") or (not hasattr(opponent, "act") and hasattr(opponent, "predict"))


def query_batch(opponent: Opponent, obs: np.ndarray, infos: list[dict] | None) -> np.ndarray:
    """``query`` for many observations (n, 54) of one opponent object: (n, 9) float64 actions.

    One call when the opponent decides in batches (``act_batch``, or ``predict`` of a stable-baselines3
    model on the stacked observations), else ``query`` row by row. A batched torch model may differ from
    its one-row answers in the last bits; ``AimingPolicy.act_batch`` equals its ``act`` exactly.
    """
    if len(obs) == 1:  # one observation is asked as one: ``act`` / ``predict`` of one row, as a lone env asks
        return query(opponent, obs[0], None if infos is None else infos[0])[None]
    if not batched(opponent):
        if infos is None:
            raise ValueError("infos: this opponent decides row by row and needs one info dict per observation")
        return np.stack([query(opponent, row, info) for row, info in zip(obs, infos)]) if len(obs) else \
            np.zeros((0, N_ACTION))
    actions = opponent.act_batch(obs) if hasattr(opponent, "act_batch") else opponent.predict(obs, deterministic=True)[0]
    return _checked(np.asarray(actions, dtype=np.float64), (len(obs), N_ACTION), "opponent actions")


def _checked(arr: np.ndarray, shape: tuple[int, ...], what: str) -> np.ndarray:
    """``arr`` clipped to [-1, 1] (itself when inside, the usual case), or ValueError naming ``what``."""
    if arr.shape == shape and _in_unit_box(arr.ravel()):  # NaN fails it
        return arr
    if arr.shape != shape or not np.all(np.isfinite(arr)):
        raise ValueError(f"{what}: expected {shape} finite numbers, got shape {arr.shape}")
    return np.clip(arr, -1.0, 1.0)


def reseed(opponent: Opponent, rng: np.random.Generator) -> None:
    """Re-seed an opponent that has ``seed(int)`` from ``rng`` (one draw, made only for such opponents)."""
    seed: Callable[[int], None] | None = getattr(opponent, "seed", None)
    if callable(seed):
        seed(int(rng.integers(2**31)))
