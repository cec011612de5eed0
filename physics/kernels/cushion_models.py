"""Ball–cushion impact models, one kernel each, chosen by the integer code in the params vector.

Every model sees the same contact: the cushion nose touches the ball at height h above the
cloth, at angle θ above the ball's centre (sin θ = (h − R)/R), along the unit vector N from
the centre to the contact point. Vertical velocity after the impact is absorbed by the cloth
(no airborne model), as in Han 2005. The models differ in how the impulse is found:

* ``han2005``: one impulse, P_N = (1 + e_c)·m·(v·N), Coulomb friction µ = f_c at the nose,
  limited by the impulse that stops the slip there (Han 2005).
* ``stronge``: Stronge's compliant collinear impact (*Impact Mechanics*, 2000, §3.3 and ch. 5):
  normal and tangential springs at the contact with a Coulomb slider, stiffness ratio set by
  the frequency ratio Ω = ω_t/ω_n; energetic restitution e_c by a stiffer unloading spring.
  Solved in closed form phase by phase (stick: harmonic; slip: friction follows the normal
  force); the slip can stop and reverse, so the rebound spin is not simply "stopped".
* ``mathavan2010``: Mathavan, Jackson & Parkin 2010 (Proc. IMechE C 224): the ball touches
  cushion (µ_w = f_c) and cloth (µ_s = u_s) during the impact; the equations of motion are
  integrated over the normal impulse at the cushion, compression until the normal velocity
  vanishes, restitution until the work of the normal force is e_c² times the compression work.
* ``impulse``: frictional-inelastic impulse at the ball's equator (a sphere against a vertical
  half-space, normal through the centre): the same Coulomb impulse as ``han2005`` with θ = 0.
"""

import math

from physics.kernels.jit import kernel
from physics.params import (
    P_CUSHION_H, P_CUSHION_MODEL, P_EC, P_FC, P_JAW_NORMAL, P_M, P_MATHAVAN_STEPS, P_OMEGA_RATIO, P_R, P_US,
)

CUSHION_HAN2005, CUSHION_STRONGE, CUSHION_MATHAVAN2010, CUSHION_IMPULSE = 0, 1, 2, 3
STRONGE_BETA_T = 3.5  # tangential mass-matrix coefficient of a solid sphere at its surface: 1 + mR²/I
STRONGE_MAX_PHASES = 32  # stick/slip phases per impact; a real impact has a handful
_HALF_PI = 0.5 * math.pi


@kernel
def _apply(vx, vy, wx, wy, wz, Nx, Ny, Nz, PN, Jt, tx, ty, tz, st, R, m):
    """Apply normal impulse PN along −N and tangential impulse Jt along the slip (tx, ty, tz)/st at R·N."""
    ptx = pty = ptz = 0.0
    if st > 0.0:
        ptx = Jt * tx / st
        pty = Jt * ty / st
        ptz = Jt * tz / st
    Px = -PN * Nx + ptx
    Py = -PN * Ny + pty
    Pz = -PN * Nz + ptz
    k = R / (0.4 * m * R * R)  # R / I
    nwx = wx + k * (Ny * Pz - Nz * Py)
    nwy = wy + k * (Nz * Px - Nx * Pz)
    nwz = wz + k * (Nx * Py - Ny * Px)
    return vx + Px / m, vy + Py / m, nwx, nwy, nwz


@kernel
def _contact(vx, vy, wx, wy, wz, nx, ny, sin_t, R):
    """Contact frame: N, approach speed c = v·N, the tangential slip (tx, ty, tz) of the contact point and its speed."""
    cos_t = math.sqrt(max(1.0 - sin_t * sin_t, 0.0))
    Nx = -nx * cos_t
    Ny = -ny * cos_t
    Nz = sin_t
    c = vx * Nx + vy * Ny
    sx = vx + R * (wy * Nz - wz * Ny)
    sy = vy + R * (wz * Nx - wx * Nz)
    sz = R * (wx * Ny - wy * Nx)
    sN = sx * Nx + sy * Ny + sz * Nz
    tx = sx - sN * Nx
    ty = sy - sN * Ny
    tz = sz - sN * Nz
    st = math.sqrt(tx * tx + ty * ty + tz * tz)
    return Nx, Ny, Nz, c, tx, ty, tz, st


@kernel
def coulomb_cushion(vx, vy, wx, wy, wz, nx, ny, sin_t, p):
    """Single-impulse frictional-inelastic impact at the contact at angle θ (Han 2005 when sin θ = (h − R)/R)."""
    R = p[P_R]
    m = p[P_M]
    Nx, Ny, Nz, c, tx, ty, tz, st = _contact(vx, vy, wx, wy, wz, nx, ny, sin_t, R)
    if c <= 0.0:
        return vx, vy, wx, wy, wz
    PN = (1.0 + p[P_EC]) * m * c
    Jt = -min(p[P_FC] * PN, 2.0 * m * st / 7.0)
    return _apply(vx, vy, wx, wy, wz, Nx, Ny, Nz, PN, Jt, tx, ty, tz, st, R, m)


# --------------------------------------------------------------------------- Stronge


@kernel
def _force(tau, e):
    """Normal force / peak force at dimensionless time τ = ω_n t (compression sin τ, restitution at ω_n/e)."""
    if tau <= _HALF_PI:
        return math.sin(tau)
    return math.cos((tau - _HALF_PI) / e)


@kernel
def _impulse(tau, e):
    """Normal impulse up to τ, in units of the compression impulse."""
    if tau <= _HALF_PI:
        return 1.0 - math.cos(tau)
    return 1.0 + e * math.sin((tau - _HALF_PI) / e)


@kernel
def _stick_gap_slope(tau, ta, sa, ua, omega, lim, e):
    """(gap, d gap/dτ) of a stick phase since ta; the gap |σ| − µη²f turns positive when the slider lets go."""
    d = omega * (tau - ta)
    cd = math.cos(d)
    sd = math.sin(d)
    sig = sa * cd + ua / omega * sd
    dsig = -sa * omega * sd + ua * cd
    if tau <= _HALF_PI:
        f = math.sin(tau)
        df = math.cos(tau)
    else:
        x = (tau - _HALF_PI) / e
        f = math.cos(x)
        df = -math.sin(x) / e
    if sig < 0.0:
        sig = -sig
        dsig = -dsig
    return sig - lim * f, dsig - lim * df


@kernel
def _stick_end(t0, t1, ta, sa, ua, omega, lim, e):
    """First τ in (t0, t1] where the spring force of a stick phase (since ta) exceeds friction; t1 + 1 when it
    does not. The gap is sampled at 6 points (sinusoids of frequency ≤ max(Ω, 1/e) over at most a quarter
    period of the normal force; the samples by rotation recurrences, no trigonometry), then the bracketed
    crossing is refined by Newton steps that fall back to bisection outside the bracket."""
    n = 6
    h = (t1 - t0) / n
    if t1 <= _HALF_PI:  # compression: f = sin τ
        b0, db = t0, h
    else:  # restitution: f = cos((τ − π/2)/e)
        b0, db = (t0 - _HALF_PI) / e, h / e
    a0, da = omega * (t0 - ta), omega * h
    ca, sa_, cda, sda = math.cos(a0), math.sin(a0), math.cos(da), math.sin(da)
    cb, sb, cdb, sdb = math.cos(b0), math.sin(b0), math.cos(db), math.sin(db)
    w = ua / omega
    compression = t1 <= _HALF_PI
    prev_t = t0
    prev_g = 0.0
    for k in range(1, n + 1):
        ca, sa_ = ca * cda - sa_ * sda, sa_ * cda + ca * sda
        cb, sb = cb * cdb - sb * sdb, sb * cdb + cb * sdb
        f = sb if compression else cb
        g = abs(sa * ca + w * sa_) - lim * f
        tk = t0 + k * h
        if g > 0.0:
            lo, hi = prev_t, tk
            tau = 0.5 * (lo + hi)
            if prev_g < 0.0:  # start from the secant through the bracketing samples
                tau = (lo * g - hi * prev_g) / (g - prev_g)
            for _ in range(50):
                gm, dg = _stick_gap_slope(tau, ta, sa, ua, omega, lim, e)
                if gm == 0.0:
                    return tau
                if gm > 0.0:
                    hi = tau
                else:
                    lo = tau
                if hi - lo <= 1e-12:
                    break
                step = tau - gm / dg if dg != 0.0 else lo - 1.0
                if not (lo < step < hi) or abs(step - tau) > 0.5 * (hi - lo):
                    step = 0.5 * (lo + hi)
                elif abs(step - tau) <= 1e-13:
                    return step
                tau = step
            return hi
        prev_t = tk
        prev_g = g
    return t1 + 1.0


@kernel
def _slip_end(t0, t1, ta, ua, s, r_mu, lim, e):
    """First τ in (t0, t1] where a slip phase (since ta, direction s) stops, in closed form; t1 + 1 when it does not.

    The slider speed is s·u − µη²f'(τ) with s·u = s·u_a − rµ(F(τ) − F(ta)): in compression
    C0 + (rµ − µη²)cos τ (decreasing, as rµ > µη² for Ω > 1), in restitution C0 + (µη²/e − rµe)·sin x
    with x = (τ − π/2)/e; C0 = s·u_a + rµF(ta) − rµ.
    """
    c0 = s * ua + r_mu * _impulse(ta, e) - r_mu
    if t1 <= _HALF_PI:
        c1 = r_mu - lim
        if c0 + c1 * math.cos(t1) > 0.0:
            return t1 + 1.0
        c = -c0 / c1
        tau = math.acos(min(max(c, -1.0), 1.0))
    else:
        d = lim / e - r_mu * e
        if c0 + d * math.sin((t1 - _HALF_PI) / e) > 0.0:
            return t1 + 1.0
        if d == 0.0:
            return t0
        c = -c0 / d
        tau = _HALF_PI + e * math.asin(min(max(c, -1.0), 1.0))
    return min(max(tau, t0), t1)


@kernel
def stronge_tangential(u0, mu, e, omega):
    """Final tangential slip of Stronge's compliant collinear impact, in units of the approach speed.

    u0 ≥ 0: initial slip speed / normal approach speed; µ: friction; e: restitution; Ω = ω_t/ω_n.
    Dimensionless time τ = ω_n t, normal force f(τ) (peak 1), tangential spring displacement σ in
    units of v_n/ω_n; σ's force is −σ/η² with η² = β_t/Ω² (so that sticking oscillates at Ω), the
    slider holds while |σ| ≤ µη²f. The result can be negative: the contact point springs back.
    """
    if u0 == 0.0:
        return 0.0
    r = STRONGE_BETA_T
    eta2 = r / (omega * omega)
    lim = mu * eta2
    r_mu = r * mu
    if e <= 1e-9:
        e = 1e-9
    t_end = _HALF_PI * (1.0 + e)
    if mu == 0.0:
        return u0
    # at τ = 0 the normal force is zero: the slider holds only if the spring can follow the slip
    stick = u0 <= lim
    ta = 0.0
    sa = 0.0
    ua = u0
    s = 1.0
    for _ in range(STRONGE_MAX_PHASES):
        # the event functions change form at the end of compression: search each part separately
        tb = -1.0
        for part in range(2):
            lo = ta if part == 0 else max(ta, _HALF_PI)
            hi = _HALF_PI if part == 0 else t_end
            if hi <= lo:
                continue
            if stick:
                tb = _stick_end(lo, hi, ta, sa, ua, omega, lim, e)
            else:
                tb = _slip_end(lo, hi, ta, ua, s, r_mu, lim, e)
            if tb <= hi:
                break
            tb = -1.0
        if tb < 0.0:
            tb = t_end
        # state at tb
        if stick:
            d = omega * (tb - ta)
            sig = sa * math.cos(d) + ua / omega * math.sin(d)
            u = -sa * omega * math.sin(d) + ua * math.cos(d)
            s = 1.0 if sig >= 0.0 else -1.0
        else:
            u = ua - r_mu * s * (_impulse(tb, e) - _impulse(ta, e))
            sig = lim * s * _force(tb, e)
        if tb >= t_end:
            return u
        stick = not stick
        ta, sa, ua = tb, sig, u
    return ua


@kernel
def stronge_cushion(vx, vy, wx, wy, wz, nx, ny, sin_t, p):
    """Stronge's compliant impact at the cushion nose: the normal impulse (1 + e_c)·m·c, the
    tangential impulse from ``stronge_tangential`` along the initial slip (a collinear impact keeps it on that line)."""
    R = p[P_R]
    m = p[P_M]
    Nx, Ny, Nz, c, tx, ty, tz, st = _contact(vx, vy, wx, wy, wz, nx, ny, sin_t, R)
    if c <= 0.0:
        return vx, vy, wx, wy, wz
    e = p[P_EC]
    PN = (1.0 + e) * m * c
    Jt = 0.0
    if st > 0.0:
        u_end = stronge_tangential(st / c, p[P_FC], e, p[P_OMEGA_RATIO])
        Jt = m * c * (u_end - st / c) / STRONGE_BETA_T
    return _apply(vx, vy, wx, wy, wz, Nx, Ny, Nz, PN, Jt, tx, ty, tz, st, R, m)


# --------------------------------------------------------------------------- Mathavan 2010


@kernel
def energetic_phase(compressing, approaching, dw, work_c, work_r, e):
    """One ΔP step of the energetic restitution criterion (Stronge): the normal work ``dw`` adds to the
    compression while ``compressing``, which ends once the contact stops ``approaching``; restitution ends
    when it has given back e² of the compression work. Returns (done, compressing, work_c, work_r)."""
    if compressing:
        work_c += dw
        if not approaching:
            return e == 0.0, False, work_c, work_r
        return False, True, work_c, work_r
    work_r -= dw
    return work_r >= e * e * work_c, False, work_c, work_r


@kernel
def mathavan_local(vx, vy, wx, wy, wz, sin_t, m, R, mu_w, mu_s, e, steps):
    """Mathavan et al. 2010 in the cushion frame (x along the cushion, y into it, z up): (vx, vy, wx, wy, wz).

    Integrates over the cushion's normal impulse P_I in steps ΔP = (1 + e)·m·v_y0 / steps:
    cushion slip (ẋ + R(ω_y sinθ − ω_z cosθ), −ẏ sinθ + Rω_x) at angle Φ, cloth slip
    (ẋ − Rω_y, ẏ + Rω_x) at angle Φ', cloth reaction ΔP_C = ΔP_I (sinθ + µ_w sinΦ cosθ) (the
    ball stays on the cloth), friction opposing each slip; the work of the cushion's normal force
    ΔW = ẏ cosθ ΔP_I decides the phases.
    """
    if vy <= 0.0:
        return vx, vy, wx, wy, wz
    cos_t = math.sqrt(max(1.0 - sin_t * sin_t, 0.0))
    dP = (1.0 + e) * m * vy / steps
    kv = dP / m
    kw = 2.5 * dP / (m * R)  # R·ΔP / I
    work_c = 0.0
    work_r = 0.0
    compressing = True
    for _ in range(20 * steps):
        six = vx + R * (wy * sin_t - wz * cos_t)
        siy = -vy * sin_t + R * wx
        si = math.sqrt(six * six + siy * siy)
        sci = 0.0
        ssi = 0.0
        if si > 0.0:
            sci = six / si
            ssi = siy / si
        scx = vx - R * wy
        scy = vy + R * wx
        sc = math.sqrt(scx * scx + scy * scy)
        scc = 0.0
        ssc = 0.0
        if sc > 0.0:
            scc = scx / sc
            ssc = scy / sc
        pc = sin_t + mu_w * ssi * cos_t  # cloth reaction per unit cushion impulse
        if pc < 0.0:
            pc = 0.0
        dw = vy * cos_t * dP
        vx += kv * (-mu_w * sci - mu_s * scc * pc)
        vy += kv * (-cos_t + mu_w * ssi * sin_t - mu_s * ssc * pc)
        wx += kw * (-mu_w * ssi - mu_s * ssc * pc)
        wy += kw * (-mu_w * sci * sin_t + mu_s * scc * pc)
        wz += kw * (mu_w * sci * cos_t)
        done, compressing, work_c, work_r = energetic_phase(compressing, vy > 0.0, dw, work_c, work_r, e)
        if done:
            break
    return vx, vy, wx, wy, wz


@kernel
def mathavan_cushion(vx, vy, wx, wy, wz, nx, ny, sin_t, p):
    """``mathavan_local`` in the frame of the cushion whose inward normal is (nx, ny)."""
    # local y = −n (into the cushion), x = (−ny, nx), z up: right-handed
    ex, ey = -ny, nx
    fx, fy = -nx, -ny
    lvx = vx * ex + vy * ey
    lvy = vx * fx + vy * fy
    lwx = wx * ex + wy * ey
    lwy = wx * fx + wy * fy
    if lvy <= 0.0:
        return vx, vy, wx, wy, wz
    lvx, lvy, lwx, lwy, wz = mathavan_local(lvx, lvy, lwx, lwy, wz, sin_t, p[P_M], p[P_R], p[P_FC], p[P_US], p[P_EC],
                                            int(p[P_MATHAVAN_STEPS]))
    return (lvx * ex + lvy * fx, lvx * ey + lvy * fy, lwx * ex + lwy * fx, lwx * ey + lwy * fy, wz)


# --------------------------------------------------------------------------- dispatch


@kernel
def cushion_impact(vx, vy, wx, wy, wz, nx, ny, p):
    """Post-impact (vx, vy, wx, wy, wz) of a ball hitting a cushion or jaw with inward normal (nx, ny),
    by the model coded in p[P_CUSHION_MODEL]."""
    model = int(p[P_CUSHION_MODEL])
    R = p[P_R]
    sin_t = (p[P_CUSHION_H] - R) / R
    if model == CUSHION_STRONGE:
        # the direction from the centre to the nose line when the event fires (the centre R from
        # the nose in plan view): tan θ = (h − R)/R, the contact pooltool 0.6.0's compliant model uses
        tan_t = (p[P_CUSHION_H] - R) / R
        return stronge_cushion(vx, vy, wx, wy, wz, nx, ny, tan_t / math.sqrt(1.0 + tan_t * tan_t), p)
    if model == CUSHION_MATHAVAN2010:
        return mathavan_cushion(vx, vy, wx, wy, wz, nx, ny, sin_t, p)
    if model == CUSHION_IMPULSE:
        return coulomb_cushion(vx, vy, wx, wy, wz, nx, ny, 0.0, p)
    return coulomb_cushion(vx, vy, wx, wy, wz, nx, ny, sin_t, p)


@kernel
def jaw_impact(vx, vy, wx, wy, wz, nx, ny, jaw_radius, p):
    """Post-impact state of a ball hitting a pocket jaw (a circle of ``jaw_radius`` at the nose height) with
    outward normal (nx, ny) at the contact: the cushion model, with the contact towards the jaw circle's
    centre when "stronge" runs with jaw_normal "pooltool"."""
    if int(p[P_CUSHION_MODEL]) == CUSHION_STRONGE and p[P_JAW_NORMAL] == 1.0:
        R = p[P_R]
        tan_t = (p[P_CUSHION_H] - R) / (R + jaw_radius)
        return stronge_cushion(vx, vy, wx, wy, wz, nx, ny, tan_t / math.sqrt(1.0 + tan_t * tan_t), p)
    return cushion_impact(vx, vy, wx, wy, wz, nx, ny, p)
