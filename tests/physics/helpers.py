"""Shared builders for physics tests."""

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
