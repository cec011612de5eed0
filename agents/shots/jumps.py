"""Jump shots: over the balls that block the path to the lowest one, at the ball itself or as a jump pot.

The flight is the physics' own strike and slate bounce (``physics.kernels.resolve.cue_strike``,
``physics.kernels.flight.slate_bounce``), linear in the cue speed, so the least speed that clears every blocking
ball is found by bisection on a closed-form arc.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from agents.shots import kernels as K
from agents.shots.aim import path_clear
from agents.shots.pots import DEFAULT_POCKETS, PocketModel, pocket_geometry
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
    at ``point``) before passing over ``point``; None when no speed up to ``v_max`` does (``kernels.jump_speed_to``:
    the bisection and the check that it comes down to the ball at ``point``, its bottom below the ball's top 2R
    before it)."""
    kh, kz = jump_launch(float(theta), float(b), params)
    obstacles = np.ascontiguousarray(obstacles, dtype=np.float64).reshape(-1, 2)
    V = K.jump_speed_to(float(cue[0]), float(cue[1]), float(point[0]), float(point[1]), obstacles,
                        np.int64(len(obstacles)), float(kh), float(kz), float(params.R), float(params.g),
                        float(clearance), _offsets(float(params.R)), float(v_max))
    return None if V < 0.0 else V


def jump_candidates(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
                    params: PhysicsParams = DEFAULT_PARAMS, *, tip_max: float = 0.5, v_max: float = 10.0,
                    model: PocketModel = DEFAULT_POCKETS) -> list[JumpCandidate]:
    """Jump shots at ``lowest`` when the straight path to it is blocked: over the blocking balls at the ball itself
    (a full hit) and at the ghost ball of every pocket whose object-ball path is clear (jump pots), at each of
    ``JUMP_ELEVATIONS`` with the tip as high as the action scale allows (b = min(sin θ, tip_max): the cue axis
    near the centre) and ``JUMP_SPEED_FACTORS`` times the least speed that clears (``jump_speed``).
    Empty when the path is clear. ``jump_rows`` of one layout."""
    shots, pockets, blockers, counts = jump_rows(np.asarray(cue, dtype=float)[None], np.asarray(pos)[None],
                                                 np.asarray(on)[None], [lowest], table, params, [tip_max], [v_max],
                                                 model)
    return [JumpCandidate(Shot(*shot), lowest, None if pocket < 0 else pocket,
                          tuple(b for b in range(1, len(on)) if mask >> b & 1))
            for shot, pocket, mask in zip(shots[0, :counts[0]].tolist(), pockets[0, :counts[0]].tolist(),
                                          blockers[0, :counts[0]].tolist())]


def jump_rows(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: Sequence[int], table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, tip_max: Sequence[float] = (), v_max: Sequence[float] = (),
              model: PocketModel = DEFAULT_POCKETS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``jump_candidates`` of N layouts in one compiled call (``kernels.jump_candidate_rows``): cue (N, 2), pos
    (N, n, 2), on (N, n), lowest (N,), the action scale's ``tip_max`` and ``v_max`` per layout; the strikes
    (N, MAX_JUMPS, 5) (V0, phi, theta, a, b), their pockets (N, MAX_JUMPS) (-1: at the ball), the blocking balls as
    bit masks (N, MAX_JUMPS) and the counts (N,)."""
    cue = np.require(cue, np.float64, "CW").reshape(-1, 2)
    N = len(cue)
    pos = np.require(pos, np.float64, "CW")
    on = np.require(on, np.bool_, "CW")
    lowest = np.require(np.asarray(lowest, dtype=np.int64).reshape(-1), np.int64, "CW")
    tips = np.asarray(tip_max, dtype=np.float64).reshape(-1)
    v_max = np.require(np.asarray(v_max, dtype=np.float64).reshape(-1), np.float64, "CW")
    if pos.shape[:1] != (N,) or on.shape[:1] != (N,) or lowest.shape != (N,) or tips.shape != (N,) \
            or v_max.shape != (N,):
        raise ValueError(f"pos, on, lowest, tip_max, v_max: expected {N} rows each, got {len(pos)}, {len(on)}, "
                         f"{len(lowest)}, {len(tips)}, {len(v_max)}")
    b, launch = jump_launches(tuple(tips.tolist()), params)
    shots = np.empty((N, MAX_JUMPS, 5))
    pockets = np.empty((N, MAX_JUMPS), dtype=np.int64)
    blockers = np.empty((N, MAX_JUMPS), dtype=np.int64)
    counts = np.empty(N, dtype=np.int64)
    K.jump_candidate_rows(cue, pos, on, lowest, *jump_geometry(table, params, model), v_max, ELEVATIONS, b, launch,
                          FACTORS, shots, pockets, blockers, counts)
    return shots, pockets, blockers, counts


@lru_cache(maxsize=16)
def jump_geometry(table: Table, params: PhysicsParams, model: PocketModel = DEFAULT_POCKETS) -> tuple:
    """``kernels.jump_candidate_rows``' arguments from ``aims`` to ``offsets`` that the table, the physics and the
    pocket model fix (built once; shared: never write to them)."""
    R = float(params.R)
    return (*pocket_geometry(table, model), float(table.spec.width), float(table.spec.length), R, (2.0 * R) ** 2,
            float(params.g), JUMP_CLEARANCE, _offsets(R))


@lru_cache(maxsize=64)
def jump_launches(tips: tuple[float, ...], params: PhysicsParams) -> tuple[np.ndarray, np.ndarray]:
    """Per layout and elevation, the tip b = min(sin θ, tip_max) (N, E) and the launch (kh, kz) (N, E, 2)
    (``jump_launch``), once per tuple of tips (shared: never write to them)."""
    b = np.array([[min(math.sin(math.radians(theta)), tip) for theta in JUMP_ELEVATIONS] for tip in tips])
    b = b.reshape(len(tips), len(JUMP_ELEVATIONS))
    launch = np.array([[jump_launch(theta, tip, params) for theta, tip in zip(JUMP_ELEVATIONS, row)]
                       for row in b.tolist()]).reshape(len(tips), len(JUMP_ELEVATIONS), 2)
    return b, launch


#: The most jump candidates of one layout: at the ball and six jump pots, each elevation, each speed factor.
MAX_JUMPS = 7 * len(JUMP_ELEVATIONS) * len(JUMP_SPEED_FACTORS)
#: ``JUMP_ELEVATIONS`` and ``JUMP_SPEED_FACTORS`` as the candidate kernel reads them (shared: never write to them).
ELEVATIONS = np.array(JUMP_ELEVATIONS)
FACTORS = np.array(JUMP_SPEED_FACTORS)
