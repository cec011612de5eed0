"""Aiming: the direction of a shot, the ghost ball, clear paths, and aims corrected for throw and squirt.

The plane geometry is the env's (``nineball_env.kernels.aiming``: ghost ball, clear paths); the throw-corrected aim
simulates the cue ball and its target with the physics (``agents.shots.kernels.corrected_phi_batch``, through the
env's C callback of it).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

import physics
from agents.shots import kernels as K
from nineball_env.kernels import aiming as kernel
from nineball_env.kernels.shot import physics_address
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, PhysicsParams, Shot, Table
from physics.api import params_array
from physics.validate import OVERLAP_TOL


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to length 1 (the zero vector stays zero)."""
    return np.array(kernel.unit(float(v[0]), float(v[1])))


def direction_deg(start: np.ndarray, end: np.ndarray) -> float:
    """The aim angle phi [deg, CCW from +x] from ``start`` towards ``end``."""
    d = np.asarray(end, dtype=float) - np.asarray(start, dtype=float)
    return math.degrees(math.atan2(d[1], d[0]))


def ghost_ball(obj: np.ndarray, target: np.ndarray, R: float = DEFAULT_PARAMS.R) -> np.ndarray:
    """Where the cue ball's centre must be at contact to send ``obj`` straight towards ``target``."""
    return np.array(kernel.ghost(float(obj[0]), float(obj[1]), float(target[0]), float(target[1]), float(R))[:2])


def path_clear(start: np.ndarray, end: np.ndarray, obstacles: np.ndarray, R: float = DEFAULT_PARAMS.R) -> bool:
    """A ball rolling from ``start`` to ``end`` passes every obstacle centre (k, 2) without touching it."""
    obstacles = np.ascontiguousarray(obstacles, dtype=np.float64).reshape(-1, 2)
    return kernel.path_clear(float(start[0]), float(start[1]), float(end[0]), float(end[1]), obstacles,
                             len(obstacles), (2.0 * R) ** 2)


def check_shot_rows(shots: np.ndarray, name: str = "shots") -> np.ndarray:
    """``shots`` as (N, 5) float64 rows (V0, phi°, theta°, a, b), each a valid ``Shot``: checked in one vectorised
    pass, ValueError naming the first bad row and ``Shot``'s reason."""
    rows = np.ascontiguousarray(shots, dtype=np.float64).reshape(-1, 5)
    ok = (np.isfinite(rows).all(axis=1) & (rows[:, 0] > 0.0) & (rows[:, 0] <= physics.shot.MAX_SPEED)
          & (rows[:, 2] >= 0.0) & (rows[:, 2] <= physics.shot.MAX_ELEVATION)
          & (np.hypot(rows[:, 3], rows[:, 4]) <= physics.shot.MAX_TIP_OFFSET))
    for k in np.flatnonzero(~ok).tolist():
        try:
            Shot(*rows[k].tolist())
        except ValueError as err:
            raise ValueError(f"{name}[{k}]: {err}") from None
    return rows


@lru_cache(maxsize=4)
def empty_packed(n_balls: int) -> np.ndarray:
    """An empty packed ball state (n_balls, 9), every ball off the table (read-only): the aim kernel's template."""
    arr = physics.BallState.empty(n_balls).packed()
    arr.setflags(write=False)
    return arr


def corrected_phis(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, direction: np.ndarray, shots: np.ndarray,
                   table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS, iterations: int = 2,
                   n_balls: int = physics.N_BALLS) -> np.ndarray:
    """``corrected_phi`` for N shots in one compiled call: cue (N, 2) and obj (N, 2) centres [m], target (N,) ball
    numbers, direction (N,) [deg], shots (N, 5) rows (V0, phi°, theta°, a, b); the aims (N,) [deg]. Every input is
    checked (ValueError naming the bad one); ``corrected_phi_rows`` skips the checks."""
    cue = np.ascontiguousarray(cue, dtype=np.float64).reshape(-1, 2)
    N = cue.shape[0]
    obj = np.ascontiguousarray(obj, dtype=np.float64).reshape(-1, 2)
    target = np.ascontiguousarray(target, dtype=np.int64).reshape(-1)
    direction = np.ascontiguousarray(direction, dtype=np.float64).reshape(-1)
    shots = check_shot_rows(shots)
    if obj.shape != (N, 2) or target.shape != (N,) or direction.shape != (N,) or shots.shape != (N, 5):
        raise ValueError(f"obj, target, direction, shots: expected {N} rows each, got shapes {obj.shape}, "
                         f"{target.shape}, {direction.shape}, {shots.shape}")
    if N and not (1 <= target.min() and target.max() < n_balls):
        raise ValueError(f"target: expected object-ball numbers 1..{n_balls - 1}, got {target.tolist()}")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
        raise ValueError(f"iterations: expected a whole number >= 0, got {iterations!r}")
    return corrected_phi_rows(cue, obj, target, direction, shots, table, params, int(iterations), n_balls)


def corrected_phi_rows(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, direction: np.ndarray,
                       shots: np.ndarray, table: Table, params: PhysicsParams, iterations: int,
                       n_balls: int = physics.N_BALLS) -> np.ndarray:
    """``corrected_phis`` without its checks, for callers whose rows come from the shot kernels (valid by
    construction: GhostBall's round, the macro layer's strikes); the arrays are made contiguous, not checked."""
    out = np.empty(len(cue))
    K.corrected_phi_batch(physics_address(), empty_packed(n_balls), np.ascontiguousarray(cue, dtype=np.float64),
                          np.ascontiguousarray(obj, dtype=np.float64), np.ascontiguousarray(target, dtype=np.int64),
                          np.ascontiguousarray(direction, dtype=np.float64),
                          np.ascontiguousarray(shots, dtype=np.float64), iterations, table.segments, table.jaws,
                          table.pockets, params_array(params), float(table.spec.width), float(table.spec.length),
                          table.rail, OVERLAP_TOL, out)
    return out


def corrected_phi(state: BallState, cue: np.ndarray, target: int, direction: float, shot: Shot,
                  table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS, iterations: int = 2) -> float:
    """Aim [deg] for ``shot`` that sends ball ``target`` off in ``direction`` [deg], throw and squirt included.

    Simulates the cue ball and the target alone, reads the target's direction after the first
    collision, and moves the ghost ball to cancel the difference (each iteration one simulation;
    ``kernels.corrected_phi_batch``).
    """
    return float(corrected_phis(np.asarray(cue, dtype=float)[None], state.pos[target][None], [target], [direction],
                                np.array([[shot.V0, shot.phi, shot.theta, shot.a, shot.b]]), table, params, iterations,
                                state.n_balls)[0])
