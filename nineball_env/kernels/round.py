"""Actions to shots and execution noise, in numba.

``lin``, ``shot_of``, ``encode_action`` and ``perturbed`` are the action mapping both ways and the noise model
themselves (``actions`` and ``noise.perturb`` call them, and so do the default opponent and the compiled turn,
``kernels.turn``), so every path decodes, encodes and perturbs with the same arithmetic.
"""

from __future__ import annotations

import math

from numba import njit

from nineball_env.kernels.codes import A


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
