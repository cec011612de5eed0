"""One round of decisions on ``table_batch.TableBatch`` arrays, before and after the physics, in numba.

``prepare_round`` decodes the actions (``actions.action_to_shot`` / ``action_to_placement``), adds
the execution noise drawn by each table's generator (``noise.perturb``), reads the declaration and
places a cue ball in hand where the spot is free; ``apply_round`` writes the simulated balls back and
takes up a cue ball that goes in hand. The arithmetic is the scalar paths' own, operation by
operation, so a table plays bit for bit as ``Game`` (tests compare them decision by decision).
"""

from __future__ import annotations

import math

from numba import njit

from nineball_env.kernels.codes import A, BallInHandCode, DeclarationCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.placement import is_free

_ON_TABLE_MAX = 3.0  # physics.Motion.ROLLING
_STATIONARY, _POCKETED = 0.0, 4.0


@njit(cache=True)
def prepare_round(balls, rack, ks, acts, errors, noisy, sigma, R, scale, limits, box, pockets,
                  start, rows, declaration, placed, free):
    """For each row i (table ``ks[i]``): ``declaration[i]``; for a shot, the (noisy) shot row ``rows[i]``
    (V0, phi°, theta°, a, b), the start state ``start[i]`` with a cue ball in hand placed at its decoded
    spot (``placed[i]``; ``free[i]`` says whether that spot is legal — the caller moves it otherwise).

    ``sigma`` = noise (phi, V0, theta, a, b); ``scale`` = (v_min, v_max, tip_max, theta_max);
    ``limits`` = (min speed, max speed, max elevation, max tip offset); ``box`` = (x_lo, x_hi,
    kitchen y_hi, anywhere y_hi, table width, table length).
    """
    v_min, v_max, tip_max, theta_max = scale[0], scale[1], scale[2], scale[3]
    others = balls[0, :, 0:2].copy()
    for i in range(ks.shape[0]):
        k = ks[i]
        phase, bih = rack[k, C.PHASE], rack[k, C.IN_HAND]
        u = acts[i]
        placed[i] = False
        free[i] = True
        if phase == PhaseCode.PUSH_OUT_CHOICE:  # the choice after a push-out: no shot
            declaration[i] = DeclarationCode.PASS_BACK if u[A.PASS_BACK] > 0.0 else DeclarationCode.SHOOT
            for j in range(5):
                rows[i, j] = math.nan
            continue
        push = phase == PhaseCode.PUSH_OUT_ALLOWED and u[A.PUSH_OUT] > 0.0
        declaration[i] = DeclarationCode.PUSH_OUT if push else DeclarationCode.SHOT
        V0 = v_min + (u[A.SPEED] + 1.0) * 0.5 * (v_max - v_min)  # actions.action_to_shot
        phi = 180.0 * u[A.AIM]
        theta = 0.0 + (u[A.ELEVATION] + 1.0) * 0.5 * (theta_max - 0.0)
        a = tip_max * u[A.SIDE]
        b = tip_max * u[A.VERTICAL]
        if noisy:  # noise.perturb
            e = errors[i]
            V0 = min(max(V0 + sigma[1] * e[1], limits[0]), limits[1])
            theta = min(max(theta + sigma[2] * e[2], 0.0), limits[2])
            a = a + sigma[3] / R * e[3]
            b = b + sigma[4] / R * e[4]
            r2 = a * a + b * b
            if r2 > limits[3] * limits[3]:
                r = math.sqrt(r2)
                a, b = a * limits[3] / r, b * limits[3] / r
            phi = phi + sigma[0] * e[0]
        rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4] = V0, phi, theta, a, b
        for bb in range(balls.shape[1]):
            for j in range(balls.shape[2]):
                start[i, bb, j] = balls[k, bb, j]
        if bih == BallInHandCode.NONE:
            continue
        kitchen = bih == BallInHandCode.KITCHEN
        y_hi = box[2] if kitchen else box[3]
        x = box[0] + (u[A.PLACE_X] + 1.0) * 0.5 * (box[1] - box[0])  # actions.action_to_placement
        y = R + (u[A.PLACE_Y] + 1.0) * 0.5 * (y_hi - R)
        n = 0
        for bb in range(1, balls.shape[1]):
            if balls[k, bb, 7] <= _ON_TABLE_MAX:
                others[n, 0], others[n, 1] = balls[k, bb, 0], balls[k, bb, 1]
                n += 1
        placed[i] = True
        free[i] = is_free(x, y, others, n, R, box[4], box[5], box[2], kitchen, pockets, 0.0)
        move_cue(start, i, x, y)


@njit(cache=True)
def move_cue(start, i, x, y):
    """Put row i's cue ball at rest at (x, y) (the decoded spot, or a free one the caller moved it to)."""
    start[i, 0, 0], start[i, 0, 1] = x, y
    for j in range(2, 7):
        start[i, 0, j] = 0.0
    start[i, 0, 7] = _STATIONARY
    start[i, 0, 8] = -1.0


@njit(cache=True)
def apply_round(balls, ks, sim, final, after):
    """Write the simulated ``final`` states of rows ``sim`` back to their tables, then take up the cue ball of
    every table whose rack ``after`` gives the incoming player ball in hand (``BallState.remove``)."""
    for j in range(sim.shape[0]):
        k = ks[sim[j]]
        for b in range(final.shape[1]):
            for c in range(final.shape[2]):
                balls[k, b, c] = final[j, b, c]
    for i in range(ks.shape[0]):
        if after[i, C.IN_HAND] != BallInHandCode.NONE:
            k = ks[i]
            for c in range(2, 7):
                balls[k, 0, c] = 0.0
            balls[k, 0, 7] = _POCKETED
            balls[k, 0, 8] = -1.0
