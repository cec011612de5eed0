"""The default opponent: a ghost-ball aiming policy, and the pure geometry helpers it is built from.

The policy (``kernels.aiming``) shoots the lowest ball into the pocket with the smallest cut angle
(clear paths preferred) at a medium speed; with ball in hand it places the cue ball for a straight-in
shot; it breaks hard from the middle of the head string, never pushes out, and on a choice it shoots.
The geometry helpers (ghost ball, cut angle, clear path, pocket aims) are the kernel's own, for ``agents/`` to reuse.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from nineball_env import actions, observation, placement
from nineball_env.kernels import aiming as kernel
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to length 1 (the zero vector stays zero)."""
    return np.array(kernel.unit(float(v[0]), float(v[1])))


def direction_deg(start: np.ndarray, end: np.ndarray) -> float:
    """The aim angle phi [deg, CCW from +x] from ``start`` towards ``end``."""
    d = np.asarray(end, dtype=float) - np.asarray(start, dtype=float)
    return math.degrees(math.atan2(d[1], d[0]))


def pocket_aims(table: Table = DEFAULT_TABLE) -> np.ndarray:
    """(6, 2) points [m] to send an object ball at: the pockets' capture centres (corners) and the
    side pockets' mouth centres on the rail line."""
    aims = table.pockets[:, :2].copy()
    aims[2] = (0.0, table.length / 2.0)
    aims[3] = (table.width, table.length / 2.0)
    return aims


def ghost_ball(obj: np.ndarray, target: np.ndarray, R: float = DEFAULT_PARAMS.R) -> np.ndarray:
    """Where the cue ball's centre must be at contact to send ``obj`` straight towards ``target``."""
    return np.array(kernel.ghost(float(obj[0]), float(obj[1]), float(target[0]), float(target[1]), float(R))[:2])


def cut_angle(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, R: float = DEFAULT_PARAMS.R) -> float:
    """The cut angle [deg] between the cue ball's path to the ghost ball and the object ball's path to ``target``."""
    gx, gy, ux, uy = kernel.ghost(float(obj[0]), float(obj[1]), float(target[0]), float(target[1]), float(R))
    return kernel.cut_deg(float(cue[0]), float(cue[1]), gx, gy, ux, uy)


def path_clear(start: np.ndarray, end: np.ndarray, obstacles: np.ndarray, R: float = DEFAULT_PARAMS.R) -> bool:
    """A ball rolling from ``start`` to ``end`` passes every obstacle centre (k, 2) without touching it."""
    obstacles = np.ascontiguousarray(obstacles, dtype=np.float64).reshape(-1, 2)
    return kernel.path_clear(float(start[0]), float(start[1]), float(end[0]), float(end[1]), obstacles,
                             len(obstacles), (2.0 * R) ** 2)


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
        """The actions (n, 9) float32 for observations (n, 54), decided in one compiled call (a second one for
        the rare rows whose cue-ball spot is blocked, given the nearest free spot)."""
        obs = np.asarray(obs)
        if obs.ndim != 2 or obs.shape[1] != observation.OBS_SIZE:
            raise ValueError(f"obs: expected shape (n, {observation.OBS_SIZE}), got {obs.shape}")
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        n = obs.shape[0]
        out = np.empty((n, actions.N_ACTION))
        spots = np.zeros((n, 2))
        given = np.zeros(n, dtype=np.bool_)
        fallback = np.zeros(n, dtype=np.bool_)
        self._aim(obs, spots, given, out, fallback)
        blocked = np.flatnonzero(fallback)
        if blocked.size:
            for k in blocked.tolist():
                spots[k] = self._free_spot(obs[k], spots[k])
            again = np.empty((blocked.size, actions.N_ACTION))
            self._aim(obs[blocked], spots[blocked], np.ones(blocked.size, dtype=np.bool_), again,
                      np.zeros(blocked.size, dtype=np.bool_))
            out[blocked] = again
        return out.astype(np.float32)

    def _aim(self, obs: np.ndarray, spots: np.ndarray, given: np.ndarray, out: np.ndarray,
             fallback: np.ndarray) -> None:
        t = self.table
        kernel.aim_batch(obs, float(t.width), float(t.length), float(t.head_string_y), float(self.params.R), self._pockets,
                         self._aims, float(self.break_speed), _SCALE, spots, given, out, fallback)

    def _free_spot(self, row: np.ndarray, wanted: np.ndarray) -> tuple[float, float]:
        """The free cue-ball spot nearest to the blocked one the kernel ``wanted`` (in the kitchen on the break)."""
        t = self.table
        seen = observation.decode(row, t.width, t.length)
        on = seen["on_table"]
        on[0] = False
        return placement.nearest_free(float(wanted[0]), float(wanted[1]), seen["pos"][on], t, self.params,
                                      kitchen=seen["in_hand"] == "kitchen")


_SCALE = actions.DEFAULT_SCALE.row


class RandomPolicy:
    """Uniform random actions from its own seeded generator (``seed`` re-seeds it); for baselines and benchmarks."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, info: Any = None) -> np.ndarray:
        return self.act(obs)

    def act(self, obs: np.ndarray) -> np.ndarray:
        return self.rng.uniform(-1.0, 1.0, actions.N_ACTION).astype(np.float32)
