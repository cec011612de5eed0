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


# The rubber as a solid, independent of the kernels: behind each cushion line over its length (RUBBER_DEPTH deep), up
# to the nose height, its nose edge the line at that height; each jaw a post of its radius up to the nose height.
ZN = P.cushion_height_factor * 2 * P.R  # the nose height (PhysicsParams.cushion_height)
RUBBER_DEPTH = 0.05  # [m] how far behind a cushion line the oracle's solid reaches


def jaw_gap(x: float, y: float, zc: float, jx: float, jy: float, rj: float) -> float:
    """3-D distance from a centre to the jaw post (a cylinder of radius rj up to the nose) minus R."""
    rho = math.hypot(x - jx, y - jy)
    w = zc - ZN
    if rho <= rj:
        return max(w, 0.0) - P.R
    if w <= 0:
        return rho - rj - P.R
    return math.hypot(rho - rj, w) - P.R


def segment_gap(x: float, y: float, zc: float, seg: np.ndarray) -> float:
    """3-D distance from a centre to the rubber behind cushion segment ``seg`` (over its length) minus R."""
    x1, y1, x2, y2, nx, ny = seg
    ex, ey = x2 - x1, y2 - y1
    s = ((x - x1) * ex + (y - y1) * ey) / (ex * ex + ey * ey)
    if not 0.0 <= s <= 1.0:
        return math.inf  # past its ends the jaws are the rubber
    d = (x - x1) * nx + (y - y1) * ny
    if d < -RUBBER_DEPTH:
        return math.inf
    w = zc - ZN
    if d <= 0:
        return max(w, 0.0) - P.R
    if w <= 0:
        return d - P.R
    return math.hypot(d, w) - P.R


def rubber_gap(x: float, y: float, zc: float) -> float:
    """3-D distance from a centre to the nearest cushion rubber or jaw post of the default table, minus R."""
    gaps = [segment_gap(x, y, zc, seg) for seg in TABLE.segments]
    gaps += [jaw_gap(x, y, zc, *jaw) for jaw in TABLE.jaws]
    return min(gaps)


def airborne_stretches(r: physics.SimResult) -> list[tuple]:
    """Every airborne stretch of a shot's log: (ball, t0, t1, event0, event1, x, y, zc, vx, vy, vz) at t0."""
    ev = r.events
    assert ev.air is not None
    last: dict[int, tuple] = {}
    out = []
    for k in range(len(ev)):
        for ball, state, air in ((ev.ball_a[k], ev.state_a[k], ev.air_a[k]), (ev.ball_b[k], ev.state_b[k], ev.air_b[k])):
            if ball < 0:
                continue
            if ball in last:
                t0, j, s0, a0 = last.pop(ball)
                out.append((ball, t0, ev.time[k], j, k, s0[0], s0[1], P.R + a0[0], s0[2], s0[3], a0[1]))
            if state[7] == physics.Motion.AIRBORNE:
                last[ball] = (ev.time[k], k, state.copy(), air.copy())
    assert not last, "a ball is still in the air at the end of the log"
    return out
