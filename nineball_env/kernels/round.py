"""Actions to shots, execution noise, and one round of decisions on ``game.TableBatch`` arrays, in numba.

``lin``, ``shot_of``, ``encode_action`` and ``perturbed`` are the action mapping both ways and the noise model
themselves (``actions`` and ``noise.perturb`` call them, and so does the default opponent), so every path
decodes, encodes and perturbs with the same arithmetic. ``prepare_round`` decodes a round of
actions, adds each table's noise draws, reads the declaration and places a cue ball in hand;
``apply_round`` writes the simulated balls back and takes up a cue ball that goes in hand.
"""

from __future__ import annotations

import math

from numba import njit

from nineball_env.kernels.codes import A, BallInHandCode, DeclarationCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.placement import is_free
from physics.state import Motion

# the packed balls' motion codes as floats (numba freezes them: see kernels/__init__)
_ON_TABLE_MAX, _STATIONARY, _POCKETED = float(Motion.ROLLING), float(Motion.STATIONARY), float(Motion.POCKETED)


@njit(cache=True)
def lin(u, lo, hi):
    """An action component u in [-1, 1] mapped onto [lo, hi] (every range of ``nineball_env.actions``)."""
    return lo + (u + 1.0) * 0.5 * (hi - lo)


@njit(cache=True)
def unlin(v, lo, hi):
    """The inverse of ``lin``: a value on [lo, hi] as the action component in [-1, 1] (0 for an empty range)."""
    return 2.0 * (v - lo) / (hi - lo) - 1.0 if hi > lo else 0.0


@njit(cache=True)
def encode_action(out, shot, V0, phi, theta, a, b, placed, px, py, box, push_out, pass_back, scale):
    """The action (``actions.shot_to_action``) into ``out`` (9,) float64, clipped to [-1, 1]: the strike when
    ``shot``, the cue-ball centre (px, py) in ``box`` = (x_lo, x_hi, y_lo, y_hi) when ``placed``, the two flags;
    ``scale`` = (v_min, v_max, tip_max, theta_max). Components not given are 0."""
    for j in range(out.shape[0]):
        out[j] = 0.0
    if shot:
        phi = (phi + 180.0) % 360.0 - 180.0  # (-180, 180]
        if phi == -180.0:
            phi = 180.0
        tip = scale[2] if scale[2] > 0.0 else 1.0
        out[A.AIM] = phi / 180.0
        out[A.SPEED] = unlin(V0, scale[0], scale[1])
        out[A.SIDE] = a / tip
        out[A.VERTICAL] = b / tip
        out[A.ELEVATION] = unlin(theta, 0.0, scale[3])
    if placed:
        out[A.PLACE_X] = unlin(px, box[0], box[1])
        out[A.PLACE_Y] = unlin(py, box[2], box[3])
    out[A.PUSH_OUT] = 1.0 if push_out else -1.0
    out[A.PASS_BACK] = 1.0 if pass_back else -1.0
    for j in range(out.shape[0]):
        out[j] = min(max(out[j], -1.0), 1.0)


@njit(cache=True)
def shot_of(u, v_min, v_max, tip_max, theta_max):
    """The cue strike (V0 [m/s], phi [deg], theta [deg], a, b) of action ``u`` (``actions.action_to_shot``)."""
    return (lin(u[A.SPEED], v_min, v_max), 180.0 * u[A.AIM], lin(u[A.ELEVATION], 0.0, theta_max),
            tip_max * u[A.SIDE], tip_max * u[A.VERTICAL])


@njit(cache=True)
def perturbed(V0, phi, theta, a, b, e, sigma, R, limits):
    """The strike with execution errors ``e`` (5 standard normals) scaled by ``sigma`` (phi, V0, theta [deg, m/s],
    a, b [m of tip offset]) and kept legal: ``limits`` = (min speed, max speed, max elevation, max tip offset)."""
    V0 = min(max(V0 + sigma[1] * e[1], limits[0]), limits[1])
    theta = min(max(theta + sigma[2] * e[2], 0.0), limits[2])
    a = a + sigma[3] / R * e[3]
    b = b + sigma[4] / R * e[4]
    r2 = a * a + b * b
    if r2 > limits[3] * limits[3]:
        r = math.sqrt(r2)
        a, b = a * limits[3] / r, b * limits[3] / r
    return V0, phi + sigma[0] * e[0], theta, a, b


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
            rows[i] = math.nan
            continue
        push = phase == PhaseCode.PUSH_OUT_ALLOWED and u[A.PUSH_OUT] > 0.0
        declaration[i] = DeclarationCode.PUSH_OUT if push else DeclarationCode.SHOT
        V0, phi, theta, a, b = shot_of(u, v_min, v_max, tip_max, theta_max)
        if noisy:
            V0, phi, theta, a, b = perturbed(V0, phi, theta, a, b, errors[i], sigma, R, limits)
        rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4] = V0, phi, theta, a, b
        for bb in range(balls.shape[1]):
            for j in range(balls.shape[2]):
                start[i, bb, j] = balls[k, bb, j]
        if bih == BallInHandCode.NONE:
            continue
        kitchen = bih == BallInHandCode.KITCHEN
        y_hi = box[2] if kitchen else box[3]
        x = lin(u[A.PLACE_X], box[0], box[1])
        y = lin(u[A.PLACE_Y], R, y_hi)
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
