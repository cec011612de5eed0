"""The first-crossing root finder: no missed and no phantom contacts, also at or near contact."""

import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from physics.kernels.roots import (
    _CRIT_RELATIVE_BELOW, _CRIT_TOL, _ROOT_TOL, _bracket_root, _positive_on, _quadratic_roots_in, _search, _split,
    _MAX_ITER, first_crossing, first_crossing_poly, poly4,
)


def test_simple_quartic_first_root():
    assert first_crossing(*np.poly([1.0, 2.0, 3.0, 4.0]), 10.0) == pytest.approx(1.0, abs=1e-12)


def test_touching_and_approaching_collides_now():
    assert first_crossing(0.0, 0.0, 1.0, -1.0, 0.0, 1.0) == 0.0


def test_touching_and_separating_does_not_collide():
    assert first_crossing(0.0, 0.0, 1.0, 1.0, 0.0, 1.0) == np.inf


def test_slightly_overlapping_but_separating_does_not_collide_again():
    assert first_crossing(0.0, 0.0, 1.0, 1e-3, -1e-15, 1.0) == np.inf


def test_root_beyond_window_is_ignored():
    assert first_crossing(0.0, 0.0, 1.0, -3.0, 2.0, 0.5) == np.inf  # roots at 1 and 2


def test_near_double_root_is_found():
    # (t − 0.5)² − 1e-14: two roots 1e-7 apart around 0.5
    eps = 1e-14
    t = first_crossing(0.0, 0.0, 1.0, -1.0, 0.25 - eps, 2.0)
    assert t == pytest.approx(0.5 - 1e-7, abs=1e-9)


def test_miss_by_a_hair_is_not_a_phantom():
    assert first_crossing(0.0, 0.0, 1.0, -1.0, 0.25 + 1e-12, 2.0) == np.inf


@settings(max_examples=500, deadline=None)
@given(st.lists(st.floats(-3.0, 3.0), min_size=4, max_size=4), st.floats(0.01, 5.0), st.floats(0.1, 5.0))
def test_agrees_with_sampling_on_random_quartics(roots, T, scale):
    coeffs = scale * np.poly(roots)  # leading coefficient > 0 like |Δr|²
    coeffs[-1] += 0.1  # lift so f(0) tends to be positive
    t = first_crossing(*coeffs, T)
    grid = np.linspace(0.0, T, 20001)
    values = np.polyval(coeffs, grid)
    if values[0] <= 0:
        return  # starting in contact: covered by the dedicated tests
    below = np.flatnonzero(values <= 0)
    if t == np.inf:
        # no crossing in the window except possibly a grazing one narrower than the grid resolution
        assert below.size == 0 or values.min() > -1e-6
    else:
        assert 0.0 <= t <= T
        assert abs(np.polyval(coeffs, t)) < 1e-9 * max(1.0, np.abs(coeffs).max())
        if below.size:
            assert t <= grid[below[0]] + 1e-9
        assert np.all(values[grid < t - 1e-9] > -1e-9)


@settings(max_examples=500, deadline=None)
@given(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0), st.floats(0.0, 6.283), st.floats(0.01, 3.0),
       st.floats(-3.0, 3.0), st.floats(0.02, 0.2), st.floats(0.05, 5.0))
@example(1.192092896e-07, 0.08984375, 1.192092896e-07, 1.0, 0.0, 0.08984375, 1.0)  # grazing start, 8e-14 m out
def test_straight_path_fast_path_agrees_with_the_quartic(cx, cy, heading, speed, alpha, radius, T):
    from physics.kernels.detect import ball_circle_time, straight_circle_time

    ux, uy = np.cos(heading), np.sin(heading)
    vx, vy, ax, ay = speed * ux, speed * uy, alpha * ux, alpha * uy
    handled, t_fast = straight_circle_time(0.0, 0.0, vx, vy, ax, ay, cx, cy, radius, T)
    if not handled:
        return
    t_quartic = ball_circle_time(0.0, 0.0, vx, vy, ax, ay, cx, cy, radius, T)
    if np.isinf(t_fast) or np.isinf(t_quartic):
        # may differ only for a grazing contact (the quartic's minimum within rounding of zero)
        if np.isinf(t_fast) != np.isinf(t_quartic):
            t = t_quartic if np.isfinite(t_quartic) else t_fast
            x, y = vx * t + 0.5 * ax * t * t, vy * t + 0.5 * ay * t * t
            assert abs(np.hypot(x - cx, y - cy) - radius) < 1e-9
            d = abs(cx * uy - cy * ux)
            assert radius - d < 1e-6
        return
    if t_fast != pytest.approx(t_quartic, rel=1e-9, abs=1e-12):
        # a grazing or touching start makes the root ill-conditioned: both times must then be contacts
        for t in (t_fast, t_quartic):
            x, y = vx * t + 0.5 * ax * t * t, vy * t + 0.5 * ay * t * t
            assert abs(np.hypot(x - cx, y - cy) - radius) < 1e-9
        assert min(radius - abs(cx * uy - cy * ux), np.hypot(cx, cy) - radius) < 1e-6


# ------------------------------------------------------------------------- scales far below the window's (issue 12)

EPS = 5e-324  # the smallest subnormal double
A = 6.48172347748073e-100


@pytest.mark.parametrize("power, dip_at", [(3, (A / 3) ** 0.5), (4, (A / 4) ** (1 / 3))])
def test_a_dip_at_denormal_scale_is_found_by_both_searches(power, dip_at):
    """f = ε − a·t + tᵖ (p = 3, 4) dips to ≈ −(1 − 1/p)·a·t* < 0 at t* = (a/p)^(1/(p−1)) (1.5e-50, 5.4e-34): its
    first crossing is t ≈ ε/a = 7.6e-225, reported to the roots' tolerance (1e-14 s) by both searches."""
    c = [EPS, -A, 0.0, 0.0, 0.0]
    c[power] = 1.0
    assert EPS - A * dip_at + dip_at ** power < 0.0
    for t in (first_crossing(c[4], c[3], c[2], c[1], c[0], 1.0), first_crossing_poly(np.array(c), 1.0)):
        assert 0.0 < t <= 1e-14


@pytest.mark.parametrize("scale", [1e-20, 1e-100, 1e-150, 1e-161])
def test_a_dip_at_any_scale_below_the_window_is_found(scale):
    """f = ε − 2s·t + t² dips to ε − s² < 0 at t = s (s = 1e-20 … 1e-161 > √ε): a crossing at t ≈ ε/(2s), found by
    both (the critical point is bisected on the exponent once Newton–bisection has not reached it)."""
    c = [EPS, -2.0 * scale, 1.0, 0.0, 0.0]
    for t in (first_crossing(c[4], c[3], c[2], c[1], c[0], 5.0), first_crossing_poly(np.array(c), 5.0)):
        assert 0.0 < t <= 1e-14
    # the same dip lifted to s² > 0 at its bottom is no crossing
    lifted = [2.0 * scale * scale, -2.0 * scale, 1.0, 0.0, 0.0]
    assert first_crossing(0.0, 0.0, 1.0, -2.0 * scale, 2.0 * scale * scale, 5.0) == np.inf
    assert first_crossing_poly(np.array(lifted), 5.0) == np.inf


def test_an_underflowing_discriminant_keeps_its_critical_point():
    """f = a·t − b·t³ (a = 1.8e-279, b = 1e-190) leaves contact and returns at √(a/b) = 4.2e-45; its critical point
    √(a/3b) solves a quadratic whose b² − 4ac underflows to 0 unless rescaled."""
    a, b = 1.7954967340663923e-279, 1e-190
    assert 0.0 < first_crossing(0.0, -b, 0.0, a, 0.0, 1.0) <= 1e-14
    assert _quadratic_roots_in(-3.0 * b, 0.0, a, 1.0) == (1, pytest.approx(math.sqrt(a / (3.0 * b)), rel=1e-15), np.inf)
    assert _quadratic_roots_in(1.0, -1e-200, 0.0, 1.0) == (1, 1e-200, np.inf)
    assert _quadratic_roots_in(1.0, -3e-160, 2e-320, 1.0)[0] == 2


def test_subnormal_coefficients_are_solved_to_full_precision():
    """f = c₂t² − c₄t⁴ with c₂ = 1e-313 (subnormal), c₄ = 8.5e-308 crosses at √(c₂/c₄) = 1.0818783792468422e-3
    (exact from the doubles); f is ~1e-319 there, so it is evaluated scaled up by a power of 2."""
    c2, c4 = 1e-313, 8.54364346532442e-308
    root = 0.0010818783792468422
    assert first_crossing(-c4, 0.0, c2, 0.0, 0.0, 0.5) == pytest.approx(root, rel=1e-13)
    assert first_crossing_poly(np.array([0.0, 0.0, c2, 0.0, -c4]), 0.5) == pytest.approx(root, rel=1e-13)


@given(st.floats(0.0, 5.0), st.floats(5e-324, 5.0))
def test_the_exponent_split_lies_strictly_inside(lo, hi):
    assume(lo < hi)
    t = _split(lo, hi)
    if np.nextafter(lo, np.inf) == hi:
        assert t in (lo, hi)  # adjacent doubles: nothing between
    else:
        assert lo < t < hi


def _contact_quartic(d, v, a, r):
    """Coefficients (c4, c3, c2, c1, c0) of |d + v t + a t²|² − r², as detect.ball_ball_time builds them."""
    c4 = a[0] * a[0] + a[1] * a[1]
    c3 = 2.0 * (v[0] * a[0] + v[1] * a[1])
    c2 = v[0] * v[0] + v[1] * v[1] + 2.0 * (d[0] * a[0] + d[1] * a[1])
    c1 = 2.0 * (d[0] * v[0] + d[1] * v[1])
    c0 = d[0] * d[0] + d[1] * d[1] - r * r
    return c4, c3, c2, c1, c0


def test_the_clearance_test_never_changes_a_search():
    """Skipping a search whose quartic is clear of zero on the window (_positive_on) gives what the search gives,
    bit for bit, on contact quartics of every kind: misses by a mile or a hair, grazes, hits, at table scales."""
    rng = np.random.default_rng(25)
    skipped = 0
    for k in range(60_000):
        r = 2.0 * 0.028575
        d = rng.uniform(-1.0, 1.0, 2) * 10.0 ** rng.uniform(-1.5, 0.3)
        v = rng.uniform(-1.0, 1.0, 2) * 10.0 ** rng.uniform(-3.0, 1.2)
        a = rng.uniform(-1.0, 1.0, 2) * 10.0 ** rng.uniform(-4.0, 1.0)
        if k % 3 == 0:  # aimed to pass at a miss distance near r: the grazing cases
            miss = r * (1.0 + 10.0 ** rng.uniform(-14.0, 0.0) * rng.choice([-1.0, 1.0]))
            u = v / math.hypot(v[0], v[1])
            d = -u * rng.uniform(0.05, 1.0) + np.array([-u[1], u[0]]) * miss
        T = 10.0 ** rng.uniform(-6.0, 1.0)
        c = _contact_quartic(d, v, a, r)
        if not c[4] > 0.0:
            continue
        clear = _positive_on(*c, T)
        skipped += clear
        t_search = _search(*c, T)
        assert first_crossing(*c, T) == t_search or (math.isnan(t_search) and math.isnan(first_crossing(*c, T)))
        if clear:
            assert t_search == np.inf, (c, T)
    assert skipped > 10_000  # the test does reach the skip


def test_a_quartic_with_a_root_or_a_hair_from_one_is_never_cleared():
    # (t − 0.5)² + h on [0, 2]: a root for h ≤ 0; clear of zero by h, cleared only once h is far above rounding
    for h in (-1e-3, -1e-14, 0.0, 1e-16, 1e-14):
        assert not _positive_on(0.0, 0.0, 1.0, -1.0, 0.25 + h, 2.0)
    assert _positive_on(0.0, 0.0, 1.0, -1.0, 0.25 + 1e-3, 2.0)
    # with a quartic term (the searches it may skip): 1e-12 t⁴ + (t − 0.5)² − 1e-12 dips below zero near 0.5
    assert not _positive_on(1e-12, 0.0, 1.0, -1.0, 0.25 - 1e-12, 2.0)
    assert first_crossing(1e-12, 0.0, 1.0, -1.0, 0.25 - 1e-12, 2.0) < 0.5


def _eager_search(c4, c3, c2, c1, c0, T):
    """The search as it was written before it went lazily: every critical point in (0, T) first, then the pieces."""
    a3, a2, a1, a0 = 4.0 * c4, 3.0 * c3, 2.0 * c2, c1
    if a3 == 0.0:
        n, r0, r1 = _quadratic_roots_in(a2, a1, a0, T)
        crit = [r0, r1][:n]
    else:
        nq, q0, q1 = _quadratic_roots_in(3.0 * a3, 2.0 * a2, a1, T)
        crit = []
        lo, flo = 0.0, a0
        for k in range(nq + 1):
            hi = [q0, q1][k] if k < nq else T
            fhi = ((a3 * hi + a2) * hi + a1) * hi + a0
            if (flo < 0.0 < fhi) or (flo > 0.0 > fhi):
                crit.append(_bracket_root(0.0, a3, a2, a1, a0, lo, hi, flo, _CRIT_TOL, 1.0, _CRIT_RELATIVE_BELOW))
            elif fhi == 0.0 and hi < T:
                crit.append(hi)
            lo, flo = hi, fhi
    lo, flo = 0.0, c0
    for hi in [*crit, T]:
        fhi = poly4(c4, c3, c2, c1, c0, hi)
        if flo > 0.0 and fhi <= 0.0:
            return hi if fhi == 0.0 else _bracket_root(c4, c3, c2, c1, c0, lo, hi, flo, _ROOT_TOL, 1.0, 0.0)
        lo, flo = hi, fhi
    return np.inf


def test_the_search_stops_at_the_first_crossing_with_the_same_result():
    """Solving for the critical points one at a time, up to the first crossing, gives what solving for all of them
    first gave, bit for bit: quartics with up to four roots in and around the window, double and near-double roots,
    cubics and quadratics."""
    rng = np.random.default_rng(35)
    for k in range(4000):
        roots = rng.uniform(-1.0, 3.0, 4)
        if k % 4 == 1:
            roots[1] = roots[0] + 10.0 ** rng.uniform(-12.0, -2.0)
        c = rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(-3.0, 3.0) * np.poly(roots)
        if k % 4 == 2:
            c[0] = 0.0  # a cubic
        if k % 8 == 3:
            c[0] = c[1] = 0.0  # a quadratic
        c4, c3, c2, c1, c0 = (float(v) for v in c)
        T = float(10.0 ** rng.uniform(-1.0, 0.7))
        assert _search(c4, c3, c2, c1, c0, T) == _eager_search(c4, c3, c2, c1, c0, T)


def _bracket_root_as_quartic(c4, c3, c2, c1, c0, lo, hi, flo, tol, floor=1.0, relative_below=0.0):
    """``_bracket_root`` as it was before its quadratic and cubic forms: every value through ``poly4`` (reference)."""
    t = 0.5 * (lo + hi)
    for _ in range(_MAX_ITER):
        ft = poly4.py_func(c4, c3, c2, c1, c0, t)
        if ft == 0.0:
            return t
        if (ft > 0.0) == (flo > 0.0):
            lo, flo = t, ft
        else:
            hi = t
        dft = ((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1
        tn = t - ft / dft if dft != 0.0 else 0.5 * (lo + hi)
        if not (lo < tn < hi):
            tn = 0.5 * (lo + hi)
        if hi - lo <= tol * (floor + abs(hi)) or abs(tn - t) <= 0.1 * tol * (floor + abs(t)):
            if abs(tn) >= relative_below:
                return tn
            floor, relative_below = 0.0, 0.0
        t = tn
    return None  # the exponent bisection: not compared here


@pytest.mark.parametrize("cubic", [False, True])
def test_bracket_root_of_a_quadratic_or_cubic_is_the_quartic_path_s_to_the_bit(cubic):
    """The quadratic and cubic forms (no zero leading terms) give the quartic evaluation's root bit for bit, over
    roots from 1e-12 to 1e3, at and near the bracket's ends, and the critical points' relative precision."""
    rng = np.random.default_rng(38)
    compared = 0
    for _ in range(3000):
        roots = np.sort(10.0 ** rng.uniform(-12, 3, 3 if cubic else 2)) * rng.choice([-1.0, 1.0], 3 if cubic else 2)
        scale = 10.0 ** rng.uniform(-6, 6)
        c = np.poly(roots) * scale
        c3, c2, c1, c0 = (c if cubic else np.concatenate([[0.0], c])).tolist()
        r = float(roots[-1])
        width = abs(r) * 10.0 ** rng.uniform(-14, 0) + 10.0 ** rng.uniform(-15, -3)
        lo, hi = r - width * rng.uniform(0.0, 1.0), r + width * rng.uniform(0.0, 1.0)
        flo = ((c3 * lo + c2) * lo + c1) * lo + c0
        fhi = ((c3 * hi + c2) * hi + c1) * hi + c0
        if not (lo < hi) or flo == 0.0 or fhi == 0.0 or (flo > 0.0) == (fhi > 0.0):
            continue
        tol, below = (_CRIT_TOL, _CRIT_RELATIVE_BELOW) if cubic else (_ROOT_TOL, 0.0)
        want = _bracket_root_as_quartic(0.0, c3, c2, c1, c0, lo, hi, flo, tol, 1.0, below)
        if want is None:
            continue
        got = _bracket_root(0.0, c3, c2, c1, c0, lo, hi, flo, tol, 1.0, below)
        assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want), (c3, c2, c1, c0, lo, hi)
        compared += 1
    assert compared > 1000
