"""The compiled stages of a batched geometric decision round (``agents.players.ghost_ball``): ball-in-hand spots,
safeties and kicks, pot speeds, noisy samples and the encoded actions of many tables at once.

Each kernel is one call for every row of a round, so a round costs a few kernel calls and no Python per table. They
reuse the shot geometry (``agents.shots.kernels``), the env's placement, aiming and action kernels, so nothing here
restates a rule of placement or the action encoding. Units: metres, seconds, m/s; angles in degrees.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from agents.shots.kernels import (ANYWHERE, MAX_OPTIONS, NO_COMBOS, O_CUT, O_D_CUE, O_D_OBJ, O_EASE, O_PHI, O_POCKET,
                                  OPT_W, cue_spot_points, pot_options_row)
from nineball_env.kernels.aiming import path_clear
from nineball_env.kernels.placement import nearest_free
from nineball_env.kernels.round import encode_action, perturbed

#: Columns of the numbers ``rolling_speed`` reads: rolling resistance, gravity, ball-ball restitution, cue mass and
#: ball mass, and the exponent 2.0 of its squares, read at run time so that a square is libm's pow(x, 2.0) as
#: Python's ``x ** 2`` (``pots.rolling_speed_for``): the x * x numba makes of a constant exponent differs from it in
#: the last bit for about one x in a thousand.
U_R, G, E_B, CUE_MASS, MASS, SQUARE = range(6)
SPOT_MAX_CUT = 80.0  # [deg] the widest cut a ball-in-hand spot's pot may have (``pots.pot_rows``' default)
#: Safety speeds [m/s]: into a cluster of balls, a one-rail kick, and the plain hit when no kick is clear.
CLUSTER_SPEED, KICK_SPEED, BLIND_SPEED = 6.0, 3.0, 2.5


@njit(cache=True)
def rolling_speed(d_cue, d_obj, cut, arrive, phys):
    """Cue speed V0 [m/s] that sends the object ball ``d_obj`` to the pocket with about ``arrive`` left after the
    cue ball travelled ``d_cue`` to a cut of ``cut`` (``pots.rolling_speed_for``; ``phys`` the ``U_R``... columns)."""
    decel = 2.0 * phys[U_R] * phys[G]
    cos_cut = max(math.cos(math.radians(cut)), 0.25)
    v_obj = math.sqrt(arrive ** phys[SQUARE] + decel * d_obj) * 7.0 / 5.0
    v_contact = v_obj / (cos_cut * (1.0 + phys[E_B]) / 2.0)
    v_start = math.sqrt(v_contact ** phys[SQUARE] + decel * d_cue) * 7.0 / 5.0
    strike = 2.0 * phys[CUE_MASS] / (phys[CUE_MASS] + phys[MASS])
    return v_start / strike


@njit(cache=True)
def direction(sx, sy, ex, ey):
    """The aim [deg, CCW from +x] from (sx, sy) towards (ex, ey) (``aim.direction_deg``)."""
    return math.degrees(math.atan2(ey - sy, ex - sx))


@njit(cache=True)
def spot_rows(pos, on, lowest, sigma, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, gap, out):
    """Ball-in-hand spots of layouts ``pos`` (N, n, 2), ``on`` (N, n) behind ball ``lowest[i]``: of the free spots
    of ``cue_spot_points`` whose pot into their pocket is clear (aim noise ``sigma[i]`` [deg]), easiest first (a
    stable sort), the first best by ease less 0.02 for a dead-straight pot (cut < 2°); without one, the nearest
    free point 0.3 m below the lowest ball (``placement.nearest_free``). ``out[i]`` = (found, x, y); found 0: no
    free spot at all."""
    N, per = pos.shape[0], 6 * dist.shape[0]
    points = np.empty((N, per, 2))
    pocket_of = np.empty((N, per), dtype=np.int64)
    free = np.zeros((N, per), dtype=np.bool_)
    counts = np.empty(N, dtype=np.int64)
    cue_spot_points(pos, on, lowest, aims, axes, m, dist, c, s, R, width, length, head_y, rims, margin, points,
                    pocket_of, free, counts)
    cue_on = np.empty(pos.shape[1], dtype=np.bool_)
    rows = np.empty((MAX_OPTIONS, OPT_W))
    ease = np.empty(per)
    score = np.empty(per)
    spot = np.empty(per, dtype=np.int64)
    others = np.empty((pos.shape[1], 2))
    best = np.empty(4)
    for i in range(N):
        cue_on[:] = on[i]
        cue_on[0] = True
        k = 0
        for j in range(counts[i]):
            if not free[i, j]:
                continue
            n = pot_options_row(points[i, j, 0], points[i, j, 1], pos[i], cue_on, lowest[i], aims, axes, m, width,
                                length, R, sigma[i], NO_COMBOS, SPOT_MAX_CUT, rows)
            for q in range(n):
                if rows[q, O_POCKET] == pocket_of[i, j]:
                    ease[k] = rows[q, O_EASE]
                    score[k] = rows[q, O_EASE] - (0.02 if rows[q, O_CUT] < 2.0 else 0.0)
                    spot[k] = j
                    k += 1
                    break
        if k:
            order = np.argsort(-ease[:k], kind="mergesort")  # easiest first, stable
            top = order[0]
            for q in order[1:]:
                if score[q] > score[top]:
                    top = q
            out[i, 0], out[i, 1], out[i, 2] = 1.0, points[i, spot[top], 0], points[i, spot[top], 1]
            continue
        n_others = np.int64(0)
        for b in range(1, pos.shape[1]):
            if on[i, b]:
                others[n_others, 0], others[n_others, 1] = pos[i, b, 0], pos[i, b, 1]
                n_others += 1
        low = lowest[i]
        nearest_free(pos[i, low, 0], pos[i, low, 1] - 0.3, others, n_others, R, width, length, head_y, ANYWHERE, rims,
                     gap, best)
        out[i, 0], out[i, 1], out[i, 2] = best[0], best[1], best[2]


@njit(cache=True)
def safety_rows(cue, pos, on, lowest, R, reach2, width, length, phys, v_min, v_max, out):
    """Safeties from cue balls ``cue`` (N, 2) in layouts ``pos`` (N, n, 2), ``on`` (N, n) at ball ``lowest[i]``,
    as strikes (V0, phi, theta, a, b) into ``out`` (N, 5): a full hit with a little draw, hard enough to reach a rail
    (``CLUSTER_SPEED`` into a cluster: two other balls within 0.15 m), when the path is clear; else the shortest
    clear one-rail kick (mirror image across each cushion line); else a plain hit at the ball. ``reach2`` is
    (2R)² [m²] as Python's ``aim.path_clear`` squares it."""
    obstacles = np.empty((pos.shape[1], 2))
    lines = np.array([R, width - R, R, length - R])
    for i in range(cue.shape[0]):
        low = lowest[i]
        cx, cy = cue[i, 0], cue[i, 1]
        ox, oy = pos[i, low, 0], pos[i, low, 1]
        k = np.int64(0)
        close = 0
        for b in range(1, 10):
            if on[i, b] and b != low:
                obstacles[k, 0], obstacles[k, 1] = pos[i, b, 0], pos[i, b, 1]
                if math.hypot(pos[i, b, 0] - ox, pos[i, b, 1] - oy) < 0.15:
                    close += 1
                k += 1
        out[i, 2], out[i, 3], out[i, 4] = 0.0, 0.0, 0.0
        if path_clear(cx, cy, ox, oy, obstacles, k, reach2):
            V = rolling_speed(math.hypot(ox - cx, oy - cy), 0.6, 0.0, 0.4, phys)
            if close >= 2:
                V = CLUSTER_SPEED
            out[i, 0], out[i, 1], out[i, 4] = min(max(V, v_min), v_max), direction(cx, cy, ox, oy), -0.2
            continue
        best_len = np.inf
        out[i, 0], out[i, 1] = BLIND_SPEED, direction(cx, cy, ox, oy)
        for q in range(4):
            v = lines[q]
            ix, iy = (2.0 * v - ox, oy) if q < 2 else (ox, 2.0 * v - oy)
            dx, dy = ix - cx, iy - cy
            d_axis, c_axis = (dx, cx) if q < 2 else (dy, cy)
            if abs(d_axis) < 1e-9:
                continue
            t = (v - c_axis) / d_axis
            if not 0.0 < t < 1.0:
                continue
            rx, ry = cx + t * dx, cy + t * dy
            if path_clear(cx, cy, rx, ry, obstacles, k, reach2) and path_clear(rx, ry, ox, oy, obstacles, k, reach2):
                d = math.hypot(dx, dy)
                if d < best_len:
                    best_len = d
                    out[i, 0], out[i, 1] = KICK_SPEED, direction(cx, cy, ix, iy)


@njit(cache=True)
def pot_shot_rows(options, arrive, stun_cut, phys, v_min, v_max, out):
    """The strikes (V0, phi, theta, a, b) into ``out`` (N, 5) of the pot option rows ``options`` (N, OPT_W): the
    speed that gets the ball to the pocket with ``arrive`` m/s left (within [v_min, v_max]), a little draw below a
    cut of ``stun_cut``, aimed at the ghost ball (before any throw correction)."""
    for i in range(options.shape[0]):
        o = options[i]
        V = rolling_speed(o[O_D_CUE], o[O_D_OBJ], o[O_CUT], arrive, phys)
        out[i, 0] = min(max(V, v_min), v_max)
        out[i, 1] = o[O_PHI]
        out[i, 2], out[i, 3] = 0.0, 0.0
        out[i, 4] = -0.3 if o[O_CUT] < stun_cut else 0.0


@njit(cache=True)
def perturb_rows(shots, e, sigma, R, limits, out):
    """Every strike ``shots[i]`` (V0, phi, theta, a, b) with the execution errors ``e[i]`` (5 standard normals)
    scaled by ``sigma`` (5,) (``noise.perturb``, the env's ``perturbed``) into ``out`` (N, 5)."""
    for i in range(shots.shape[0]):
        s = shots[i]
        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4] = perturbed(s[0], s[1], s[2], s[3], s[4], e[i],
                                                                         sigma, R, limits)


@njit(cache=True)
def encode_rows(shots, has_shot, placed, spots, kitchen, push_out, pass_back, R, width, length, head_y, scale,
                out):
    """The actions (``actions.shot_to_action``) of N decisions into ``out`` (N, 9) float64: strike ``shots[i]``
    when ``has_shot[i]``, the cue ball at ``spots[i]`` when ``placed[i]`` (in the kitchen's box when
    ``kitchen[i]``), the push-out and pass-back flags; ``scale[i]`` = (v_min, v_max, tip_max, theta_max)."""
    box = np.empty(4)
    u = np.empty(out.shape[1])
    for i in range(shots.shape[0]):
        box[0], box[1], box[2], box[3] = 0.0, 0.0, 0.0, 0.0
        if placed[i]:
            box[0], box[1], box[2], box[3] = R, width - R, R, head_y if kitchen[i] else length - R
        s = shots[i]
        encode_action(u, has_shot[i], s[0], s[1], s[2], s[3], s[4], placed[i], spots[i, 0], spots[i, 1], box,
                      push_out[i], pass_back[i], scale[i])
        out[i] = u
