"""Ball–ball impact by Mathavan, Jackson & Parkin 2014 ("Numerical simulations of the frictional
collisions of solid balls on a rough surface", Sports Engineering 17): point contacts between the
balls (friction µ_b) and between each ball and the cloth (friction µ_s = u_s), the equations of
motion integrated over the normal impulse at the balls' contact.

Frame: x̂ along the line of centres (ball 1 → ball 2), ŷ = ẑ × x̂, ẑ up. The contact slip of ball 1
against ball 2 is (v1y − v2y + R(ω1z + ω2z), −R(ω1y + ω2y)) in (ŷ, ẑ); friction −µ_b ΔP along it on
ball 1, the opposite on ball 2 (the same torque on both). Its vertical part presses one ball on
the cloth (the other is lifted, and gets no cloth reaction): ΔN = ±µ_b ΔP ŝ_z, cloth friction
−µ_s ΔN along each ball's cloth slip (vx − Rω_y, vy + Rω_x). Compression until the approach speed
vanishes, restitution until the normal force has done −e² times the compression work.
The lifted ball's vertical velocity (the integral of its unopposed vertical friction) is returned too; it does
not enter the slip (it stays small beside it), and the pressed ball gets none (the cloth takes it).
"""

import math

from physics.kernels.cushion_models import energetic_phase
from physics.kernels.jit import kernel
from physics.params import P_BALL_BALL_STEPS, P_M, P_R, P_THROW_A, P_THROW_B, P_THROW_C, P_US


@kernel
def mathavan_ball_ball(x1, y1, vx1, vy1, wx1, wy1, wz1, x2, y2, vx2, vy2, wx2, wy2, wz2, e, p):
    """Post-collision (vx, vy, wx, wy, wz) of both balls by Mathavan et al. 2014, restitution e, then the
    vertical velocity (vz1, vz2) of the lifted ball (≥ 0; 0 for the ball pressed on the cloth).

    µ_b is Alciatore's µ(v) = a + b·exp(−c·v) (TP A-14) of the initial contact slip speed; the normal
    impulse is stepped in ΔP = m·v_n/(2·ball_ball_steps), so the compression takes ball_ball_steps steps.
    """
    R = p[P_R]
    m = p[P_M]
    mu_s = p[P_US]
    nx = x2 - x1
    ny = y2 - y1
    d = math.sqrt(nx * nx + ny * ny)
    nx /= d
    ny /= d
    tx, ty = -ny, nx
    # to the collision frame (x along the centres, y = z × x)
    u1x = vx1 * nx + vy1 * ny
    u1y = vx1 * tx + vy1 * ty
    u2x = vx2 * nx + vy2 * ny
    u2y = vx2 * tx + vy2 * ty
    a1x = wx1 * nx + wy1 * ny
    a1y = wx1 * tx + wy1 * ty
    a2x = wx2 * nx + wy2 * ny
    a2y = wx2 * tx + wy2 * ty
    a1z = wz1
    a2z = wz2
    vn = u1x - u2x
    if vn <= 0.0:
        return vx1, vy1, wx1, wy1, wz1, vx2, vy2, wx2, wy2, wz2, 0.0, 0.0
    sy = u1y - u2y + R * (a1z + a2z)
    sz = -R * (a1y + a2y)
    mu_b = p[P_THROW_A] + p[P_THROW_B] * math.exp(-p[P_THROW_C] * math.sqrt(sy * sy + sz * sz))
    steps = int(p[P_BALL_BALL_STEPS])
    dP = 0.5 * m * vn / steps
    kv = dP / m
    kw = 2.5 * dP / (m * R)  # R·ΔP / I
    work_c = 0.0
    work_r = 0.0
    lift1 = 0.0
    lift2 = 0.0
    compressing = True
    for _ in range(40 * steps):
        sy = u1y - u2y + R * (a1z + a2z)
        sz = -R * (a1y + a2y)
        s = math.sqrt(sy * sy + sz * sz)
        fy = 0.0
        fz = 0.0
        if s > 0.0:
            fy = mu_b * sy / s
            fz = mu_b * sz / s
        # cloth reactions per unit ΔP: the ball that friction pushes down
        n1 = fz if fz > 0.0 else 0.0
        n2 = -fz if fz < 0.0 else 0.0
        c1x = u1x - R * a1y
        c1y = u1y + R * a1x
        c1 = math.sqrt(c1x * c1x + c1y * c1y)
        g1x = g1y = 0.0
        if c1 > 0.0 and n1 > 0.0:
            g1x = mu_s * n1 * c1x / c1
            g1y = mu_s * n1 * c1y / c1
        c2x = u2x - R * a2y
        c2y = u2y + R * a2x
        c2 = math.sqrt(c2x * c2x + c2y * c2y)
        g2x = g2y = 0.0
        if c2 > 0.0 and n2 > 0.0:
            g2x = mu_s * n2 * c2x / c2
            g2y = mu_s * n2 * c2y / c2
        dw = (u1x - u2x) * dP
        # vertical friction −ΔP f_z on ball 1, +ΔP f_z on ball 2: it lifts a ball or cancels its lift, and the cloth
        # stops a ball pushed down (its vertical speed never goes below 0), so a slip chattering about zero lifts
        # neither ball
        lift1 = max(lift1 - kv * fz, 0.0)
        lift2 = max(lift2 + kv * fz, 0.0)
        # ball 1: normal −ΔP x̂, friction −ΔP (0, fy, fz) at +R x̂, cloth −ΔP (g1x, g1y) at −R ẑ
        u1x += kv * (-1.0 - g1x)
        u1y += kv * (-fy - g1y)
        u2x += kv * (1.0 - g2x)
        u2y += kv * (fy - g2y)
        # R x̂ × (0, −fy, −fz) = R (0, fz, −fy): the same on ball 2 (−R x̂ × (0, fy, fz));
        # −R ẑ × (−gx, −gy, 0) = R (−gy, gx, 0)
        a1x += kw * (-g1y)
        a1y += kw * (fz + g1x)
        a1z += kw * (-fy)
        a2x += kw * (-g2y)
        a2y += kw * (fz + g2x)
        a2z += kw * (-fy)
        done, compressing, work_c, work_r = energetic_phase(compressing, u1x - u2x > 0.0, dw, work_c, work_r, e)
        if done:
            break
    return (u1x * nx + u1y * tx, u1x * ny + u1y * ty, a1x * nx + a1y * tx, a1x * ny + a1y * ty, a1z,
            u2x * nx + u2y * tx, u2x * ny + u2y * ty, a2x * nx + a2y * tx, a2x * ny + a2y * ty, a2z, lift1, lift2)
