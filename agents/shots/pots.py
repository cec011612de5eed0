"""Pot geometry: pocket windows, pot options and their estimated success, ball-in-hand spots, and the speed of a pot.

Builds on the default opponent's geometry (``nineball_env.kernels.aiming``: ghost ball, clear paths). The pocket windows below
were measured with the physics: a ball sent at each pocket from 0.5–0.6 m, shifted sideways in
0.5 mm steps, at approach angles from −60° to 60° (see ``PocketModel``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from agents.shots import kernels as K
from agents.shots import round_kernels as RK
from nineball_env.aiming import pocket_aims
from nineball_env.noise import NoiseConfig
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table

NINE = 9


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
    """The pocket model as the kernels read it (``kernels.M_*`` columns, the fields in order), read-only."""
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
    None when the pocket cannot be reached at that angle (``kernels.pocket_target``)."""
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
        """The option of one kernel row (``kernels.O_*`` columns)."""
        v = row.tolist()
        return cls(int(v[K.O_TARGET]), int(v[K.O_BALL]), int(v[K.O_POCKET]), v[K.O_PHI], v[K.O_CUT], v[K.O_D_CUE],
                   v[K.O_D_OBJ], v[K.O_EASE], v[K.O_DIRECTION])


def pot_rows(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: np.ndarray, table: Table = DEFAULT_TABLE,
             params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float | np.ndarray = 0.125, *, combos: bool = True,
             max_cut: float = 80.0, model: PocketModel = DEFAULT_POCKETS) -> tuple[np.ndarray, np.ndarray]:
    """``pot_options`` for N layouts in one compiled call: cue (N, 2), pos (N, n, 2), on (N, n), lowest (N,) and
    sigma_phi [deg] (a number or (N,)); the options as rows (N, MAX_OPTIONS, OPT_W) of ``kernels.O_*``
    columns, easiest first, and their counts (N,)."""
    # contiguous and writable (a copy of a read-only broadcast view): a read-only array is another type to numba,
    # which would compile the kernel again
    cue = np.require(cue, np.float64, "CW").reshape(-1, 2)
    N = cue.shape[0]
    pos = np.require(pos, np.float64, "CW")
    on = np.require(on, np.bool_, "CW")
    lowest = np.require(lowest, np.int64, "CW").reshape(-1)
    if pos.ndim != 3 or pos.shape[0] != N or pos.shape[2] != 2 or pos.shape[1] < NINE + 1:
        raise ValueError(f"pos: expected shape ({N}, n >= 10, 2), got {pos.shape}")
    if on.shape != pos.shape[:2]:
        raise ValueError(f"on: expected shape {pos.shape[:2]}, got {on.shape}")
    if lowest.shape != (N,) or (N and not (1 <= lowest.min() and lowest.max() <= NINE)):
        raise ValueError(f"lowest: expected {N} ball numbers in 1..9, got {lowest.tolist()}")
    sigma = np.require(np.broadcast_to(np.asarray(sigma_phi, dtype=np.float64), (N,)), np.float64, "CW")
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
    One row of ``pot_rows`` (the compiled ``kernels.pot_options_row``).
    """
    rows, n = pot_rows(np.asarray(cue, dtype=float)[None], np.asarray(pos)[None], np.asarray(on)[None], [lowest],
                       table, params, sigma_phi, combos=combos, max_cut=max_cut, model=model)
    return [PotOption.from_row(r) for r in rows[0, :int(n[0])]]


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
    The compiled rounds' formula (``round_kernels.rolling_speed``), called from Python.
    """
    return RK.rolling_speed(float(d_cue), float(d_obj), float(cut), float(arrive), physics_row(params))


@lru_cache(maxsize=8)
def physics_row(params: PhysicsParams) -> np.ndarray:
    """The numbers ``round_kernels.rolling_speed`` reads (its ``U_R``... columns), read-only."""
    out = np.array([params.u_r, params.g, params.e_b, params.cue_mass, params.m, 2.0])
    out.setflags(write=False)
    return out


def cue_spots(pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125, *,
              distances: tuple[float, ...] = (0.2, 0.3, 0.45),
              turns: tuple[float, ...] = (10.0, -10.0, 0.0, 20.0, -20.0, 35.0, -35.0)
              ) -> list[tuple[tuple[float, float], PotOption]]:
    """Ball-in-hand spots behind ``lowest`` for a pot into each pocket, with that pot; easiest first.

    Spots lie at ``distances`` [m] from the ball, on the line from the pocket turned by ``turns``
    [deg] (a slight angle leaves room for position play); spots that touch a ball or a pocket are skipped.
    ``cue_spot_rows`` of one layout.
    """
    (points, rows), = cue_spot_rows([pos], [on], [lowest], table, params, [sigma_phi], distances=distances,
                                    turns=turns)
    return [((float(x), float(y)), PotOption.from_row(r)) for (x, y), r in zip(points.tolist(), rows)]


def cue_spot_rows(pos: Sequence[np.ndarray], on: Sequence[np.ndarray], lowest: Sequence[int],
                  table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                  sigma_phi: Sequence[float] = (), *, distances: tuple[float, ...] = (0.2, 0.3, 0.45),
                  turns: tuple[float, ...] = (10.0, -10.0, 0.0, 20.0, -20.0, 35.0, -35.0)
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``cue_spots`` of N layouts (``pos[i]`` (n, 2), ``on[i]``, ``lowest[i]``, aim noise ``sigma_phi[i]`` [deg]):
    the spots of all layouts and their pots in one compiled call (``kernels.spot_pots``); per layout the spots
    (m, 2) and their pots as option rows (m, OPT_W) of ``kernels.O_*`` columns, easiest first (a stable sort)."""
    if not len(pos) == len(on) == len(lowest) == len(sigma_phi):
        raise ValueError(f"pos, on, lowest, sigma_phi: expected one entry per layout each, got {len(pos)}, "
                         f"{len(on)}, {len(lowest)}, {len(sigma_phi)}")
    dist, c, s = spot_lines(distances, turns)
    N, per = len(pos), 6 * len(dist)
    pos_all = np.require(np.stack(pos) if N else np.empty((0, NINE + 1, 2)), np.float64, "CW")
    on_all = np.require(np.stack(on) if N else np.empty((0, NINE + 1)), np.bool_, "CW")
    points = np.empty((N, per, 2))
    options = np.empty((N, per, K.OPT_W))
    found = np.empty((N, per), dtype=np.bool_)
    K.spot_pots(pos_all, on_all, np.require(np.asarray(lowest, dtype=np.int64).reshape(-1), np.int64, "CW"),
                np.require(np.asarray(sigma_phi, dtype=np.float64).reshape(-1), np.float64, "CW"), _aims(table), _AXES,
                _model_array(DEFAULT_POCKETS), dist, c, s, float(params.R), float(table.width), float(table.length),
                float(table.head_string_y), np.ascontiguousarray(table.pockets, dtype=np.float64), SPOT_MARGIN,
                points, options, found)
    out = []
    for i in range(N):
        keep = np.flatnonzero(found[i])
        order = keep[np.argsort(-options[i, keep, K.O_EASE], kind="stable")]
        out.append((points[i, order], options[i, order]))
    return out


@lru_cache(maxsize=16)
def spot_lines(distances: tuple[float, ...], turns: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ball-in-hand spots' lines behind the ball, one entry per spot (distance by distance, turn by turn): the
    distances [m] and the cosines and sines of the turns [deg] (read-only)."""
    turn_cs = np.array([(math.cos(math.radians(t)), math.sin(math.radians(t))) for t in turns]).reshape(-1, 2)
    out = (np.repeat(np.asarray(distances, dtype=float), len(turns)), np.tile(turn_cs[:, 0], len(distances)),
           np.tile(turn_cs[:, 1], len(distances)))
    for arr in out:
        arr.setflags(write=False)
    return out


#: [m] the clearance a ball-in-hand spot keeps from balls and pockets
SPOT_MARGIN = 1e-4
