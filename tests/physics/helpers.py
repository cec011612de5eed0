"""Shared builders and oracles for physics tests."""

import math

import numpy as np

import physics

P = physics.DEFAULT_PARAMS
TABLE = physics.DEFAULT_TABLE


def moving_ball_state(x, y, vx, vy, spin=(0.0, 0.0, 0.0), rolling=False, others=None):
    """Ball 0 at (x, y) moving with (vx, vy); rolling=True sets the rolling spin."""
    state = physics.place_balls({0: (x, y), **(others or {})})
    state.vel[0] = (vx, vy)
    if rolling:
        state.spin[0] = (-vy / P.R, vx / P.R, spin[2])
    else:
        state.spin[0] = spin
    state.motion[0] = int(physics.Motion.SLIDING)
    return state


def kinetic_energy(vel, spin, params=P):
    """Total translational + rotational kinetic energy [J]."""
    inertia = 0.4 * params.m * params.R**2
    return 0.5 * params.m * float(np.sum(vel**2)) + 0.5 * inertia * float(np.sum(spin**2))


def sampled_first_contact(gap, x, y, zc, vx, vy, vz, T, n=4000, g=P.g):
    """First t in [0, T] at which ``gap`` of a free flight reaches 0, by dense sampling then bisection (inf if none).

    The brute-force oracle the closed-form air contact times are checked against."""
    at = lambda t: gap(x + vx * t, y + vy * t, zc + vz * t - 0.5 * g * t * t)  # noqa: E731
    prev = 0.0
    for t in np.linspace(0.0, T, n)[1:]:
        if at(t) <= 0.0:
            lo, hi = prev, t
            for _ in range(80):
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if at(mid) <= 0.0 else (mid, hi)
            return hi
        prev = t
    return math.inf
