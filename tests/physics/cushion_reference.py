"""Independent numpy implementations of the impact models' papers, for the tests.

They integrate each paper's equations directly (time stepping of the contact springs, impulse
stepping with vector forces and torques, r × F) instead of the closed forms and expanded scalar
loops of physics/kernels/cushion_models.py and ball_models.py, so they share no code with them.
"""

from __future__ import annotations

import math

import numpy as np


def stronge_tangential_ref(u0: float, mu: float, e: float, omega: float, beta_t: float = 3.5,
                           steps: int = 50_000) -> float:
    """Stronge's compliant collinear impact by explicit time stepping of the contact springs.

    Unit mass, unit approach speed, k_n = 1 (ω_n = 1): the normal spring loads at stiffness 1 and
    unloads at 1/e² towards a permanent set (energetic restitution e); a tangential spring
    k_t = k_n/η², η² = β_t/Ω², in series with a Coulomb slider (|F_t| ≤ µF_n, return mapping).
    Returns the final tangential slip speed of the contact point.
    """
    k_t = omega * omega / beta_t
    dt = 0.5 * math.pi * (1.0 + e) / steps
    delta = delta_max = 0.0
    v_n, v_t, s = -1.0, u0, 0.0
    for _ in range(4 * steps):
        if v_n < 0.0:
            F_n = delta
        else:
            F_n = max(delta - delta_max * (1.0 - e * e), 0.0) / (e * e)
            if F_n <= 0.0:
                break
        s_trial = s + v_t * dt
        s = s_trial if k_t * abs(s_trial) <= mu * F_n else math.copysign(mu * F_n / k_t, s_trial)
        v_t += beta_t * (-k_t * s) * dt
        v_n += F_n * dt
        delta -= v_n * dt
        delta_max = max(delta_max, delta)
    return v_t


def contact_normal(n_in: np.ndarray, sin_t: float) -> np.ndarray:
    """Unit vector from the ball's centre to the cushion contact (cushion inward normal n_in, 2-D)."""
    cos_t = math.sqrt(1.0 - sin_t * sin_t)
    return np.array([-n_in[0] * cos_t, -n_in[1] * cos_t, sin_t])


def apply_contact_impulse(v: np.ndarray, w: np.ndarray, P: np.ndarray, r: np.ndarray, m: float, R: float):
    """Ball velocity and spin after impulse P at r (from the centre); vertical velocity dropped."""
    inertia = 0.4 * m * R * R
    v2 = v + P / m
    v2[2] = 0.0
    return v2, w + np.cross(r, P) / inertia


def stronge_cushion_ref(v, w, n_in, sin_t, m, R, mu, e, omega):
    """Stronge's impact at the cushion contact: normal impulse (1 + e)m·c, tangential from the springs."""
    v = np.array([v[0], v[1], 0.0])
    w = np.asarray(w, float)
    N = contact_normal(n_in, sin_t)
    slip = v + np.cross(w, R * N)
    c = slip @ N
    t = slip - c * N
    st = np.linalg.norm(t)
    P = -(1.0 + e) * m * c * N
    if st > 0.0:
        u_end = stronge_tangential_ref(st / c, mu, e, omega)
        P = P + m * c * (u_end - st / c) / 3.5 * t / st
    return apply_contact_impulse(v, w, P, R * N, m, R)


def coulomb_cushion_ref(v, w, n_in, sin_t, m, R, mu, e):
    """One frictional-inelastic impulse at the contact: P_N = (1 + e)m·c, |P_t| = min(µP_N, stick impulse)."""
    v = np.array([v[0], v[1], 0.0])
    w = np.asarray(w, float)
    N = contact_normal(n_in, sin_t)
    slip = v + np.cross(w, R * N)
    c = slip @ N
    t = slip - c * N
    st = np.linalg.norm(t)
    P = -(1.0 + e) * m * c * N
    if st > 0.0:
        # the impulse that stops the slip at a point of a free sphere: effective mass m/(1 + mR²/I) = 2m/7
        P = P - min(mu * (1.0 + e) * m * c, 2.0 * m * st / 7.0) * t / st
    return apply_contact_impulse(v, w, P, R * N, m, R)


def mathavan_cushion_ref(v, w, n_in, sin_t, m, R, mu_w, mu_s, e, steps):
    """Mathavan, Jackson & Parkin 2010 by impulse stepping with vector forces and torques.

    Two contacts: the cushion at R·N (normal impulse ΔP along −N, friction µ_w ΔP against its slip in
    the tangent plane) and the cloth at −R·ẑ (normal impulse keeping the ball on the cloth, friction
    µ_s against the cloth slip). Compression ends when the approach velocity (along −n_in) vanishes;
    restitution when the cushion's normal force has done −e² times the compression work.
    """
    v = np.array([v[0], v[1], 0.0])
    w = np.asarray(w, float).copy()
    N = contact_normal(n_in, sin_t)
    into = np.array([-n_in[0], -n_in[1], 0.0])
    z = np.array([0.0, 0.0, 1.0])
    rI, rC = R * N, -R * z
    inertia = 0.4 * m * R * R
    dP = (1.0 + e) * m * (v @ into) / steps
    work_c = work_r = 0.0
    compressing = True
    for _ in range(20 * steps):
        sI = v + np.cross(w, rI)
        sI = sI - (sI @ N) * N
        sC = v + np.cross(w, rC)
        sC[2] = 0.0
        fI = -mu_w * dP * sI / np.linalg.norm(sI) if np.linalg.norm(sI) > 0 else np.zeros(3)
        FI = -dP * N + fI
        PC = max(-FI[2], 0.0)  # the cloth holds the ball down against the cushion's vertical push
        fC = -mu_s * PC * sC / np.linalg.norm(sC) if np.linalg.norm(sC) > 0 else np.zeros(3)
        vn_before = v @ into
        v = v + (FI + fC) / m
        v[2] = 0.0
        w = w + (np.cross(rI, FI) + np.cross(rC, fC)) / inertia
        dW = vn_before * (N @ into) * dP  # normal velocity of the ball at the cushion contact × impulse
        if compressing:
            work_c += dW
            if v @ into <= 0.0:
                compressing = False
                if e == 0.0:
                    break
        else:
            work_r -= dW
            if work_r >= e * e * work_c:
                break
    return v, w


def mathavan_ball_ball_ref(r1, v1, w1, r2, v2, w2, m, R, mu_b, mu_s, e, steps):
    """Mathavan, Jackson & Parkin 2014 by impulse stepping with vector forces and torques (3-D, table frame).

    Contacts: the balls at r1 + R·n (n from ball 1 to ball 2), normal impulse ΔP along −n on ball 1,
    friction µ_b ΔP against the contact slip; each ball on the cloth at −R·ẑ with the normal impulse
    that keeps it there (none for a ball the friction lifts) and friction µ_s against the cloth slip.
    ΔP = m·v_n/(2·steps); compression until the approach speed vanishes, restitution to −e² of its work.
    """
    z = np.array([0.0, 0.0, 1.0])
    n = np.array([r2[0] - r1[0], r2[1] - r1[1], 0.0])
    n /= np.linalg.norm(n)
    v = [np.array([v1[0], v1[1], 0.0]), np.array([v2[0], v2[1], 0.0])]
    w = [np.asarray(w1, float).copy(), np.asarray(w2, float).copy()]
    inertia = 0.4 * m * R * R
    vn = (v[0] - v[1]) @ n
    dP = 0.5 * m * vn / steps
    work_c = work_r = 0.0
    compressing = True
    arms = (R * n, -R * n)
    for _ in range(40 * steps):
        slip = (v[0] + np.cross(w[0], arms[0])) - (v[1] + np.cross(w[1], arms[1]))
        slip = slip - (slip @ n) * n
        fric = -mu_b * dP * slip / np.linalg.norm(slip) if np.linalg.norm(slip) > 0 else np.zeros(3)
        forces = (-dP * n + fric, dP * n - fric)
        dW = ((v[0] - v[1]) @ n) * dP
        for i in range(2):
            N = max(-forces[i][2], 0.0)
            cs = v[i] + np.cross(w[i], -R * z)
            cs[2] = 0.0
            cloth = -mu_s * N * cs / np.linalg.norm(cs) if np.linalg.norm(cs) > 0 and N > 0 else np.zeros(3)
            v[i] = v[i] + (forces[i] + cloth) / m
            v[i][2] = 0.0
            w[i] = w[i] + (np.cross(arms[i], forces[i]) + np.cross(-R * z, cloth)) / inertia
        if compressing:
            work_c += dW
            if (v[0] - v[1]) @ n <= 0.0:
                compressing = False
                if e == 0.0:
                    break
        else:
            work_r -= dW
            if work_r >= e * e * work_c:
                break
    return v[0][:2], w[0], v[1][:2], w[1]
