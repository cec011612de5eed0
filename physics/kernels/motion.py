"""Closed-form ball motion between events (Leckie & Greenspan 2005, Alciatore TP 4-1…4-3).

Sliding: the contact-point slip u = v + ω × (−R ẑ) keeps its direction û while friction
µ_s·m·g acts against it, so v(t) = v₀ − µ_s g t û, ω_xy(t) = ω₀ − (5µ_s g / 2R) t (ẑ × û),
and |u| falls at (7/2)µ_s g: sliding ends at τ = 2|u₀| / (7 µ_s g).
Rolling: v(t) = v₀ − µ_r g t v̂, ω_xy = ẑ × v / R, stops at τ = |v₀| / (µ_r g).
Spinning (any state): |ω_z| falls at 5 µ_sp g / (2R) until it is zero.
Positions are quadratic in t in every state: r(t) = r₀ + v₀ t + ½ a t², the form the event
equations need.

The kernels take a 2-D length as math.sqrt(x * x + y * y), not math.hypot(x, y) (libm's, which scales against
overflow and rounds more exactly): about a tenth of a break's time less (issue 25), at a cost of an ulp or so. No
speed, slip or distance of a ball comes near where the squares would overflow, and below 1e-154 (where they
underflow to 0) every such value is far under V_EPS and the other thresholds.
"""

import math

import numpy as np

from physics.kernels.codes import POCKETED, ROLLING, SLIDING, SPINNING, STATIONARY
from physics.kernels.jit import kernel
from physics.params import P_G, P_R, P_UR, P_US, P_USP

INF = np.inf
# Below these a speed counts as zero when a ball's motion state is classified.
V_EPS = 1e-9  # [m/s]
W_EPS = 1e-9  # [rad/s]


@kernel
def slip(vx, vy, wx, wy, R):
    """Velocity of the cloth contact point (u = v + ω × (−R ẑ)) [m/s]."""
    return vx - R * wy, vy + R * wx


@kernel
def classify(vx, vy, wx, wy, wz, R):
    """Motion code for a ball on the cloth with this velocity and spin."""
    ux, uy = slip(vx, vy, wx, wy, R)
    if math.sqrt(ux * ux + uy * uy) > V_EPS:
        return SLIDING
    if math.sqrt(vx * vx + vy * vy) > V_EPS:
        return ROLLING
    if abs(wz) > W_EPS:
        return SPINNING
    return STATIONARY


@kernel
def spin_decel(p):
    """Angular deceleration of ω_z by spinning friction [rad/s²]."""
    return 5.0 * p[P_USP] * p[P_G] / (2.0 * p[P_R])


@kernel
def transition_time(state, vx, vy, wx, wy, wz, p):
    """Time until the ball's motion state changes by itself (end of sliding, rolling or spinning) [s]."""
    if state == SLIDING:
        ux, uy = slip(vx, vy, wx, wy, p[P_R])
        return 2.0 * math.sqrt(ux * ux + uy * uy) / (7.0 * p[P_US] * p[P_G])
    if state == ROLLING:
        return math.sqrt(vx * vx + vy * vy) / (p[P_UR] * p[P_G])
    if state == SPINNING:
        return abs(wz) / spin_decel(p)
    return INF


@kernel
def acceleration(state, vx, vy, wx, wy, p):
    """Constant planar acceleration of the ball centre in this state [m/s²]."""
    if state == SLIDING:
        ux, uy = slip(vx, vy, wx, wy, p[P_R])
        un = math.sqrt(ux * ux + uy * uy)
        if un == 0.0:
            return 0.0, 0.0
        k = -p[P_US] * p[P_G] / un
        return k * ux, k * uy
    if state == ROLLING:
        vn = math.sqrt(vx * vx + vy * vy)
        if vn == 0.0:
            return 0.0, 0.0
        k = -p[P_UR] * p[P_G] / vn
        return k * vx, k * vy
    return 0.0, 0.0


@kernel
def _decay_wz(wz, dt, p):
    dw = spin_decel(p) * dt
    if wz > 0.0:
        return max(wz - dw, 0.0)
    return min(wz + dw, 0.0)


@kernel(inline="llvm")  # per moving ball per event (steps.advance_all): the call, its array passed as a struct, cost
def evolve(state, x, y, vx, vy, wx, wy, wz, dt, p):
    """State after ``dt`` seconds in the same motion state (dt ≤ the transition time)."""
    if state == STATIONARY or state >= POCKETED or dt == 0.0:
        return x, y, vx, vy, wx, wy, wz
    if state == SPINNING:
        return x, y, vx, vy, wx, wy, _decay_wz(wz, dt, p)
    R = p[P_R]
    ax, ay = acceleration(state, vx, vy, wx, wy, p)
    nx = x + vx * dt + 0.5 * ax * dt * dt
    ny = y + vy * dt + 0.5 * ay * dt * dt
    nvx = vx + ax * dt
    nvy = vy + ay * dt
    if state == SLIDING:
        # dω/dt = (5 µ_s g / 2R)(ẑ × û) = −(5 / 2R)(ẑ × a) with a = −µ_s g û
        k = 2.5 / R
        nwx = wx + k * ay * dt
        nwy = wy - k * ax * dt
    else:  # rolling: ω_xy locked to v
        nwx = -nvy / R
        nwy = nvx / R
    return nx, ny, nvx, nvy, nwx, nwy, _decay_wz(wz, dt, p)


@kernel(entry=True)
def evolve_ball(s, dt, p):
    """Position after ``dt`` of a logged ball state row s = (x, y, vx, vy, wx, wy, wz, motion), across transitions."""
    state = int(s[7])
    x, y, vx, vy, wx, wy, wz = s[0], s[1], s[2], s[3], s[4], s[5], s[6]
    remaining = dt
    if state == 5:  # AIRBORNE: straight in the plane until its next logged event
        return x + vx * dt, y + vy * dt
    for _ in range(4):
        if state == STATIONARY or state >= POCKETED or remaining <= 0.0:
            break
        tau = transition_time(state, vx, vy, wx, wy, wz, p)
        step = min(tau, remaining)
        x, y, vx, vy, wx, wy, wz = evolve(state, x, y, vx, vy, wx, wy, wz, step, p)
        remaining -= step
        if step < tau:
            break
        state, vx, vy, wx, wy, wz = end_transition(state, vx, vy, wx, wy, wz, p)
    return x, y


@kernel
def end_transition(state, vx, vy, wx, wy, wz, p):
    """Exact state at the end of a sliding, rolling or spinning phase: (new state, vx, vy, wx, wy, wz)."""
    R = p[P_R]
    if state == SLIDING:
        # slip is zero: lock the spin to the velocity (rolling condition)
        wx = -vy / R
        wy = vx / R
        if math.sqrt(vx * vx + vy * vy) > V_EPS:
            return ROLLING, vx, vy, wx, wy, wz
        vx = vy = wx = wy = 0.0
    elif state == ROLLING:
        vx = vy = wx = wy = 0.0
    elif state == SPINNING:
        return STATIONARY, 0.0, 0.0, 0.0, 0.0, 0.0
    if abs(wz) > W_EPS:
        return SPINNING, vx, vy, wx, wy, wz
    return STATIONARY, vx, vy, wx, wy, 0.0
