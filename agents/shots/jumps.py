"""Jump shots: over the balls that block the path to the lowest one, at the ball itself or as a jump pot.

The flight is the physics' own strike and slate bounce (``physics.kernels.resolve.cue_strike``,
``physics.kernels.flight.slate_bounce``), linear in the cue speed, so the least speed that clears every blocking
ball is found by bisection on a closed-form arc.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from agents.shots import kernels as K
from agents.shots.aim import direction_deg, ghost_ball, path_clear, unit
from agents.shots.pots import DEFAULT_POCKETS, PocketModel, pocket_target
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Shot, Table
from physics.api import params_array, shot_array
from physics.kernels.flight import slate_bounce
from physics.kernels.resolve import cue_strike

#: Cue elevations [deg] of the jump candidates (jump cues work at 45–70°; with the tip at most 0.5 R above
#: centre, the env's range, steeper strikes pass below the cue axis and jump poorly).
JUMP_ELEVATIONS = (45.0, 52.0, 60.0)
#: Speeds of the jump candidates, as multiples of the least speed whose flight clears every blocking ball.
JUMP_SPEED_FACTORS = (1.08, 1.25)
#: Clearance [m] the flight keeps over a blocking ball (besides touching distance 2R), for the noise.
JUMP_CLEARANCE = 0.004


@dataclass(frozen=True)
class JumpCandidate:
    """A jump shot over the balls between the cue ball and ``point``: hit ``target`` there (a pot into
    ``pocket``, or a plain hit when ``pocket`` is None).

    Attributes:
        shot: the cue strike (elevated, the tip high: the cue axis near the ball's centre).
        target: the ball to hit first (the lowest).
        pocket: the pocket of a jump pot, or None for a jump at the ball itself.
        blockers: the balls the flight has to clear.
    """

    shot: Shot
    target: int
    pocket: int | None
    blockers: tuple[int, ...]


def blocking_balls(start: np.ndarray, end: np.ndarray, pos: np.ndarray, balls: list[int], R: float) -> list[int]:
    """The balls of ``balls`` a ball rolling from ``start`` to ``end`` would touch (the ones ``path_clear`` sees)."""
    return [b for b in balls if not path_clear(start, end, pos[b:b + 1], R)]


@lru_cache(maxsize=64)
def jump_launch(theta: float, b: float, params: PhysicsParams = DEFAULT_PARAMS) -> tuple[float, float]:
    """Horizontal and vertical speed [m/s] of the cue ball leaving the slate, per m/s of cue speed, for a strike at
    elevation ``theta`` [deg] with the tip ``b`` above centre (no side): the physics' own strike
    (``resolve.cue_strike``) and slate bounce (``flight.slate_bounce``, restitution e_strike). Both are linear in
    the cue speed, so the flight of any speed follows from these two numbers."""
    p = params_array(params)
    V = 4.0  # any jump speed: the result is per unit of V (scaled back below)
    vx, vy, vz, wx, wy, wz = cue_strike(*shot_array(Shot(V0=V, phi=90.0, theta=theta, b=b)), p)
    vx, vy, up, _, _, _, airborne = slate_bounce(vx, vy, vz, wx, wy, wz, params.e_strike, p)
    if not airborne:
        return 0.0, 0.0
    return math.hypot(vx, vy) / V, up / V


def jump_height(s: np.ndarray | float, V0: float, launch: tuple[float, float], g: float) -> np.ndarray | float:
    """Height [m] of the cue ball's bottom above the cloth at plan distance ``s`` [m] along its first flight
    (``kernels.flight_height``)."""
    return K.flight_height(s if np.ndim(s) == 0 else np.asarray(s, dtype=np.float64), float(V0), float(launch[0]),
                           float(launch[1]), float(g))


@lru_cache(maxsize=8)
def _offsets(R: float) -> np.ndarray:
    """Where the flight is sampled around a blocking ball: 17 points from 2R before it to 2R after (read-only)."""
    out = np.linspace(-2.0 * R, 2.0 * R, 17)
    out.setflags(write=False)
    return out


def jump_speed(cue: np.ndarray, point: np.ndarray, obstacles: np.ndarray, theta: float, b: float,
               params: PhysicsParams = DEFAULT_PARAMS, v_max: float = 10.0,
               clearance: float = JUMP_CLEARANCE) -> float | None:
    """The least cue speed [m/s] (to 1 cm/s) at which a jump at elevation ``theta`` from ``cue`` towards
    ``point`` clears every ball in ``obstacles`` (k, 2) in its first flight, and still lands (or meets the ball
    at ``point``) before passing over ``point``; None when no speed up to ``v_max`` does."""
    launch = jump_launch(float(theta), float(b), params)
    if launch[0] <= 0.0 or launch[1] <= 0.0:
        return None
    R, g = params.R, params.g
    u = unit(np.asarray(point, float) - cue)
    n = np.array([-u[1], u[0]])
    rel = np.asarray(obstacles, float).reshape(-1, 2) - cue
    blockers = [(float(r @ u), float(r @ n)) for r in rel]
    if not blockers:
        return None
    d_point = float(np.hypot(*(np.asarray(point, float) - cue)))
    # the bisection and the check that it comes down to the ball at ``point`` (its bottom below the ball's top 2R
    # before it) are compiled: ``kernels.least_jump_speed``
    V = K.least_jump_speed(np.array(blockers, dtype=np.float64).reshape(-1, 2), float(launch[0]), float(launch[1]),
                           float(R), float(g), float(clearance), _offsets(float(R)), float(v_max), d_point)
    return None if V < 0.0 else V


def jump_candidates(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
                    params: PhysicsParams = DEFAULT_PARAMS, *, tip_max: float = 0.5, v_max: float = 10.0,
                    model: PocketModel = DEFAULT_POCKETS) -> list[JumpCandidate]:
    """Jump shots at ``lowest`` when the straight path to it is blocked: over the blocking balls at the ball itself
    (a full hit) and at the ghost ball of every pocket whose object-ball path is clear (jump pots), at each of
    ``JUMP_ELEVATIONS`` with the tip as high as the action scale allows (b = min(sin θ, tip_max): the cue axis
    near the centre) and ``JUMP_SPEED_FACTORS`` times the least speed that clears (``jump_speed``).
    Empty when the path is clear."""
    R = params.R
    cue = np.asarray(cue, dtype=float)
    obj = pos[lowest]
    others = [b for b in range(1, len(on)) if on[b] and b != lowest]
    if not blocking_balls(cue, obj, pos, others, R):
        return []
    aims: list[tuple[np.ndarray, int | None]] = [(obj, None)]
    for k in range(6):
        found = pocket_target(obj, k, table, model)
        if found is None:
            continue
        ghost = ghost_ball(obj, found[0], R)
        if not table.inside_surface(ghost[0], ghost[1], R * 0.999) or _cut(cue, ghost, found[0] - obj) > 60.0:
            continue
        if _clear(obj, found[0], pos, others, R):
            aims.append((ghost, k))
    out: list[JumpCandidate] = []
    for point, pocket in aims:
        blockers = blocking_balls(cue, point, pos, others, R)
        if not blockers:
            continue  # a clear pot: the ordinary pot options cover it
        phi = direction_deg(cue, point)
        for theta in JUMP_ELEVATIONS:
            b = min(math.sin(math.radians(theta)), tip_max)
            V = jump_speed(cue, point, pos[blockers], theta, b, params, v_max)
            if V is None:
                continue
            for factor in JUMP_SPEED_FACTORS:
                shot = Shot(V0=min(V * factor, v_max), phi=phi, theta=theta, b=b)
                out.append(JumpCandidate(shot, lowest, pocket, tuple(blockers)))
    return out


def _clear(a: np.ndarray, b: np.ndarray, pos: np.ndarray, balls: list[int], R: float) -> bool:
    """A ball rolling from ``a`` to ``b`` touches none of ``balls``."""
    return path_clear(a, b, pos[balls], R) if balls else True


def _cut(cue_to: np.ndarray, ghost: np.ndarray, obj_dir: np.ndarray) -> float:
    """The cut angle [deg] of a hit from ``cue_to`` at ``ghost`` that sends the object ball along ``obj_dir``."""
    return K.cut_between(float(cue_to[0]), float(cue_to[1]), float(ghost[0]), float(ghost[1]), float(obj_dir[0]),
                         float(obj_dir[1]))
