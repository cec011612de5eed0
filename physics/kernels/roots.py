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

Scales far below the window's (tests draw them; no physical f has them) are handled off the hot path: a root that
Newton–bisection has not reached in _MAX_ITER steps is bisected on the binary exponent (a critical point at 1e-50
in [0, 1] in ~70 steps); the quartic's critical points below _CRIT_RELATIVE_BELOW are found to relative precision;
a quadratic whose discriminant would underflow, and a polynomial whose coefficients are all below _SMALL, are
solved scaled by a power of 2 (exact). Ordinary inputs take none of these paths: their results are unchanged.
"""

import math

import numpy as np

from physics.kernels.jit import kernel

INF = np.inf
_MAX_ITER = 80
_SPLIT_ITER = 128  # bisections on the binary exponent after _MAX_ITER (~11 + 53 resolve any bracket of doubles)
_ROOT_TOL = 1e-14  # event times: to rounding
_CRIT_TOL = 1e-10  # critical points only split the window into monotone pieces; f is evaluated exactly there
# The quartic's critical points are found to _CRIT_TOL·(1 + t) s, exact enough for any physical f (an error of
# 1e-10 s changes a squared distance by ~|Δv|²·1e-20 m²), but useless for a dip at t ≪ 1e-10; below this t they
# are found to _CRIT_TOL·t (the polynomial search's critical points are always relative).
_CRIT_RELATIVE_BELOW = 1e-6
# A quadratic whose b² and 4ac are both below this (coefficients ≲ 1e-146, never a physical f) has lost its
# discriminant's digits to underflow; it is solved rescaled (2^53 above the smallest normal double).
_TINY = 2.0 ** -968
# A polynomial whose coefficients are all below this (never a physical f) is searched with them scaled up by a
# power of 2 (exact; the same roots and signs): evaluated as it is, its values near a root would be subnormal,
# with a few significant digits (c = [0, 0, 1e-313, 0, −8.5e-308]: f ~ 1e-319 at its root t = 1.08e-3).
_SMALL = 2.0 ** -600
# A quartic whose Bernstein coefficients on [0, T] (the window halved up to _CLEAR_DEPTH times) all exceed _CLEAR_MARGIN
# times the sum of its terms' magnitudes there is positive on the whole window by far more than any evaluation of it
# rounds: its search would find no crossing, so it is skipped (``_positive_on``). Most ball–ball searches are such.
_CLEAR_MARGIN = 1e-12
_CLEAR_DEPTH = 4


@kernel
def poly4(c4, c3, c2, c1, c0, t):
    """Horner evaluation of c4·t⁴ + c3·t³ + c2·t² + c1·t + c0."""
    return (((c4 * t + c3) * t + c2) * t + c1) * t + c0


@kernel
def _split(lo, hi):
    """A point of (lo, hi), 0 ≤ lo < hi, for bisection at any scale: 2^k with k halfway between their binary
    exponents while those differ by 2 or more, else the midpoint (lo or hi when they are adjacent doubles).

    Halving the exponent gap reaches a root 1e-300 below the bracket's scale in ~11 steps, not ~1000 halvings.
    """
    e_hi = math.frexp(hi)[1]
    e_lo = math.frexp(lo)[1] if lo > 0.0 else -1074  # 0 sits just below the smallest subnormal (2^-1074, e = -1073)
    if e_hi - e_lo >= 2:
        return math.ldexp(1.0, (e_lo + e_hi) // 2 - 1)
    return 0.5 * (lo + hi)


@kernel
def _poly_eval(d, k, n, t):
    """Horner evaluation of row k of the derivative table d (ascending coefficients 0..n) at t."""
    v = 0.0
    for j in range(n, -1, -1):
        v = v * t + d[k, j]
    return v


@kernel
def _bisect_exponent(d, k, m, lo, hi, flo, tol, floor):
    """Root of row k (degree m) of a derivative table in [lo, hi], given a sign change: bisection by ``_split``
    to ``tol`` × (floor + |t|) or to adjacent doubles. The fallback of the Newton–bisection searches for a root
    they have not reached in _MAX_ITER steps, many binades below the bracket's scale (a critical point at 1e-50)."""
    for _ in range(_SPLIT_ITER):
        t = _split(lo, hi)
        if not (lo < t < hi) or hi - lo <= tol * (floor + hi):
            break
        ft = _poly_eval(d, k, m, t)
        if ft == 0.0:
            return t
        if (ft > 0.0) == (flo > 0.0):
            lo = t
            flo = ft
        else:
            hi = t
    return 0.5 * (lo + hi)


@kernel(refcounts=True)  # it allocates its table
def _bisect_exponent_quartic(c4, c3, c2, c1, c0, lo, hi, flo, tol, floor):
    """``_bisect_exponent`` for the quartic (kept out of ``_bracket_root``, which runs per event)."""
    d = np.empty((1, 5))  # ascending, as a derivative-table row
    d[0, 0] = c0
    d[0, 1] = c1
    d[0, 2] = c2
    d[0, 3] = c3
    d[0, 4] = c4
    return _bisect_exponent(d, 0, 4, lo, hi, flo, tol, floor)


@kernel
def _bracket_root(c4, c3, c2, c1, c0, lo, hi, flo, tol, floor=1.0, relative_below=0.0):
    """Root of the quartic in [lo, hi], given a sign change and monotonicity there (Newton + bisection).

    Stops when the bracket or the Newton step falls below ``tol`` × (floor + |t|), or × |t| once t <
    ``relative_below``. A root that Newton–bisection has not reached in _MAX_ITER steps (one many binades below
    the bracket's scale) is then bisected on the binary exponent.

    A quadratic (c4 = c3 = 0: a straight cushion) or a cubic (c4 = 0: f' at a critical point) is evaluated without
    its zero leading terms: for a finite t (a finite bracket), 0·t + c is c, so every non-zero value is the same to the
    bit (a zero can differ only in its sign, which no test here reads), in half the dependent operations of the
    quadratic's Newton step.
    """
    finite = -INF < lo and hi < INF
    quadratic = finite and c4 == 0.0 and c3 == 0.0
    cubic = finite and c4 == 0.0 and not quadratic
    t = 0.5 * (lo + hi)
    for _ in range(_MAX_ITER):
        if quadratic:
            ft = (c2 * t + c1) * t + c0
        elif cubic:
            ft = ((c3 * t + c2) * t + c1) * t + c0
        else:
            ft = poly4(c4, c3, c2, c1, c0, t)
        if ft == 0.0:
            return t
        if (ft > 0.0) == (flo > 0.0):
            lo = t
            flo = ft
        else:
            hi = t
        if quadratic:
            dft = 2.0 * c2 * t + c1
        elif cubic:
            dft = (3.0 * c3 * t + 2.0 * c2) * t + c1
        else:
            dft = ((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1
        tn = t - ft / dft if dft != 0.0 else 0.5 * (lo + hi)
        if not (lo < tn < hi):
            tn = 0.5 * (lo + hi)
        if hi - lo <= tol * (floor + abs(hi)) or abs(tn - t) <= 0.1 * tol * (floor + abs(t)):
            if abs(tn) >= relative_below:
                return tn
            floor = 0.0  # a root far below the absolute tolerance: go on to relative precision
            relative_below = 0.0
        t = tn
    return _bisect_exponent_quartic(c4, c3, c2, c1, c0, lo, hi, flo, tol, floor)


@kernel
def _scaled_quadratic(a, b, c):
    """a, b, c (a, c ≠ 0) times the power of 2 (exact: the same roots) that brings max(|b|, √|ac|) into [0.5, 1),
    so that b² − 4ac is computed without underflow."""
    e = math.frexp(max(abs(b), math.sqrt(abs(a)) * math.sqrt(abs(c))))[1]
    return math.ldexp(a, -e), math.ldexp(b, -e), math.ldexp(c, -e)


# inlined, forced (the same operations, bit-identical results): once the underflow check was added, first_crossing was
# ~10 ns a call (of ~85) slower on realistic quartics, most likely as LLVM stopped inlining this and the cubic's roots;
# forced, it is back to its speed before. inline="llvm" (LLVM inlines the function compiled once), not "always"
# (numba re-translated and re-typed both at each call site: about 0.6 s of every cold compile)
@kernel(inline="llvm")
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
    if b * b < _TINY and abs(4.0 * a * c) < _TINY:
        if c == 0.0:  # roots 0 and −b/a
            r = -b / a
            return (1, r, INF) if 0.0 < r < T else (0, INF, INF)
        a, b, c = _scaled_quadratic(a, b, c)
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


@kernel
def _scaled_up(c4, c3, c2, c1, c0):
    """The coefficients times the power of 2 (exact: the same roots and signs) that brings the largest into [0.5, 1)."""
    e = math.frexp(max(abs(c4), abs(c3), abs(c2), abs(c1), abs(c0)))[1]
    return math.ldexp(c4, -e), math.ldexp(c3, -e), math.ldexp(c2, -e), math.ldexp(c1, -e), math.ldexp(c0, -e)


@kernel
def _bernstein_above(b0, b1, b2, b3, b4, m, depth):
    """Whether the quartic with Bernstein coefficients b0..b4 on an interval stays above m there, by its coefficients
    (convex hull), halving the interval (de Casteljau) up to ``depth`` times where they do not show it."""
    if b0 > m and b1 > m and b2 > m and b3 > m and b4 > m:
        return True
    if depth == 0 or b0 <= m or b4 <= m:  # an end at or below m: not above m
        return False
    p01 = 0.5 * (b0 + b1)
    p12 = 0.5 * (b1 + b2)
    p23 = 0.5 * (b2 + b3)
    p34 = 0.5 * (b3 + b4)
    q012 = 0.5 * (p01 + p12)
    q123 = 0.5 * (p12 + p23)
    q234 = 0.5 * (p23 + p34)
    r0 = 0.5 * (q012 + q123)
    r1 = 0.5 * (q123 + q234)
    mid = 0.5 * (r0 + r1)
    return (_bernstein_above(b0, p01, q012, r0, mid, m, depth - 1)
            and _bernstein_above(mid, r1, q234, p34, b4, m, depth - 1))


@kernel(inline="llvm")
def _positive_on(c4, c3, c2, c1, c0, T):
    """Whether the quartic is certainly positive on [0, T] (0 < T < inf), far beyond rounding: every evaluation of it
    there (Horner's, first_crossing) is positive, so first_crossing would find no crossing.

    With a_k = c_k T^k (the quartic in s = t / T on [0, 1]) and S = Σ|a_k|: Horner's value at any t in [0, T] is
    within 8u·S of the exact one (u = 2^-53), the Bernstein coefficients (and those of the halves) are computed within
    about 30u·S of theirs, and the exact quartic is at least its smallest Bernstein coefficient; so all of them above
    _CLEAR_MARGIN·S (1e-12 S, several hundred times those bounds) leave every computed value positive."""
    T2 = T * T
    a1 = c1 * T
    a2 = c2 * T2
    a3 = c3 * T2 * T
    a4 = c4 * T2 * T2
    s = c0 + abs(a1) + abs(a2) + abs(a3) + abs(a4)
    if not (1e-200 < s < 1e200):  # far from any physical quartic's scale: no bound taken, the search decides
        return False
    m = _CLEAR_MARGIN * s
    if not c0 > m:
        return False
    b1 = c0 + 0.25 * a1
    b2 = c0 + 0.5 * a1 + a2 / 6.0
    b3 = c0 + 0.75 * a1 + 0.5 * a2 + 0.25 * a3
    b4 = c0 + a1 + a2 + a3 + a4
    if b1 > m and b2 > m and b3 > m and b4 > m:  # most often the whole window shows it (no call)
        return True
    return _bernstein_above(c0, b1, b2, b3, b4, m, _CLEAR_DEPTH)


@kernel
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
    if (c4 != 0.0 or c3 != 0.0) and c0 > 0.0 and T < INF and _positive_on(c4, c3, c2, c1, c0, T):
        return INF  # clear of zero on the whole window (a quadratic's search is as cheap as this test)
    return _search(c4, c3, c2, c1, c0, T)


@kernel(inline="llvm")  # first_crossing's own code once LLVM has inlined it; a kernel of its own for the tests
def _search(c4, c3, c2, c1, c0, T):
    """first_crossing's search on (0, T] (T > 0, c0 as the start rules left it): the window split at the critical
    points, the first piece that goes from > 0 to ≤ 0 solved by Newton–bisection; inf if none.

    The critical points (the roots of f' in (0, T), in order) are found one at a time, each on its own piece of f'
    (split at the roots of f'', a quadratic), and the search stops at the first crossing: the critical points after
    it, most of a contact's, are never solved for (each is found from its own bracket alone, so the ones before are
    the same either way)."""
    if abs(c2) < _SMALL and abs(c1) < _SMALL and abs(c0) < _SMALL and abs(c3) < _SMALL and abs(c4) < _SMALL:
        c4, c3, c2, c1, c0 = _scaled_up(c4, c3, c2, c1, c0)
    a3 = 4.0 * c4  # f' = a3 t³ + a2 t² + a1 t + a0
    a2 = 3.0 * c3
    a1 = 2.0 * c2
    a0 = c1
    lo = 0.0
    flo = c0
    cubic = a3 != 0.0
    if cubic:  # f' cubic: split at the roots of f'' (a quadratic), each piece of it holds at most one critical point
        ns, s0, s1 = _quadratic_roots_in(3.0 * a3, 2.0 * a2, a1, T)
        pieces = ns + 2
    else:  # f' of degree ≤ 2: the critical points themselves in closed form
        ns, s0, s1 = _quadratic_roots_in(a2, a1, a0, T)
        pieces = ns + 1
    dlo = 0.0
    dflo = a0
    for k in range(pieces):
        if k == pieces - 1:  # the window's end
            hi = T
        elif not cubic:
            hi = s0 if k == 0 else s1
        else:  # the next piece of f', and the critical point in it if any
            dhi = T if k == ns else (s0 if k == 0 else s1)
            dfhi = ((a3 * dhi + a2) * dhi + a1) * dhi + a0
            hi = -1.0
            if (dflo < 0.0 < dfhi) or (dflo > 0.0 > dfhi):
                hi = _bracket_root(0.0, a3, a2, a1, a0, dlo, dhi, dflo, _CRIT_TOL, 1.0, _CRIT_RELATIVE_BELOW)
            elif dfhi == 0.0 and dhi < T:
                hi = dhi
            dlo = dhi
            dflo = dfhi
            if hi < 0.0:
                continue
        fhi = poly4(c4, c3, c2, c1, c0, hi)
        if flo > 0.0 and fhi <= 0.0:
            return hi if fhi == 0.0 else _bracket_root(c4, c3, c2, c1, c0, lo, hi, flo, _ROOT_TOL, 1.0, 0.0)
        lo = hi
        flo = fhi
    return INF


@kernel
def _bracket_root_row(d, k, n, lo, hi, flo, tol, floor=1.0):
    """Root of row k of the derivative table in [lo, hi] (a sign change, monotone there): Newton + bisection,
    the derivative being row k + 1, to ``tol`` × (floor + |t|): floor 0 (relative) for the critical points that
    split the window, which must be exact even at tiny t, or f is evaluated beside a dip it would miss. A root
    that Newton–bisection has not reached in _MAX_ITER steps (one many binades below the bracket's scale, such as
    a critical point at t = 1e-50) is then bisected on the binary exponent."""
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
    return _bisect_exponent(d, k, n - k, lo, hi, flo, tol, floor)


@kernel(refcounts=True)  # it allocates its derivative table
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
    big = 0.0
    for j in range(n + 1):
        d[0, j] = c[j]
        big = max(big, abs(c[j]))
    d[0, 0] = c0
    if big < _SMALL:  # (c0 ≤ big) scaled up, exactly, out of the subnormal range
        e = math.frexp(big)[1]
        for j in range(n + 1):
            d[0, j] = math.ldexp(d[0, j], -e)
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
            return _bracket_root_row(d, 0, n, lo, hi, flo, _ROOT_TOL, 1.0)  # all given: one copy
        lo = hi
        flo = fhi
    return INF
