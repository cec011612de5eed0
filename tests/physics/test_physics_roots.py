"""The first-crossing root finder: no missed and no phantom contacts, also at or near contact."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from physics.kernels.roots import first_crossing


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
