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
from numba import njit

import physics
from nineball_env.aiming import pocket_aims
from nineball_env.kernels import aiming as kernel
from nineball_env.noise import NoiseConfig
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, PhysicsParams, Shot, Table

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


def _signed_angle(axis: np.ndarray, u: np.ndarray) -> float:
    """Angle [deg] from ``axis`` to ``u``, counter-clockwise positive."""
    return math.degrees(math.atan2(axis[0] * u[1] - axis[1] * u[0], axis[0] * u[0] + axis[1] * u[1]))


def pocket_target(obj: np.ndarray, k: int, table: Table = DEFAULT_TABLE,
                  model: PocketModel = DEFAULT_POCKETS) -> tuple[np.ndarray, float] | None:
    """The point to send a ball at ``obj`` towards to drop it in pocket ``k``, and the accepted half-width [m];
    None when the pocket cannot be reached at that angle."""
    centre = _aims(table)[k]
    u = unit(centre - obj)
    a = _signed_angle(_AXES[k], u)
    if k in SIDES:
        if abs(a) > model.side_max:
            return None
        return centre, model.side_half * (1.0 - (a / model.side_scale) ** 2)
    if abs(a) > model.corner_max:
        return None
    half = model.corner_half if abs(a) <= model.corner_full else (
        model.corner_half * (model.corner_max - abs(a)) / (model.corner_max - model.corner_full))
    shift = math.copysign(min(model.corner_shift_rate * abs(a), model.corner_shift_max), a)
    normal = np.array([-u[1], u[0]])
    return centre + shift * normal, half


def pot_probability(d_cue: float, d_obj: float, cut: float, half: float, sigma_phi_deg: float,
                    R: float = DEFAULT_PARAMS.R, model: PocketModel = DEFAULT_POCKETS) -> float:
    """Chance that a ghost-ball pot drops when the aim has Gaussian error ``sigma_phi_deg``.

    An aim error δφ moves the contact point by d_cue·δφ, which turns the object ball by
    d_cue·δφ / (2R·cos cut); over d_obj that is a lateral miss compared with the window ``half``.
    """
    if half <= 0.0:
        return 0.0
    cos_cut = max(math.cos(math.radians(cut)), math.cos(math.radians(80.0)))
    s_obj = math.hypot(d_cue * math.radians(sigma_phi_deg) / (2.0 * R * cos_cut), model.model_sigma)
    s_lat = math.hypot(d_obj * s_obj, model.floor_sigma)
    return math.erf(half / (math.sqrt(2.0) * s_lat))


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


def _clear(a: np.ndarray, b: np.ndarray, pos: np.ndarray, balls: list[int], R: float) -> bool:
    return path_clear(a, b, pos[balls], R) if balls else True


def pot_options(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
                params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125, *, combos: bool = True,
                max_cut: float = 80.0, model: PocketModel = DEFAULT_POCKETS) -> list[PotOption]:
    """Every clear pot of ``lowest`` (and combinations of ``lowest`` into the 9), easiest first.

    ``pos`` (10, 2) [m] and ``on`` (10,) describe the balls; ``cue`` is the cue ball's centre (it
    may differ from ``pos[0]`` when placing it with ball in hand). ``sigma_phi`` [deg] is the aim noise.
    """
    R = params.R
    cue = np.asarray(cue, dtype=float)
    obj = pos[lowest]
    others = [b for b in range(1, 10) if on[b] and b != lowest]
    out: list[PotOption] = []
    for k in range(6):
        found = pocket_target(obj, k, table, model)
        if found is None:
            continue
        aim_point, half = found
        option = _direct(cue, obj, aim_point, half, lowest, lowest, k, pos, others, others, table, R,
                         sigma_phi, max_cut, model, d_extra=0.0)
        if option is not None:
            out.append(option)
    if combos and lowest != NINE and on[NINE]:
        nine = pos[NINE]
        if float(np.hypot(*(nine - obj))) < 0.6:
            for k in range(6):
                found = pocket_target(nine, k, table, model)
                if found is None:
                    continue
                aim_point, half = found
                if not _clear(nine, aim_point, pos, [b for b in others if b != NINE], R):
                    continue
                g9 = ghost_ball(nine, aim_point, R)
                cut9 = _cut(obj, g9, aim_point - nine)
                if cut9 > 45.0:
                    continue
                d9 = float(np.hypot(*(aim_point - nine)))
                # A miss e at the 9's ghost turns the 9 by e/(2R cos cut9): the window there is that much smaller.
                eff_half = half * 2.0 * R * math.cos(math.radians(cut9)) / max(d9, 2.0 * R)
                option = _direct(cue, obj, g9, eff_half, lowest, NINE, k, pos, others,
                                 [b for b in others if b != NINE], table, R, sigma_phi, max_cut, model,
                                 d_extra=d9)
                if option is not None:
                    out.append(option)
    out.sort(key=lambda o: -o.ease)
    return out


def _cut(cue_to: np.ndarray, ghost: np.ndarray, obj_dir: np.ndarray) -> float:
    u = unit(ghost - cue_to)
    w = unit(obj_dir)
    return math.degrees(math.acos(min(max(float(u @ w), -1.0), 1.0)))


def _direct(cue: np.ndarray, obj: np.ndarray, aim_point: np.ndarray, half: float, target: int, ball: int, k: int,
            pos: np.ndarray, cue_obstacles: list[int], obj_obstacles: list[int], table: Table, R: float,
            sigma_phi: float, max_cut: float, model: PocketModel, d_extra: float) -> PotOption | None:
    """The option of sending ``obj`` (ball ``target``) at ``aim_point``, if the ghost ball is reachable and clear."""
    ghost = ghost_ball(obj, aim_point, R)
    if not table.inside_surface(ghost[0], ghost[1], R * 0.999):
        return None
    d_cue = float(np.hypot(*(ghost - cue)))
    if d_cue < 1e-6:
        return None
    cut = _cut(cue, ghost, aim_point - obj)
    if cut > max_cut:
        return None
    if not (_clear(cue, ghost, pos, cue_obstacles, R) and _clear(obj, aim_point, pos, obj_obstacles, R)):
        return None
    d_obj = float(np.hypot(*(aim_point - obj)))
    ease = pot_probability(d_cue, d_obj, cut, half, sigma_phi, R, model)
    return PotOption(target, ball, k, direction_deg(cue, ghost), cut, d_cue, d_obj + d_extra, ease,
                     direction_deg(obj, aim_point))


def best_ease(cue: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125,
              model: PocketModel = DEFAULT_POCKETS) -> float:
    """The estimated chance of potting the best direct option from this layout (0 when nothing is makeable).

    The same number as ``pot_options(..., combos=False)[0].ease`` (a test checks it), from a compiled
    kernel: searches call it for every simulated outcome.
    """
    others = np.array([b for b in range(1, len(on)) if on[b] and b != lowest], dtype=np.int64)
    obstacles = np.ascontiguousarray(pos[others], dtype=np.float64).reshape(-1, 2)
    return _best_ease_kernel(float(cue[0]), float(cue[1]), float(pos[lowest, 0]), float(pos[lowest, 1]),
                             obstacles, _aims(table), _AXES, table.width, table.length, params.R,
                             math.radians(sigma_phi), _model_array(model))


@lru_cache(maxsize=8)
def _model_array(model: PocketModel) -> np.ndarray:
    return np.array([model.corner_half, model.corner_full, model.corner_max, model.corner_shift_rate,
                     model.corner_shift_max, model.side_half, model.side_scale, model.side_max, model.model_sigma,
                     model.floor_sigma])


@njit(cache=True)
def _segment_clear(ax: float, ay: float, bx: float, by: float, obstacles: np.ndarray, R: float) -> bool:
    """A ball rolling from a to b [m] passes every obstacle centre without touching it."""
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    for i in range(obstacles.shape[0]):
        rx, ry = obstacles[i, 0] - ax, obstacles[i, 1] - ay
        t = (rx * dx + ry * dy) / L2 if L2 > 0.0 else 0.0
        t = min(max(t, 0.0), 1.0)
        gx, gy = rx - t * dx, ry - t * dy
        if gx * gx + gy * gy < 4.0 * R * R:
            return False
    return True


@njit(cache=True)
def _best_ease_kernel(cx: float, cy: float, ox: float, oy: float, obstacles: np.ndarray, aims: np.ndarray,
                      axes: np.ndarray, width: float, length: float, R: float, sigma_phi: float,
                      m: np.ndarray) -> float:
    """``best_ease`` for one layout: the pocket windows of ``pocket_target``, the checks of ``_direct`` and the
    estimate of ``pot_probability``, over the six pockets (angles in radians, lengths in metres)."""
    best = 0.0
    cos_max = math.cos(math.radians(80.0))
    for k in range(6):
        px, py = aims[k, 0] - ox, aims[k, 1] - oy
        d = math.sqrt(px * px + py * py)
        ux, uy = (px / d, py / d) if d > 0.0 else (0.0, 0.0)
        a = math.degrees(math.atan2(axes[k, 0] * uy - axes[k, 1] * ux, axes[k, 0] * ux + axes[k, 1] * uy))
        abs_a = abs(a)
        if k == 2 or k == 3:
            if abs_a > m[7]:
                continue
            half = m[5] * (1.0 - (a / m[6]) ** 2)
            shift = 0.0
        else:
            if abs_a > m[2]:
                continue
            half = m[0] if abs_a <= m[1] else m[0] * (m[2] - abs_a) / (m[2] - m[1])
            shift = math.copysign(min(m[3] * abs_a, m[4]), a)
        tx, ty = aims[k, 0] - shift * uy, aims[k, 1] + shift * ux
        lx, ly = tx - ox, ty - oy
        leg = math.sqrt(lx * lx + ly * ly)
        wx, wy = (lx / leg, ly / leg) if leg > 0.0 else (0.0, 0.0)
        gx, gy = ox - 2.0 * R * wx, oy - 2.0 * R * wy
        r_in = R * 0.999
        if not (r_in <= gx <= width - r_in and r_in <= gy <= length - r_in):
            continue
        vx, vy = gx - cx, gy - cy
        d_cue = math.sqrt(vx * vx + vy * vy)
        if d_cue < 1e-6:
            continue
        cos_cut = min(max((vx * wx + vy * wy) / d_cue, -1.0), 1.0)
        if math.degrees(math.acos(cos_cut)) > 80.0:
            continue
        if half <= 0.0:
            continue
        if not (_segment_clear(cx, cy, gx, gy, obstacles, R) and _segment_clear(ox, oy, tx, ty, obstacles, R)):
            continue
        cos_c = max(cos_cut, cos_max)
        s_obj = math.hypot(d_cue * sigma_phi / (2.0 * R * cos_c), m[8])
        s_lat = math.hypot(leg * s_obj, m[9])
        p = math.erf(half / (math.sqrt(2.0) * s_lat))
        if p > best:
            best = p
    return best


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


def corrected_phi(state: BallState, cue: np.ndarray, target: int, direction: float, shot: Shot,
                  table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS, iterations: int = 2) -> float:
    """Aim [deg] for ``shot`` that sends ball ``target`` off in ``direction`` [deg], throw and squirt included.

    Simulates the cue ball and the target alone, reads the target's direction after the first
    collision, and moves the ghost ball to cancel the difference (each iteration one simulation).
    """
    R = params.R
    obj = state.pos[target].copy()
    two = physics.place_balls({0: (float(cue[0]), float(cue[1])), target: (float(obj[0]), float(obj[1]))})
    phi = shot.phi
    want = direction
    for _ in range(iterations):
        try:
            result = physics.simulate(two, Shot(shot.V0, phi, shot.theta, shot.a, shot.b), table, params,
                                      max_events=64, max_time=2.0)
        except ValueError:
            return phi
        got = _departure(result, target)
        if got is None:
            return phi
        error = (got - direction + 180.0) % 360.0 - 180.0
        if abs(error) < 0.01:
            break
        want = want - error
        ghost = obj - 2.0 * R * np.array([math.cos(math.radians(want)), math.sin(math.radians(want))])
        phi = direction_deg(cue, ghost)
    return phi


def _departure(result: physics.SimResult, target: int) -> float | None:
    """Direction [deg] ``target`` leaves in after its first collision with the cue ball, or None."""
    ev = result.events
    hits = np.flatnonzero((ev.kind == int(physics.EventKind.BALL_BALL)) & ((ev.ball_a == 0) | (ev.ball_b == 0)))
    if hits.size == 0:
        return None
    i = int(hits[0])
    if target not in (int(ev.ball_a[i]), int(ev.ball_b[i])):
        return None
    row = ev.state_a[i] if int(ev.ball_a[i]) == target else ev.state_b[i]
    if row[2] == 0.0 and row[3] == 0.0:
        return None
    return math.degrees(math.atan2(row[3], row[2]))


def cue_spots(pos: np.ndarray, on: np.ndarray, lowest: int, table: Table = DEFAULT_TABLE,
              params: PhysicsParams = DEFAULT_PARAMS, sigma_phi: float = 0.125, *,
              distances: tuple[float, ...] = (0.2, 0.3, 0.45),
              turns: tuple[float, ...] = (10.0, -10.0, 0.0, 20.0, -20.0, 35.0, -35.0)
              ) -> list[tuple[tuple[float, float], PotOption]]:
    """Ball-in-hand spots behind ``lowest`` for a pot into each pocket, with that pot; easiest first.

    Spots lie at ``distances`` [m] from the ball, on the line from the pocket turned by ``turns``
    [deg] (a slight angle leaves room for position play); spots that touch a ball or a pocket are skipped.
    """
    from nineball_env import placement

    on = np.asarray(on, dtype=bool).copy()
    on[0] = False
    others = pos[on]
    obj = pos[lowest]
    cue_on = on.copy()
    cue_on[0] = True
    out = []
    for k in range(6):
        found = pocket_target(obj, k, table)
        if found is None:
            continue
        back = unit(obj - found[0])
        for dist in distances:
            for turn in turns:
                c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
                spot = obj + dist * np.array([c * back[0] - s * back[1], s * back[0] + c * back[1]])
                if not placement.is_free(spot[0], spot[1], others, table, params, margin=1e-4):
                    continue
                options = [o for o in pot_options(spot, pos, cue_on, lowest, table, params, sigma_phi, combos=False)
                           if o.pocket == k]
                if options:
                    out.append(((float(spot[0]), float(spot[1])), options[0]))
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
