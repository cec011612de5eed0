"""The default opponent: a ghost-ball aiming policy.

The policy (``kernels.aiming``) shoots the lowest ball into the pocket with the smallest cut angle
(clear paths preferred) at a medium speed; with ball in hand it places the cue ball for a straight-in
shot; it breaks hard from the middle of the head string, never pushes out, and on a choice it shoots.
Its geometry (ghost ball, cut angle, clear path) is the kernel's; ``agents.shots`` offers it to the agents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nineball_env import actions, observation, placement
from nineball_env.kernels import aiming as kernel
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table


def pocket_aims(table: Table = DEFAULT_TABLE) -> np.ndarray:
    """(6, 2) points [m] to send an object ball at: the pockets' capture centres (corners) and the
    side pockets' mouth centres on the rail line."""
    aims = table.pockets[:, :2].copy()
    aims[2] = (0.0, table.length / 2.0)
    aims[3] = (table.width, table.length / 2.0)
    return aims


class AimingPolicy:
    """Ghost-ball opponent: ``act(observation) -> action``; also callable as ``policy(observation, info)``.

    The policy is one numba kernel (``kernels.aiming.aim_batch``): ``act_batch`` decides for many
    observations in one call (the vector env's opponent turns), ``act`` is ``act_batch`` on one row.
    """

    def __init__(self, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                 break_speed: float = 9.0) -> None:
        self.table, self.params, self.break_speed = table, params, break_speed
        self._aims = np.ascontiguousarray(pocket_aims(table))
        self._pockets = np.ascontiguousarray(table.pockets, dtype=np.float64)

    def __call__(self, obs: np.ndarray, info: Any = None) -> np.ndarray:
        return self.act(obs)

    def act(self, obs: np.ndarray) -> np.ndarray:
        """The action (float32, 9) for an observation of this player's decision (see ``nineball_env.observation``)."""
        return self.act_batch(np.asarray(obs).reshape(1, observation.OBS_SIZE))[0]

    def act_batch(self, obs: np.ndarray) -> np.ndarray:
        """The actions (n, 9) float32 for observations (n, 54), decided in one compiled call (``kernels.aiming``, a
        row whose cue-ball spot is blocked aiming again from the nearest free spot)."""
        obs = np.asarray(obs)
        if obs.ndim != 2 or obs.shape[1] != observation.OBS_SIZE:
            raise ValueError(f"obs: expected shape (n, {observation.OBS_SIZE}), got {obs.shape}")
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        out = np.empty((obs.shape[0], actions.N_ACTION))
        failed = np.zeros(obs.shape[0], dtype=np.bool_)
        t = self.table
        kernel.decide_batch(obs, float(t.width), float(t.length), float(t.head_string_y), float(self.params.R),
                            self._pockets, self._aims, float(self.break_speed), _SCALE, placement.GAP, out, failed)
        if failed.any():
            raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
        return out.astype(np.float32)


_SCALE = actions.DEFAULT_SCALE.row
