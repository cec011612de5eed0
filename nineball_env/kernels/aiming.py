"""The default opponent (``aiming.AimingPolicy``): its whole decision, for many observations in one numba call.

Ghost-ball aiming at the pocket with the smallest cut (clear paths first), a straight-in ball-in-hand
spot, a hard break from the middle of the head string, never a push-out; the action encoded by
``actions.shot_to_action``'s kernel. One call decides for every table of a vector env. The few positions
whose cue-ball spot is blocked (the break spot, no straight-in spot) are flagged with the spot they
wanted; ``decide_batch`` then finds the nearest free spot (``placement.nearest_free``) and aims again from it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from nineball_env.kernels.codes import BallInHandCode, PhaseCode
from nineball_env.kernels.codes import ObsCol as O
from nineball_env.kernels.placement import is_free as _is_free
from nineball_env.kernels.placement import nearest_free
from nineball_env.kernels.round import encode_action

MAX_CUT = 75.0  # [deg] the widest cut the policy tries
SIDE_STEEP = 0.8  # a side pocket is skipped when the ball's path to it is steeper than this (|sin|)
BIH_DISTANCES = (0.25, 0.4, 0.15, 0.6, 0.1)  # [m] behind the object ball, tried in this order
SPOT_MARGIN = 1e-4  # [m] clearance of a straight-in spot from balls and pockets
_POS, _ON, _LOWEST, _PHASE, _IN_HAND = O.POS, O.ON_TABLE, O.LOWEST, O.PHASE, O.IN_HAND
_BREAK, _CHOICE = PhaseCode.BREAK, PhaseCode.PUSH_OUT_CHOICE  # phase one-hot indices
_NONE, _KITCHEN = BallInHandCode.NONE, BallInHandCode.KITCHEN  # in-hand one-hot indices
# numba compiles a kernel once per distinct argument types and types a literal (``True``, ``0``) as a type of its own,
# also a variable set to a literal and counted up later: values passed to kernels are typed, never literals, so that
# every callee compiles once (tests/env/test_env_compile_once.py).
_TRUE, _FALSE = np.bool_(True), np.bool_(False)


@njit(cache=True)
def path_clear(ax, ay, bx, by, obstacles, n_obs, reach2):
    """A ball rolling from a to b passes the first ``n_obs`` obstacle centres without touching them."""
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    for i in range(n_obs):
        ox, oy = obstacles[i, 0], obstacles[i, 1]
        t = 0.0
        if L2 > 0.0:
            t = min(max(((ox - ax) * dx + (oy - ay) * dy) / L2, 0.0), 1.0)
        cx, cy = ax + t * dx, ay + t * dy
        if (ox - cx) ** 2 + (oy - cy) ** 2 < reach2:
            return False
    return True


@njit(cache=True)
def unit(x, y):
    """(x, y) scaled to length 1 (the zero vector stays zero)."""
    n = math.hypot(x, y)
    if n > 0.0:
        return x / n, y / n
    return 0.0, 0.0


@njit(cache=True)
def ghost(ox, oy, tx, ty, R):
    """The ghost-ball centre that sends a ball at (ox, oy) straight towards (tx, ty), and that direction."""
    ux, uy = unit(tx - ox, ty - oy)
    return ox - 2.0 * R * ux, oy - 2.0 * R * uy, ux, uy


@njit(cache=True)
def cut_deg(cx, cy, gx, gy, ux, uy):
    """The cut angle [deg] between the cue ball's path (cx, cy) -> ghost (gx, gy) and the object ball's direction u."""
    vx, vy = unit(gx - cx, gy - cy)
    return math.degrees(math.acos(min(max(vx * ux + vy * uy, -1.0), 1.0)))


@njit(cache=True)
def aim_batch(obs, width, length, head_y, R, pockets, aims, break_speed, scale, spots, given, out, fallback):
    """Decide for every observation row of ``obs`` (n, 54): actions into ``out`` (n, 9) float64. A row with
    ``given[k]`` places the cue ball in hand at ``spots[k]``; a row whose own spot is blocked gets
    ``fallback[k] = True`` and the spot it wanted in ``spots[k]`` (its action is left unset). ``scale`` is the
    action scale's row (``ActionScale.row``)."""
    reach2 = (2.0 * R) ** 2
    kitchen_box = np.empty(4)
    kitchen_box[0], kitchen_box[1], kitchen_box[2], kitchen_box[3] = R, width - R, R, head_y
    table_box = np.empty(4)
    table_box[0], table_box[1], table_box[2], table_box[3] = R, width - R, R, length - R
    pos = np.empty((10, 2))
    obstacles = np.empty((10, 2))
    balls = np.empty((10, 2))
    for k in range(obs.shape[0]):
        fallback[k] = False
        row = obs[k]
        phase = -1
        for j in range(4):
            if row[_PHASE + j] > 0.0 and (phase < 0 or row[_PHASE + j] > row[_PHASE + phase]):
                phase = j
        if phase == _CHOICE:  # shoot on, never pass back
            encode_action(out[k], _FALSE, 0.0, 0.0, 0.0, 0.0, 0.0, _FALSE, 0.0, 0.0, table_box, _FALSE, _FALSE, scale)
            continue
        in_hand = 0
        for j in range(3):
            if row[_IN_HAND + j] > row[_IN_HAND + in_hand]:
                in_hand = j
        kitchen = in_hand == _KITCHEN
        lowest = 9
        best_v = 0.0
        for j in range(9):
            if row[_LOWEST + j] > best_v:
                best_v = row[_LOWEST + j]
                lowest = j + 1
        for b in range(10):
            pos[b, 0] = np.float64(row[_POS + 2 * b]) * width
            pos[b, 1] = np.float64(row[_POS + 2 * b + 1]) * length
        n_obs = np.int64(0)
        n_balls = np.int64(0)
        for b in range(1, 10):
            if row[_ON + b] > 0.5:
                balls[n_balls, 0], balls[n_balls, 1] = pos[b, 0], pos[b, 1]
                n_balls += 1
                if b != lowest:
                    obstacles[n_obs, 0], obstacles[n_obs, 1] = pos[b, 0], pos[b, 1]
                    n_obs += 1
        ox, oy = pos[lowest, 0], pos[lowest, 1]
        if phase == _BREAK:
            sx, sy = width / 2.0, head_y - 0.01
            if given[k]:
                sx, sy = spots[k, 0], spots[k, 1]
            elif not _is_free(sx, sy, balls, n_balls, R, width, length, head_y, _TRUE, pockets, 0.0):
                fallback[k] = True
                spots[k, 0], spots[k, 1] = sx, sy
                continue
            phi = math.degrees(math.atan2(oy - sy, ox - sx))
            encode_action(out[k], _TRUE, break_speed, phi, 0.0, 0.0, 0.0, _TRUE, sx, sy, kitchen_box, _FALSE, _FALSE,
                          scale)
            continue
        placed = in_hand != _NONE
        cx, cy = pos[0, 0], pos[0, 1]
        if placed and given[k]:
            cx, cy = spots[k, 0], spots[k, 1]
        elif placed:  # a straight-in spot behind the object ball, the shortest pot first
            found = False
            best_len = 0.0
            for p in range(aims.shape[0]):
                tx, ty = aims[p, 0], aims[p, 1]
                bx, by = unit(ox - tx, oy - ty)
                if (p == 2 or p == 3) and abs(by) > SIDE_STEEP:
                    continue
                if not path_clear(ox, oy, tx, ty, obstacles, n_obs, reach2):
                    continue
                gx, gy, _, _ = ghost(ox, oy, tx, ty, R)
                for dist in BIH_DISTANCES:
                    qx, qy = ox + bx * dist, oy + by * dist
                    obstacles[n_obs, 0], obstacles[n_obs, 1] = ox, oy  # the object ball blocks the spot too
                    if _is_free(qx, qy, obstacles, n_obs + 1, R, width, length, head_y, kitchen, pockets,
                                SPOT_MARGIN) and \
                            path_clear(qx, qy, gx, gy, obstacles, n_obs, reach2):
                        length_p = math.hypot(tx - ox, ty - oy) + dist
                        if not found or length_p < best_len:
                            found, best_len, cx, cy = True, length_p, qx, qy
                        break
            if not found:
                qx, qy = ox, oy - 0.3
                if not _is_free(qx, qy, balls, n_balls, R, width, length, head_y, kitchen, pockets, 0.0):
                    fallback[k] = True
                    spots[k, 0], spots[k, 1] = qx, qy
                    continue
                cx, cy = qx, qy
        # the pot with clear paths first, then the smallest cut
        have = False
        best_clear = False
        best_cut = 0.0
        V0 = 3.0
        phi = math.degrees(math.atan2(oy - cy, ox - cx))
        for p in range(aims.shape[0]):
            tx, ty = aims[p, 0], aims[p, 1]
            gx, gy, ux, uy = ghost(ox, oy, tx, ty, R)
            if not (R <= gx <= width - R and R <= gy <= length - R):
                continue
            cut = cut_deg(cx, cy, gx, gy, ux, uy)
            if cut > MAX_CUT:
                continue
            if (p == 2 or p == 3) and abs(uy) > SIDE_STEEP:
                continue
            clear = path_clear(cx, cy, gx, gy, obstacles, n_obs, reach2) and \
                path_clear(ox, oy, tx, ty, obstacles, n_obs, reach2)
            if have and not ((clear and not best_clear) or (clear == best_clear and cut < best_cut)):
                continue
            have, best_clear, best_cut = True, clear, cut
            d1 = math.hypot(gx - cx, gy - cy)
            d2 = math.hypot(tx - ox, ty - oy)
            V0 = min(max(1.2 + 1.1 * (d1 + d2 / max(math.cos(math.radians(cut)), 0.3)), 1.5), 6.0)
            phi = math.degrees(math.atan2(gy - cy, gx - cx))
        encode_action(out[k], _TRUE, V0, phi, 0.0, 0.0, 0.0, placed, cx, cy, kitchen_box if kitchen else table_box,
                      _FALSE, _FALSE, scale)


@njit(cache=True)
def decide_batch(obs, width, length, head_y, R, pockets, aims, break_speed, scale, gap, out, failed):
    """The policy's actions for every observation row (n, 54) float32 into ``out`` (n, 9) float64: ``aim_batch``, and
    for a row whose spot is blocked, ``aim_batch`` again from the free spot nearest to the one it wanted (in the
    kitchen on the break; ``gap`` [m] is ``placement.GAP``). ``failed[k]``: no spot is free (``out[k]`` unset)."""
    n = obs.shape[0]
    spots = np.zeros((n, 2))
    given = np.zeros(n, dtype=np.bool_)
    fallback = np.zeros(n, dtype=np.bool_)
    aim_batch(obs, width, length, head_y, R, pockets, aims, break_speed, scale, spots, given, out, fallback)
    one = np.empty((1, obs.shape[1]), dtype=np.float32)
    spot = np.empty((1, 2))
    again = np.empty((1, out.shape[1]))
    balls = np.empty((9, 2))
    best = np.empty(4)
    for k in range(n):
        failed[k] = False
        if not fallback[k]:
            continue
        row = obs[k]
        n_balls = np.int64(0)
        for b in range(1, 10):
            if row[_ON + b] > 0.5:
                balls[n_balls, 0] = np.float64(row[_POS + 2 * b]) * width
                balls[n_balls, 1] = np.float64(row[_POS + 2 * b + 1]) * length
                n_balls += 1
        in_hand = 0
        for j in range(3):
            if row[_IN_HAND + j] > row[_IN_HAND + in_hand]:
                in_hand = j
        nearest_free(spots[k, 0], spots[k, 1], balls, n_balls, R, width, length, head_y, in_hand == _KITCHEN, pockets,
                     gap, best)
        if best[0] == 0.0:
            failed[k] = True
            continue
        for j in range(obs.shape[1]):
            one[0, j] = row[j]
        spot[0, 0], spot[0, 1] = best[1], best[2]
        aim_batch(one, width, length, head_y, R, pockets, aims, break_speed, scale, spot, np.ones(1, dtype=np.bool_),
                  again, np.zeros(1, dtype=np.bool_))
        for j in range(out.shape[1]):
            out[k, j] = again[0, j]
