"""The default opponent: a ghost-ball aiming policy, and the pure geometry helpers it is built from.

The policy shoots the lowest ball into the pocket with the smallest cut angle (clear paths
preferred) at a medium speed; with ball in hand it places the cue ball for a straight-in shot;
it breaks hard from the middle of the head string, never pushes out, and on a choice it shoots.
The helpers (ghost ball, cut angle, clear path, pocket aims) are for ``agents/`` to reuse.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from nineball_env import actions, observation, placement
from nineball_env.kernels.aiming import aim_batch
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Shot, Table


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to length 1 (the zero vector stays zero)."""
    n = float(np.hypot(v[0], v[1]))
    return v / n if n > 0 else np.zeros(2)


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
    obj = np.asarray(obj, dtype=float)
    return obj - 2.0 * R * unit(np.asarray(target, dtype=float) - obj)


def cut_angle(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, R: float = DEFAULT_PARAMS.R) -> float:
    """The cut angle [deg] between the cue ball's path to the ghost ball and the object ball's path to ``target``."""
    ghost = ghost_ball(obj, target, R)
    u = unit(ghost - np.asarray(cue, dtype=float))
    w = unit(np.asarray(target, dtype=float) - np.asarray(obj, dtype=float))
    return math.degrees(math.acos(min(max(float(u @ w), -1.0), 1.0)))


def path_clear(start: np.ndarray, end: np.ndarray, obstacles: np.ndarray, R: float = DEFAULT_PARAMS.R) -> bool:
    """A ball rolling from ``start`` to ``end`` passes every obstacle centre (k, 2) without touching it."""
    obstacles = np.asarray(obstacles, dtype=float).reshape(-1, 2)
    if obstacles.size == 0:
        return True
    a = np.asarray(start, dtype=float)
    d = np.asarray(end, dtype=float) - a
    L2 = float(d @ d)
    t = np.clip(((obstacles - a) @ d) / L2, 0.0, 1.0) if L2 > 0 else np.zeros(len(obstacles))
    closest = a + t[:, None] * d
    return bool(np.all(np.sum((obstacles - closest) ** 2, axis=1) >= (2.0 * R) ** 2))


@dataclass(frozen=True)
class AimedShot:
    """A candidate pot: the pocket, the cut angle [deg], whether both paths are clear, and the shot."""

    pocket: int
    cut: float
    clear: bool
    shot: Shot


def aim(cue: np.ndarray, obj: np.ndarray, obstacles: np.ndarray, table: Table = DEFAULT_TABLE,
        params: PhysicsParams = DEFAULT_PARAMS, max_cut: float = 75.0) -> list[AimedShot]:
    """Every pot of ``obj`` the cue ball can see, best first (clear paths, then smallest cut angle)."""
    R = params.R
    out = []
    for k, target in enumerate(pocket_aims(table)):
        ghost = ghost_ball(obj, target, R)
        if not table.inside_surface(ghost[0], ghost[1], R):
            continue
        cut = cut_angle(cue, obj, target, R)
        if cut > max_cut:
            continue
        if k in (2, 3) and abs(unit(target - obj)[1]) > 0.8:  # too shallow an angle into a side pocket
            continue
        clear = path_clear(cue, ghost, obstacles, R) and path_clear(obj, target, obstacles, R)
        d1 = float(np.hypot(*(ghost - cue)))
        d2 = float(np.hypot(*(target - obj)))
        V0 = min(max(1.2 + 1.1 * (d1 + d2 / max(math.cos(math.radians(cut)), 0.3)), 1.5), 6.0)
        out.append(AimedShot(k, cut, clear, Shot(V0=V0, phi=direction_deg(cue, ghost))))
    out.sort(key=lambda s: (not s.clear, s.cut))
    return out


def straight_in_spot(obj: np.ndarray, obstacles: np.ndarray, table: Table = DEFAULT_TABLE,
                     params: PhysicsParams = DEFAULT_PARAMS, kitchen: bool = False
                     ) -> tuple[tuple[float, float], int] | None:
    """A ball-in-hand spot behind ``obj`` on the line from a pocket, for a straight-in pot, and that pocket."""
    R = params.R
    best = None
    for k, target in enumerate(pocket_aims(table)):
        back = unit(np.asarray(obj, dtype=float) - target)
        if k in (2, 3) and abs(back[1]) > 0.8:
            continue
        if not path_clear(obj, target, obstacles, R):
            continue
        for dist in (0.25, 0.4, 0.15, 0.6, 0.1):
            spot = np.asarray(obj, dtype=float) + back * dist
            if placement.is_free(spot[0], spot[1], np.vstack([obstacles.reshape(-1, 2), obj]), table, params,
                                 kitchen, margin=1e-4) and path_clear(spot, ghost_ball(obj, target, R), obstacles, R):
                length = float(np.hypot(*(target - obj))) + dist
                if best is None or length < best[0]:
                    best = (length, (float(spot[0]), float(spot[1])), k)
                break
    return None if best is None else (best[1], best[2])


class AimingPolicy:
    """Ghost-ball opponent: ``act(observation) -> action``; also callable as ``policy(observation, info)``.

    ``act_batch`` decides for many observations in one compiled call (``kernels.aiming``), which the
    vector env uses; ``act`` is ``act_batch`` on one row. ``act_reference`` is the same policy written
    with the Python helpers above (and decides the rare rows the kernel hands back).
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
        """The actions (n, 9) float32 for observations (n, 54), decided in one compiled call."""
        obs = np.asarray(obs)
        if obs.ndim != 2 or obs.shape[1] != observation.OBS_SIZE:
            raise ValueError(f"obs: expected shape (n, {observation.OBS_SIZE}), got {obs.shape}")
        t, p, s = self.table, self.params, actions.DEFAULT_SCALE
        out = np.empty((obs.shape[0], actions.N_ACTION))
        fallback = np.zeros(obs.shape[0], dtype=np.bool_)
        aim_batch(np.ascontiguousarray(obs, dtype=np.float32), float(t.width), float(t.length), float(p.R),
                  self._pockets, self._aims, float(self.break_speed), s.v_min, s.v_max, s.theta_max, out, fallback)
        result = out.astype(np.float32)
        for k in np.flatnonzero(fallback).tolist():
            result[k] = self.act_reference(obs[k])
        return result

    def act_reference(self, obs: np.ndarray) -> np.ndarray:
        """``act`` written with the Python helpers of this module (slower; the kernel's reference)."""
        t, p = self.table, self.params
        o = observation.decode(obs, t.width, t.length)
        if o["phase"] == "push-out-choice":
            return actions.choice_action(pass_back=False)
        pos, on = o["pos"], o["on_table"]
        in_hand = o["in_hand"]
        lowest = o["lowest"] or 9
        obj = pos[lowest]
        others = [b for b in range(1, 10) if on[b] and b != lowest]
        obstacles = pos[others] if others else np.zeros((0, 2))
        encode = lambda shot, spot=None: actions.shot_to_action(  # noqa: E731
            shot, placement=spot, ball_in_hand=in_hand if spot is not None else "anywhere", table=t, params=p)
        if o["phase"] == "break":
            spot = (t.width / 2.0, t.head_string_y - 0.01)
            balls = pos[[b for b in range(1, 10) if on[b]]]
            spot = placement.nearest_free(*spot, balls, t, p, kitchen=True)
            return encode(Shot(V0=self.break_speed, phi=direction_deg(spot, obj)), spot)
        spot = None
        if in_hand != "none":
            found = straight_in_spot(obj, obstacles, t, p, kitchen=in_hand == "kitchen")
            if found is not None:
                spot = found[0]
            else:
                spot = placement.nearest_free(obj[0], obj[1] - 0.3, pos[[b for b in range(1, 10) if on[b]]], t, p,
                                              kitchen=in_hand == "kitchen")
            cue = np.array(spot)
        else:
            cue = pos[0]
        shots = aim(cue, obj, obstacles, t, p)
        shot = shots[0].shot if shots else Shot(V0=3.0, phi=direction_deg(cue, obj))
        return encode(shot, spot)


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
