"""Instantaneous collision models: cue strike, ball–ball, ball–cushion.

All impulses are applied to the planar velocity and the full 3-D spin; the cue strike also returns
the vertical velocity (physics/kernels/flight.py bounces the ball on the slate or absorbs it).
"""

import math

from physics.kernels.ball_models import mathavan_ball_ball
from physics.kernels.cushion_models import cushion_impact, jaw_impact
from physics.kernels.jit import kernel
from physics.params import (
    P_BALL_BALL_MODEL, P_CUE_MASS, P_END_MASS, P_M, P_R, P_THROW_A, P_THROW_B, P_THROW_C, P_THROW_LIMIT,
)

THROW_COULOMB = 0.0  # index of "coulomb" in physics.params.THROW_LIMITS
BALL_BALL_MATHAVAN2014 = 1.0  # index of "mathavan2014" in physics.params.BALL_BALL_MODELS


@kernel
def cue_strike(V0, phi, theta, a, b, p):
    """Cue-ball velocity and spin after the stick hits it: (vx, vy, vz, wx, wy, wz), vz ≤ 0 into the slate.

    Instantaneous point model (Leckie & Greenspan 2005, eqs. 1–3; Alciatore TP A-30): the
    contact point Q = aR·ŝ + bR·ẑ − c·d̂ (c = R·√(1 − a² − b²)) receives an impulse J along the
    cue axis ê = (cosθ d̂, −sinθ), J = 2 m V0 / (1 + m/M + 5/(2R²)·|Q × ê|²) with
    |Q × ê|² = a² + b² cos²θ + c² sin²θ − 2 b c cosθ sinθ (a, b in metres here).
    Squirt (Alciatore TP A-31): the launch direction turns away from the side of english by
    atan(2.5·a·√(1−a²) / (1 + m/m_e + 2.5·(1 − a²))) with a the side offset as a fraction of R.
    """
    R = p[P_R]
    m = p[P_M]
    M = p[P_CUE_MASS]
    inertia = 0.4 * m * R * R
    am = a * R
    bm = b * R
    c = math.sqrt(max(R * R - am * am - bm * bm, 0.0))
    ct = math.cos(theta)
    st = math.sin(theta)
    lever2 = am * am + bm * bm * ct * ct + c * c * st * st - 2.0 * bm * c * ct * st
    J = 2.0 * m * V0 / (1.0 + m / M + 2.5 * lever2 / (R * R))
    dx = math.cos(phi)
    dy = math.sin(phi)
    # unit vectors: d = (dx, dy, 0) aim, s = (dy, -dx, 0) shooter's right, z up; e = (ct*d, -st)
    ex, ey, ez = ct * dx, ct * dy, -st
    qx = am * dy - c * dx
    qy = -am * dx - c * dy
    qz = bm
    # ω = (Q × J ê) / I
    k = J / inertia
    wx = k * (qy * ez - qz * ey)
    wy = k * (qz * ex - qx * ez)
    wz = k * (qx * ey - qy * ex)
    speed = J / m * ct
    vz = -J / m * st  # an elevated cue drives the ball into the slate; the event loop bounces it
    # squirt: right english (a > 0) sends the ball left of the aim line
    me = p[P_END_MASS]
    alpha = 0.0
    if me > 0.0 and a != 0.0:
        alpha = math.atan(2.5 * a * math.sqrt(max(1.0 - a * a, 0.0)) / (1.0 + m / me + 2.5 * (1.0 - a * a)))
    vx = speed * math.cos(phi + alpha)
    vy = speed * math.sin(phi + alpha)
    return vx, vy, vz, wx, wy, wz


@kernel
def ball_ball(x1, y1, vx1, vy1, wx1, wy1, wz1, x2, y2, vx2, vy2, wx2, wy2, wz2, e, p):
    """Post-collision (vx, vy, wx, wy, wz) of two equal balls in contact, then the vertical velocity (vz1, vz2)
    the friction impulse gives each: 12 values.

    Normal impulse with restitution e (normally e_b); tangential friction impulse at the contact point with
    µ(v) = a + b·exp(−c·v) of the slip speed v (Alciatore TP A-14, "throw"), capped at the
    impulse that stops the slip, m·|s_t|/7 (both balls' translation and rotation).
    The friction bound is Coulomb's µ·J_n = µ·m·(1 + e)/2·v_n, or, with throw_limit "pooltool",
    µ·m·e·v_n (pooltool 0.6.0's bound; the two agree for e = 1, TP A-14's case).
    With ball_ball_model "mathavan2014" the impact is integrated instead (physics/kernels/ball_models.py).

    The friction impulse has a vertical part when the contact slips vertically (topspin or draw): ±J_t·t_z/m on
    the two balls, up on one and down into the slate on the other (a follow shot lifts the striking ball, a draw
    shot the struck one). The event loops keep it only when it makes a ball leave the cloth
    (flight.leaves_cloth), otherwise the cloth absorbs it, as the flat model always did.
    """
    if p[P_BALL_BALL_MODEL] == BALL_BALL_MATHAVAN2014:
        return mathavan_ball_ball(x1, y1, vx1, vy1, wx1, wy1, wz1, x2, y2, vx2, vy2, wx2, wy2, wz2, e, p)
    R = p[P_R]
    m = p[P_M]
    inertia = 0.4 * m * R * R
    nx = x2 - x1
    ny = y2 - y1
    d = math.sqrt(nx * nx + ny * ny)
    nx /= d
    ny /= d
    vn = (vx1 - vx2) * nx + (vy1 - vy2) * ny  # approach speed (> 0 when closing)
    if vn <= 0.0:
        return vx1, vy1, wx1, wy1, wz1, vx2, vy2, wx2, wy2, wz2, 0.0, 0.0
    Jn = 0.5 * m * (1.0 + e) * vn
    # slip of ball 1's contact point (at +R n) relative to ball 2's (at −R n)
    sx = (vx1 - vx2) + R * (-(wz1 + wz2) * ny)
    sy = (vy1 - vy2) + R * ((wz1 + wz2) * nx)
    sz = R * ((wx1 + wx2) * ny - (wy1 + wy2) * nx)
    sn = sx * nx + sy * ny
    tx = sx - sn * nx
    ty = sy - sn * ny
    tz = sz
    slip_speed = math.sqrt(tx * tx + ty * ty + tz * tz)
    Jt = 0.0
    if slip_speed > 0.0:
        mu = p[P_THROW_A] + p[P_THROW_B] * math.exp(-p[P_THROW_C] * slip_speed)
        bound = Jn if p[P_THROW_LIMIT] == THROW_COULOMB else m * e * vn
        Jt = min(mu * bound, m * slip_speed / 7.0)
        tx /= slip_speed
        ty /= slip_speed
        tz /= slip_speed
    # impulse on ball 1: −Jn n − Jt t ; on ball 2 the opposite
    px = -Jn * nx - Jt * tx
    py = -Jn * ny - Jt * ty
    pz = -Jt * tz
    nvx1 = vx1 + px / m
    nvy1 = vy1 + py / m
    nvx2 = vx2 - px / m
    nvy2 = vy2 - py / m
    # torque: ball 1 contact at +R n, ball 2 at −R n with −P: both get (R n × P)/I
    k = R / inertia
    dwx = k * (ny * pz)
    dwy = k * (-nx * pz)
    dwz = k * (nx * py - ny * px)
    return (nvx1, nvy1, wx1 + dwx, wy1 + dwy, wz1 + dwz,
            nvx2, nvy2, wx2 + dwx, wy2 + dwy, wz2 + dwz, pz / m, -pz / m)


@kernel
def ball_cushion(vx, vy, wx, wy, wz, nx, ny, p):
    """Post-impact (vx, vy, wx, wy, wz) of a ball hitting a cushion or jaw whose inward normal is (nx, ny),
    by the model PhysicsParams.cushion_model selects (coded in p; see physics/kernels/cushion_models.py)."""
    return cushion_impact(vx, vy, wx, wy, wz, nx, ny, p)


@kernel
def ball_jaw(vx, vy, wx, wy, wz, nx, ny, jaw_radius, p):
    """Post-impact (vx, vy, wx, wy, wz) of a ball hitting a pocket jaw of radius ``jaw_radius`` with outward
    normal (nx, ny) at the contact: the same model as the cushions (``jaw_impact``)."""
    return jaw_impact(vx, vy, wx, wy, wz, nx, ny, jaw_radius, p)
