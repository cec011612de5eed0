"""Robust first-root search for polynomials of degree ≤ 4 on a time window.

Event times solve f(t) = 0 where f is a squared distance minus a squared contact distance
(degree 4 for ball–ball, jaw and pocket; degree 2 for a straight cushion). We want the first
time in [0, T] at which f goes from positive to non-positive. Instead of the closed-form
quartic formula (cancellation-prone near double roots), the window is split at the real
critical points of f (roots of the cubic f', found the same way from its quadratic f''),
so that f is monotone on each piece; the first piece where f changes sign from + to ≤ 0 is
solved by bracketed Newton–bisection. This cannot miss a crossing between evaluation points
and cannot report a crossing that is not there. Tolerances: a ball already in contact
(f(0) ≤ 0) collides at t = 0 only if it is approaching (first non-zero derivative < 0); one
that is separating from within ``band`` of contact (−band ≤ f(0) ≤ 0) counts as touching
(f(0) is taken as 0), so that a contact which begins inside the rounding band — a ball that has
just bounced, f(0) = −1e-17 — is still found when its path turns back (a sliding ball driven
back into the cushion by its spin); roots are located to
~1e-14·(1 + t) seconds; grazing contacts whose minimum of f is within rounding of 0 may be
reported or missed (overlap then stays below ~1e-12 m).
"""

import math

import numpy as np
from numba import njit

INF = np.inf
_MAX_ITER = 80
_ROOT_TOL = 1e-14  # event times: to rounding
_CRIT_TOL = 1e-10  # critical points only split the window into monotone pieces; f is evaluated exactly there


@njit(cache=True)
def poly4(c4, c3, c2, c1, c0, t):
    """Horner evaluation of c4·t⁴ + c3·t³ + c2·t² + c1·t + c0."""
    return (((c4 * t + c3) * t + c2) * t + c1) * t + c0


@njit(cache=True)
def _bracket_root(c4, c3, c2, c1, c0, lo, hi, flo, tol):
    """Root of the quartic in [lo, hi], given a sign change and monotonicity there (Newton + bisection).

    Stops when the bracket or the Newton step falls below ``tol`` relative.
    """
    t = 0.5 * (lo + hi)
    for _ in range(_MAX_ITER):
        ft = poly4(c4, c3, c2, c1, c0, t)
        if ft == 0.0:
            return t
        if (ft > 0.0) == (flo > 0.0):
            lo = t
            flo = ft
        else:
            hi = t
        dft = ((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1
        tn = t - ft / dft if dft != 0.0 else 0.5 * (lo + hi)
        if not (lo < tn < hi):
            tn = 0.5 * (lo + hi)
        if hi - lo <= tol * (1.0 + abs(hi)) or abs(tn - t) <= 0.1 * tol * (1.0 + abs(t)):
            return tn
        t = tn
    return t


@njit(cache=True)
def _quadratic_roots_in(a, b, c, T):
    """Roots of a·t² + b·t + c in (0, T), sorted: (count, r0, r1)."""
    n = 0
    r0 = INF
    r1 = INF
    if a == 0.0:
        if b != 0.0:
            r = -c / b
            if 0.0 < r < T:
                return 1, r, INF
        return 0, INF, INF
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return 0, INF, INF
    sq = math.sqrt(disc)
    q = -0.5 * (b + sq) if b >= 0.0 else -0.5 * (b - sq)
    x1 = q / a
    x2 = c / q if q != 0.0 else x1
    if x1 > x2:
        x1, x2 = x2, x1
    if 0.0 < x1 < T:
        r0 = x1
        n = 1
    if 0.0 < x2 < T and x2 != x1:
        if n == 0:
            r0 = x2
        else:
            r1 = x2
        n += 1
    return n, r0, r1


@njit(cache=True)
def _cubic_roots_in(a3, a2, a1, a0, T):
    """Roots of a3·t³ + a2·t² + a1·t + a0 in (0, T), sorted: (count, r0, r1, r2)."""
    if a3 == 0.0:
        n, r0, r1 = _quadratic_roots_in(a2, a1, a0, T)
        return n, r0, r1, INF
    nc, k0, k1 = _quadratic_roots_in(3.0 * a3, 2.0 * a2, a1, T)
    n = 0
    r0 = INF
    r1 = INF
    r2 = INF
    lo = 0.0
    flo = a0
    for k in range(nc + 1):
        if k < nc:
            hi = k0 if k == 0 else k1
        else:
            hi = T
        fhi = ((a3 * hi + a2) * hi + a1) * hi + a0
        root = -1.0
        if (flo < 0.0 < fhi) or (flo > 0.0 > fhi):
            root = _bracket_root(0.0, a3, a2, a1, a0, lo, hi, flo, _CRIT_TOL)
        elif fhi == 0.0 and hi < T:
            root = hi
        if root >= 0.0:
            if n == 0:
                r0 = root
            elif n == 1:
                r1 = root
            else:
                r2 = root
            n += 1
        lo = hi
        flo = fhi
    return n, r0, r1, r2


@njit(cache=True)
def first_crossing(c4, c3, c2, c1, c0, T, band=0.0):
    """First t in [0, T] where the quartic goes from > 0 to ≤ 0 (contact while approaching); inf if none.

    ``band`` ≥ 0: a separating start with −band ≤ f(0) ≤ 0 counts as touching (see the module notes).
    """
    if not (T > 0.0):
        T = 0.0
    if c0 <= 0.0:
        # approaching when the first non-zero derivative at 0 is negative
        lead = c1 if c1 != 0.0 else (c2 if c2 != 0.0 else (c3 if c3 != 0.0 else c4))
        if lead < 0.0:
            return 0.0
        if c0 >= -band:
            c0 = 0.0  # separating from inside the band: its return to contact must not be missed
    if T == 0.0:
        return INF
    nc, k0, k1, k2 = _cubic_roots_in(4.0 * c4, 3.0 * c3, 2.0 * c2, c1, T)
    lo = 0.0
    flo = c0
    for k in range(nc + 1):
        if k < nc:
            hi = k0 if k == 0 else (k1 if k == 1 else k2)
        else:
            hi = T
        fhi = poly4(c4, c3, c2, c1, c0, hi)
        if flo > 0.0 and fhi <= 0.0:
            if fhi == 0.0:
                return hi
            return _bracket_root(c4, c3, c2, c1, c0, lo, hi, flo, _ROOT_TOL)
        lo = hi
        flo = fhi
    return INF


@njit(cache=True)
def _poly_eval(d, k, n, t):
    """Horner evaluation of row k of the derivative table d (ascending coefficients 0..n) at t."""
    v = 0.0
    for j in range(n, -1, -1):
        v = v * t + d[k, j]
    return v


@njit(cache=True)
def _bracket_root_row(d, k, n, lo, hi, flo, tol, floor=1.0):
    """Root of row k of the derivative table in [lo, hi] (a sign change, monotone there): Newton + bisection,
    the derivative being row k + 1, to ``tol`` × (floor + |t|): floor 0 (relative) for the critical points that
    split the window, which must be exact even at tiny t, or f is evaluated beside a dip it would miss."""
    t = 0.5 * (lo + hi)
    for _ in range(_MAX_ITER):
        ft = _poly_eval(d, k, n - k, t)
        if ft == 0.0:
            return t
        if (ft > 0.0) == (flo > 0.0):
            lo = t
            flo = ft
        else:
            hi = t
        dft = _poly_eval(d, k + 1, n - k - 1, t)
        tn = t - ft / dft if dft != 0.0 else 0.5 * (lo + hi)
        if not (lo < tn < hi):
            tn = 0.5 * (lo + hi)
        if hi - lo <= tol * (floor + abs(hi)) or abs(tn - t) <= 0.1 * tol * (floor + abs(t)):
            return tn
        t = tn
    return t


@njit(cache=True)
def first_crossing_poly(c, T, band=0.0):
    """``first_crossing`` for a polynomial of any degree: c holds its coefficients in ascending powers.

    The same method: the window is split at the real roots of f', found the same way from f'' and so on
    down to a linear derivative, so that f is monotone on each piece; the first piece where f goes from > 0
    to ≤ 0 is solved by bracketed Newton–bisection. The same start rules (approaching contact at t = 0,
    ``band``) apply.
    """
    n = c.shape[0] - 1
    while n > 0 and c[n] == 0.0:
        n -= 1
    if not (T > 0.0):
        T = 0.0
    c0 = c[0]
    if c0 <= 0.0:
        lead = 0.0
        for j in range(1, n + 1):
            if c[j] != 0.0:
                lead = c[j]
                break
        if lead < 0.0:
            return 0.0
        if c0 >= -band:
            c0 = 0.0
    if T == 0.0 or n == 0:
        return INF
    # derivative table: row k holds the k-th derivative (degree n − k)
    d = np.zeros((n + 1, n + 1))
    for j in range(n + 1):
        d[0, j] = c[j]
    d[0, 0] = c0
    for k in range(1, n + 1):
        for j in range(n - k + 1):
            d[k, j] = d[k - 1, j + 1] * (j + 1)
    # roots of each derivative in (0, T), from the linear one up to f'
    splits = np.empty(n + 1)
    m = 0  # number of roots of row k + 1 found, in splits[0:m], sorted
    roots = np.empty(n + 1)
    for k in range(n - 1, 0, -1):
        r = 0
        lo = 0.0
        flo = _poly_eval(d, k, n - k, 0.0)
        for piece in range(m + 1):
            hi = splits[piece] if piece < m else T
            fhi = _poly_eval(d, k, n - k, hi)
            if (flo < 0.0 < fhi) or (flo > 0.0 > fhi):
                roots[r] = _bracket_root_row(d, k, n, lo, hi, flo, _CRIT_TOL, 0.0)
                r += 1
            elif fhi == 0.0 and hi < T:
                roots[r] = hi
                r += 1
            lo = hi
            flo = fhi
        for q in range(r):
            splits[q] = roots[q]
        m = r
    lo = 0.0
    flo = c0
    for piece in range(m + 1):
        hi = splits[piece] if piece < m else T
        fhi = _poly_eval(d, 0, n, hi)
        if flo > 0.0 and fhi <= 0.0:
            if fhi == 0.0:
                return hi
            return _bracket_root_row(d, 0, n, lo, hi, flo, _ROOT_TOL)
        lo = hi
        flo = fhi
    return INF
