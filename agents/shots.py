"""Pot geometry shared by the agents: pocket windows, aim points, pot options and their estimated success.

Builds on the default opponent's geometry (``nineball_env.kernels.aiming``: ghost ball, clear paths). The pocket windows below
were measured with the physics: a ball sent at each pocket from 0.5–0.6 m, shifted sideways in
0.5 mm steps, at approach angles from −60° to 60° (see ``PocketModel``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import physics
from nineball_env.aiming import pocket_aims
from nineball_env.kernels import aiming as kernel
from nineball_env.noise import NoiseConfig
from agents import macro_kernels as K
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, PhysicsParams, Shot, Table
from physics.api import params_array
from physics.validate import OVERLAP_TOL

CORNERS = (0, 1, 4, 5)
SIDES = (2, 3)
NINE = 9


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


@dataclass(frozen=True)
class PocketModel:
    """Where a ball sent at a pocket drops, as a function of its approach angle to the pocket's axis.

    Attributes:
        corner_half: half-width [m] of the band of paths a corner pocket accepts, up to ``corner_full``.
        corner_full, corner_max: approach angles [deg] where the corner band starts to narrow / closes.
        corner_shift_rate, corner_shift_max: the accepted band's centre moves sideways by
            rate·angle [m/deg], at most ``corner_shift_max`` [m] (towards the far jaw).
        side_half: half-width [m] of a side pocket's band, head on; it narrows as 1 − (angle/side_scale)².
        side_max: approach angle [deg] beyond which a side pocket accepts nothing.
        model_sigma: angular error [rad] of the estimate itself (throw, speed), added to the noise.
        floor_sigma: lateral error [m] at the pocket that remains without noise.
    """

    corner_half: float = 0.031
    corner_full: float = 42.0
    corner_max: float = 47.0
    corner_shift_rate: float = 0.0014
    corner_shift_max: float = 0.035
    side_half: float = 0.0335
    side_scale: float = 62.0
    side_max: float = 58.0
    model_sigma: float = 0.002
    floor_sigma: float = 0.002


DEFAULT_POCKETS = PocketModel()


_S = 1.0 / math.sqrt(2.0)
_AXES = np.array([(-_S, -_S), (_S, -_S), (-1.0, 0.0), (1.0, 0.0), (-_S, _S), (_S, _S)])
_AXES.setflags(write=False)


def pocket_axes(table: Table = DEFAULT_TABLE) -> np.ndarray:
    """(6, 2) unit vectors from the table into each pocket (corner bisectors, side-pocket normals), read-only."""
    return _AXES


@lru_cache(maxsize=16)
def _aims(table: Table) -> np.ndarray:
    """``pocket_aims(table)``, computed once per table (read-only)."""
    aims = pocket_aims(table)
    aims.setflags(write=False)
    return aims


@lru_cache(maxsize=8)
def _model_array(model: PocketModel) -> np.ndarray:
    """The pocket model as the kernels read it (``macro_kernels.M_*`` columns, the fields in order), read-only."""
    arr = np.array([model.corner_half, model.corner_full, model.corner_max, model.corner_shift_rate,
                    model.corner_shift_max, model.side_half, model.side_scale, model.side_max, model.model_sigma,
                    model.floor_sigma])
    arr.setflags(write=False)
    return arr


def pocket_geometry(table: Table = DEFAULT_TABLE, model: PocketModel = DEFAULT_POCKETS
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the kernels read of the pockets: the aim points (6, 2), the axes (6, 2) and the model's numbers."""
    return _aims(table), _AXES, _model_array(model)


def pocket_target(obj: np.ndarray, k: int, table: Table = DEFAULT_TABLE,
                  model: PocketModel = DEFAULT_POCKETS) -> tuple[np.ndarray, float] | None:
    """The point to send a ball at ``obj`` towards to drop it in pocket ``k``, and the accepted half-width [m];
    None when the pocket cannot be reached at that angle (``macro_kernels.pocket_target``)."""
    ok, tx, ty, half = K.pocket_target(float(obj[0]), float(obj[1]), int(k), _aims(table), _AXES, _model_array(model))
    return (np.array([tx, ty]), half) if ok else None


def pot_probability(d_cue: float, d_obj: float, cut: float, half: float, sigma_phi_deg: float,
                    R: float = DEFAULT_PARAMS.R, model: PocketModel = DEFAULT_POCKETS) -> float:
    """Chance that a ghost-ball pot drops when the aim has Gaussian error ``sigma_phi_deg``.

    An aim error δφ moves the contact point by d_cue·δφ, which turns the object ball by
    d_cue·δφ / (2R·cos cut); over d_obj that is a lateral miss compared with the window ``half``.
    """
    return K.pot_probability(float(d_cue), float(d_obj), float(cut), float(half), float(sigma_phi_deg), float(R),
                             _model_array(model))


@dataclass(frozen=True)
class PotOption:
    """One way to pot a ball: hit ``target`` (the lowest) so that ``ball`` drops in ``pocket``.

    Attributes:
        target: the ball the cue ball hits first (always the lowest on the table).
        ball: the ball to drop: ``target``, or the 9 on a combination.
        pocket: pocket index (``physics.POCKET_NAMES``).
        phi: aim [deg] at the ghost ball, before any throw correction.
        cut: cut angle [deg] on ``target``.
        d_cue: distance [m] from the cue ball to the ghost ball.
        d_obj: distance [m] the potted ball travels to the pocket (both legs on a combination).
        ease: estimated chance of success under the aim noise (``pot_probability``).
        direction: the direction [deg] ``target`` must leave in.
    """

    target: int
    ball: int
    pocket: int
    phi: float
    cut: float
    d_cue: float
    d_obj: float
    ease: float
    direction: float

    @property
    def combo(self) -> bool:
        return self.ball != self.target

    @classmethod
    def from_row(cls, row: np.ndarray) -> "PotOption":
        """The option of one kernel row (``macro_kernels.O_*`` columns)."""
        v = row.tolist()
        return cls(int(v[K.O_TARGET]), int(v[K.O_BALL]), int(v[K.O_POCKET]), v[K.O_PHI], v[K.O_CUT], v[K.O_D_CUE],
                   v[K.O_D_OBJ], v[K.O_EASE], v[K.O_DIRECTION])


def _clear(a: np.ndarray, b: np.ndarray, pos: np.ndarray, balls: list[int], R: float) -> bool:
    return path_clear(a, b, pos[balls], R) if balls else True


def pot_rows(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: np.ndarray, table: Table = DEFAULT_TABLE,
             params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float | np.ndarray = 0.125, *, combos: bool = True,
             max_cut: float = 80.0, model: PocketModel = DEFAULT_POCKETS) -> tuple[np.ndarray, np.ndarray]:
    """``pot_options`` for N layouts in one compiled call: cue (N, 2), pos (N, n, 2), on (N, n), lowest (N,) and
    sigma_phi [deg] (a number or (N,)); the options as rows (N, MAX_OPTIONS, OPT_W) of ``macro_kernels.O_*``
    columns, easiest first, and their counts (N,)."""
    cue = np.ascontiguousarray(cue, dtype=np.float64).reshape(-1, 2)
    N = cue.shape[0]
    pos = np.ascontiguousarray(pos, dtype=np.float64)
    on = np.ascontiguousarray(on, dtype=np.bool_)
    lowest = np.ascontiguousarray(lowest, dtype=np.int64).reshape(-1)
    if pos.ndim != 3 or pos.shape[0] != N or pos.shape[2] != 2 or pos.shape[1] < NINE + 1:
        raise ValueError(f"pos: expected shape ({N}, n >= 10, 2), got {pos.shape}")
    if on.shape != pos.shape[:2]:
        raise ValueError(f"on: expected shape {pos.shape[:2]}, got {on.shape}")
    if lowest.shape != (N,) or (N and not (1 <= lowest.min() and lowest.max() <= NINE)):
        raise ValueError(f"lowest: expected {N} ball numbers in 1..9, got {lowest.tolist()}")
    sigma = np.ascontiguousarray(np.broadcast_to(np.asarray(sigma_phi, dtype=np.float64), (N,)))
    if not (np.isfinite(cue).all() and np.isfinite(pos).all() and np.isfinite(sigma).all()):
        raise ValueError("cue, pos, sigma_phi: expected finite numbers")
    out = np.empty((N, K.MAX_OPTIONS, K.OPT_W))
    n_out = np.empty(N, dtype=np.int64)
    K.pot_options_batch(cue, pos, on, lowest, _aims(table), _AXES, _model_array(model), float(table.width),
                        float(table.length), float(params.R), sigma, bool(combos), float(max_cut), out, n_out)
    return out, n_out


def pot_options(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
                params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125, *, combos: bool = True,
                max_cut: float = 80.0, model: PocketModel = DEFAULT_POCKETS) -> list[PotOption]:
    """Every clear pot of ``lowest`` (and combinations of ``lowest`` into the 9), easiest first.

    ``pos`` (10, 2) [m] and ``on`` (10,) describe the balls; ``cue`` is the cue ball's centre (it
    may differ from ``pos[0]`` when placing it with ball in hand). ``sigma_phi`` [deg] is the aim noise.
    One row of ``pot_rows`` (the compiled ``macro_kernels.pot_options_row``).
    """
    rows, n = pot_rows(np.asarray(cue, dtype=float)[None], np.asarray(pos)[None], np.asarray(on)[None], [lowest],
                       table, params, sigma_phi, combos=combos, max_cut=max_cut, model=model)
    return [PotOption.from_row(r) for r in rows[0, :int(n[0])]]


def _cut(cue_to: np.ndarray, ghost: np.ndarray, obj_dir: np.ndarray) -> float:
    return K.cut_between(float(cue_to[0]), float(cue_to[1]), float(ghost[0]), float(ghost[1]), float(obj_dir[0]),
                         float(obj_dir[1]))


def best_ease(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125,
              model: PocketModel = DEFAULT_POCKETS) -> float:
    """The estimated chance of potting the best direct option from this layout (0 when nothing is makeable):
    ``pot_options(..., combos=False)[0].ease``."""
    rows, n = pot_rows(np.asarray(cue, dtype=float)[None], np.asarray(pos)[None], np.asarray(on)[None], [lowest],
                       table, params, sigma_phi, combos=False, model=model)
    return float(rows[0, 0, K.O_EASE]) if n[0] else 0.0


def aim_sigma(noise: NoiseConfig) -> float:
    """The aim noise [deg] the ease estimates assume (never below a small floor, so estimates stay ordered)."""
    return max(noise.phi, 0.02)


def rolling_speed_for(d_cue: float, d_obj: float, cut: float, arrive: float = 0.6,
                      params: PhysicsParams = DEFAULT_PARAMS) -> float:
    """Cue speed V0 [m/s] that sends the object ball to the pocket with about ``arrive`` m/s left.

    Rolling balls lose v² at 2·u_r·g per metre; an object ball leaves a collision sliding and
    keeps about 5/7 of its speed once rolling; the strike gives the cue ball ≈ 1.5·V0 (cue mass 0.57 kg).
    """
    decel = 2.0 * params.u_r * params.g
    cos_cut = max(math.cos(math.radians(cut)), 0.25)
    v_obj = math.sqrt(arrive ** 2 + decel * d_obj) * 7.0 / 5.0
    v_contact = v_obj / (cos_cut * (1.0 + params.e_b) / 2.0)
    v_start = math.sqrt(v_contact ** 2 + decel * d_cue) * 7.0 / 5.0
    strike = 2.0 * params.cue_mass / (params.cue_mass + params.m)
    return v_start / strike


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
def _empty_packed(n_balls: int) -> np.ndarray:
    arr = physics.BallState.empty(n_balls).packed()
    arr.setflags(write=False)
    return arr


def corrected_phis(cue: np.ndarray, obj: np.ndarray, target: np.ndarray, direction: np.ndarray, shots: np.ndarray,
                   table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS, iterations: int = 2,
                   n_balls: int = physics.N_BALLS) -> np.ndarray:
    """``corrected_phi`` for N shots in one compiled call: cue (N, 2) and obj (N, 2) centres [m], target (N,) ball
    numbers, direction (N,) [deg], shots (N, 5) rows (V0, phi°, theta°, a, b); the aims (N,) [deg]."""
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
    out = np.empty(N)
    K.corrected_phi_batch(_empty_packed(n_balls), cue, obj, target, direction, shots, int(iterations),
                          table.segments, table.jaws, table.pockets, params_array(params), float(table.spec.width),
                          float(table.spec.length), table.rail, OVERLAP_TOL, out)
    return out


def corrected_phi(state: BallState, cue: np.ndarray, target: int, direction: float, shot: Shot,
                  table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS, iterations: int = 2) -> float:
    """Aim [deg] for ``shot`` that sends ball ``target`` off in ``direction`` [deg], throw and squirt included.

    Simulates the cue ball and the target alone, reads the target's direction after the first
    collision, and moves the ghost ball to cancel the difference (each iteration one simulation;
    ``macro_kernels.corrected_phi_batch``).
    """
    return float(corrected_phis(np.asarray(cue, dtype=float)[None], state.pos[target][None], [target], [direction],
                                np.array([[shot.V0, shot.phi, shot.theta, shot.a, shot.b]]), table, params, iterations,
                                state.n_balls)[0])


def cue_spots(pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125, *,
              distances: tuple[float, ...] = (0.2, 0.3, 0.45),
              turns: tuple[float, ...] = (10.0, -10.0, 0.0, 20.0, -20.0, 35.0, -35.0)
              ) -> list[tuple[tuple[float, float], PotOption]]:
    """Ball-in-hand spots behind ``lowest`` for a pot into each pocket, with that pot; easiest first.

    Spots lie at ``distances`` [m] from the ball, on the line from the pocket turned by ``turns``
    [deg] (a slight angle leaves room for position play); spots that touch a ball or a pocket are skipped.
    """
    from nineball_env.kernels.placement import free_mask

    on = np.asarray(on, dtype=bool).copy()
    on[0] = False
    others = np.ascontiguousarray(pos[on], dtype=np.float64).reshape(-1, 2)
    obj = pos[lowest]
    cue_on = on.copy()
    cue_on[0] = True
    turn_cs = np.array([(math.cos(math.radians(t)), math.sin(math.radians(t))) for t in turns]).reshape(-1, 2)
    dist = np.repeat(np.asarray(distances, dtype=float), len(turns))[:, None]
    c, s = np.tile(turn_cs[:, 0], len(distances)), np.tile(turn_cs[:, 1], len(distances))
    blocks, pockets = [], []
    for k in range(6):
        found = pocket_target(obj, k, table)
        if found is None:
            continue
        back = unit(obj - found[0])
        blocks.append(obj + dist * np.column_stack([c * back[0] - s * back[1], s * back[0] + c * back[1]]))
        pockets += [k] * len(c)
    if not blocks:
        return []
    points = np.ascontiguousarray(np.concatenate(blocks), dtype=np.float64)
    free = np.empty(len(points), dtype=np.bool_)
    free_mask(points, others, len(others), params.R, table.width, table.length, table.head_string_y, False,
              np.ascontiguousarray(table.pockets, dtype=np.float64), 1e-4, free)
    idx = np.flatnonzero(free)
    if not idx.size:
        return []
    rows, n = pot_rows(points[idx], np.broadcast_to(pos, (idx.size, *pos.shape)),
                       np.broadcast_to(cue_on, (idx.size, *cue_on.shape)), np.full(idx.size, lowest), table, params,
                       sigma_phi, combos=False)
    hit = (rows[:, :, K.O_POCKET] == np.asarray(pockets)[idx, None]) & (np.arange(K.MAX_OPTIONS) < n[:, None])
    out = [((float(points[i, 0]), float(points[i, 1])), PotOption.from_row(rows[r, int(np.argmax(hit[r]))]))
           for r, i in enumerate(idx.tolist()) if hit[r].any()]
    out.sort(key=lambda item: -item[1].ease)
    return out


# -- jump shots -------------------------------------------------------------------------------------------

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
    from physics.api import params_array, shot_array
    from physics.kernels.flight import slate_bounce
    from physics.kernels.resolve import cue_strike

    p = params_array(params)
    V = 4.0  # any jump speed: the result is per unit of V (scaled back below)
    vx, vy, vz, wx, wy, wz = cue_strike(*shot_array(Shot(V0=V, phi=90.0, theta=theta, b=b)), p)
    vx, vy, up, _, _, _, airborne = slate_bounce(vx, vy, vz, wx, wy, wz, params.e_strike, p)
    if not airborne:
        return 0.0, 0.0
    return math.hypot(vx, vy) / V, up / V


def jump_height(s: np.ndarray | float, V0: float, launch: tuple[float, float], g: float) -> np.ndarray | float:
    """Height [m] of the cue ball's bottom above the cloth at plan distance ``s`` [m] along its first flight."""
    kh, kz = launch
    vh = kh * V0
    return (kz / kh) * s - 0.5 * g * (s / vh) ** 2


def _clears(V0: float, launch: tuple[float, float], obstacles: list[tuple[float, float]], R: float, g: float,
            clearance: float) -> bool:
    """Whether the first flight at cue speed V0 passes every obstacle (distance along the path, offset) with
    ``clearance`` to spare over touching (3-D distance 2R between the centres)."""
    reach = (2.0 * R + clearance) ** 2
    for along, offset in obstacles:
        s = along + np.linspace(-2.0 * R, 2.0 * R, 17)
        s = s[s > 0.0]
        h = jump_height(s, V0, launch, g)
        if np.any((s - along) ** 2 + offset ** 2 + np.maximum(h, 0.0) ** 2 < reach) or np.any(h < 0.0):
            return False
    return True


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
    lo, hi = 0.5, v_max
    if not _clears(hi, launch, blockers, R, g, clearance):
        return None
    while hi - lo > 0.01:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if _clears(mid, launch, blockers, R, g, clearance) else (mid, hi)
    # it must come down to the ball at ``point``: its bottom below the ball's top 2R before it
    if jump_height(d_point - 2.0 * R, hi, launch, g) > 1.6 * R:
        return None
    return hi


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
