"""Pot geometry: pocket windows are mirror-symmetric, estimates behave, throw correction hits its target."""

import math

import numpy as np
import pytest

import physics
from agents.shots.aim import corrected_phi, direction_deg, ghost_ball, path_clear
from agents.shots.pots import cue_spots, pocket_target, pot_options, pot_probability, rolling_speed_for

T = physics.DEFAULT_TABLE
R = physics.DEFAULT_PARAMS.R


def test_pocket_targets_mirror_across_the_long_axis():
    obj = np.array([0.4, 1.9])
    mirrored = np.array([T.width - 0.4, 1.9])
    for k, k2 in ((4, 5), (0, 1), (2, 3)):
        a, b = pocket_target(obj, k, T), pocket_target(mirrored, k2, T)
        assert (a is None) == (b is None)
        if a is not None:
            assert a[0][0] == pytest.approx(T.width - b[0][0]) and a[0][1] == pytest.approx(b[0][1])
            assert a[1] == pytest.approx(b[1])


def test_side_pocket_closed_at_steep_angles():
    assert pocket_target(np.array([0.6, 0.3]), 2, T) is None  # almost along the rail
    assert pocket_target(np.array([0.6, T.length / 2]), 2, T) is not None  # head on


def test_pot_probability_falls_with_distance_and_cut():
    assert pot_probability(0.3, 0.3, 0.0, 0.03, 0.125) > 0.99
    assert pot_probability(1.5, 1.5, 0.0, 0.03, 0.125) < pot_probability(0.5, 0.5, 0.0, 0.03, 0.125)
    assert pot_probability(0.8, 0.8, 60.0, 0.03, 0.125) < pot_probability(0.8, 0.8, 10.0, 0.03, 0.125)
    assert pot_probability(0.8, 0.8, 10.0, 0.0, 0.125) == 0.0


def test_straight_in_shot_is_the_best_option_and_pots():
    pos = np.zeros((10, 2))
    pos[0], pos[1] = (0.3, 1.9), (0.2, 2.2)  # towards the foot-left corner
    on = np.zeros(10, bool)
    on[[0, 1]] = True
    options = pot_options(pos[0], pos, on, 1, T)
    best = options[0]
    assert best.pocket == 4 and best.ease > 0.9
    state = physics.place_balls({0: tuple(pos[0]), 1: tuple(pos[1])})
    V = rolling_speed_for(best.d_cue, best.d_obj, best.cut)
    shot = physics.Shot(V, best.phi)
    shot = physics.Shot(V, corrected_phi(state, pos[0], 1, best.direction, shot))
    assert physics.simulate(state, shot).state.pocket[1] == 4


def test_throw_correction_reduces_the_departure_error():
    state = physics.place_balls({0: (0.5, 1.2), 1: (0.7, 1.7)})
    direction = 100.0  # a cut to the left
    R = physics.DEFAULT_PARAMS.R
    ghost = state.pos[1] - 2 * R * np.array([math.cos(math.radians(direction)), math.sin(math.radians(direction))])
    phi0 = math.degrees(math.atan2(*(ghost - state.pos[0])[::-1]))

    def departure(phi):
        ev = physics.simulate(state, physics.Shot(1.0, phi, b=-0.3)).events
        i = int(np.flatnonzero(ev.kind == int(physics.EventKind.BALL_BALL))[0])
        row = ev.state_a[i] if ev.ball_a[i] == 1 else ev.state_b[i]
        return math.degrees(math.atan2(row[3], row[2]))

    phi1 = corrected_phi(state, state.pos[0], 1, direction, physics.Shot(1.0, phi0, b=-0.3))
    assert abs(departure(phi1) - direction) < 0.1 < abs(departure(phi0) - direction)


def test_cue_spots_are_free_and_sorted():
    pos = np.zeros((10, 2))
    pos[1], pos[9] = (0.6, 1.5), (0.9, 2.0)
    on = np.zeros(10, bool)
    on[[1, 9]] = True
    spots = cue_spots(pos, on, 1, T)
    assert spots and all(a[1].ease >= b[1].ease for a, b in zip(spots, spots[1:]))
    for (x, y), _ in spots:
        assert min(np.hypot(x - pos[b, 0], y - pos[b, 1]) for b in (1, 9)) > 2 * physics.DEFAULT_PARAMS.R


def test_compiled_best_ease_equals_the_readable_options():
    from agents.shots.pots import best_ease

    rng = np.random.default_rng(0)
    for _ in range(300):
        on = np.zeros(10, bool)
        on[rng.choice(np.arange(1, 10), int(rng.integers(1, 9)), replace=False)] = True
        on[0] = True
        pos = rng.uniform([0.03, 0.03], [1.24, 2.51], (10, 2))
        lowest = int(np.flatnonzero(on[1:])[0]) + 1
        options = pot_options(pos[0], pos, on, lowest, T, combos=False)
        assert best_ease(pos[0], pos, on, lowest, T) == pytest.approx(options[0].ease if options else 0.0, abs=1e-9)


def test_ghost_ball_sits_two_radii_behind_the_object_ball():
    g = ghost_ball(np.array([0.5, 1.0]), np.array([0.5, 2.0]), R)
    np.testing.assert_allclose(g, [0.5, 1.0 - 2 * R])


def test_path_clear():
    obstacles = np.array([[0.5, 1.0]])
    assert not path_clear(np.array([0.5, 0.5]), np.array([0.5, 1.5]), obstacles, R)
    assert path_clear(np.array([0.5 + 2 * R + 1e-6, 0.5]), np.array([0.5 + 2 * R + 1e-6, 1.5]), obstacles, R)
    assert path_clear(np.array([0.5, 0.5]), np.array([0.5, 0.95]), obstacles, R) is False  # ends touching it
    assert path_clear(np.array([0.5, 0.5]), np.array([0.5, 1.5]), np.zeros((0, 2)), R)


def test_direction_deg():
    assert direction_deg((0, 0), (0, 1)) == pytest.approx(90.0)
    assert direction_deg((0, 0), (-1, 0)) == pytest.approx(180.0)


def test_spot_pots_equal_the_pocket_s_row_of_every_pot_option():
    """``kernels.spot_pots`` looks only at the spot's pocket: its pot is the one ``pot_rows`` (every pocket, no
    combinations, cuts to 80°) finds into that pocket from the spot, bit for bit, and it finds one exactly when
    ``pot_rows`` does."""
    from agents.shots import kernels as K
    from agents.shots.pots import SPOT_MARGIN, _AXES, _aims, _model_array, DEFAULT_POCKETS, pot_rows, spot_lines

    rng = np.random.default_rng(7)
    N = 60
    on = np.zeros((N, 10), bool)
    for i in range(N):
        on[i, rng.choice(np.arange(1, 10), int(rng.integers(1, 10)), replace=False)] = True
    on[:, 0] = True
    pos = rng.uniform([0.03, 0.03], [1.24, 2.51], (N, 10, 2))
    lowest = np.array([int(np.flatnonzero(on[i, 1:])[0]) + 1 for i in range(N)], dtype=np.int64)
    sigma = rng.uniform(0.05, 0.5, N)
    dist, c, s = spot_lines((0.2, 0.3, 0.45), (10.0, -10.0, 0.0, 20.0, -20.0, 35.0, -35.0))
    per = 6 * len(dist)
    geometry = (_aims(T), _AXES, _model_array(DEFAULT_POCKETS), dist, c, s, float(physics.DEFAULT_PARAMS.R),
                float(T.width), float(T.length), float(T.head_string_y),
                np.ascontiguousarray(T.pockets, dtype=np.float64), SPOT_MARGIN)
    points, options, found = np.empty((N, per, 2)), np.empty((N, per, K.OPT_W)), np.empty((N, per), bool)
    K.spot_pots(pos, on, lowest, sigma, *geometry, points, options, found)
    pocket_of, free, counts = np.empty((N, per), np.int64), np.zeros((N, per), bool), np.empty(N, np.int64)
    ref_points = np.empty((N, per, 2))
    K.cue_spot_points(pos, on, lowest, *geometry, ref_points, pocket_of, free, counts)
    checked = 0
    for i in range(N):
        for j in range(int(counts[i])):
            if not free[i, j]:
                assert not found[i, j]
                continue
            rows, n = pot_rows(points[i, j], pos[i][None], on[i][None], lowest[i:i + 1], T, sigma_phi=sigma[i:i + 1],
                               combos=False, max_cut=80.0)
            mine = [r for r in rows[0, :int(n[0])] if r[K.O_POCKET] == pocket_of[i, j]]
            assert found[i, j] == bool(mine)
            if mine:
                assert options[i, j].tobytes() == mine[0].tobytes()
                checked += 1
        assert not found[i, int(counts[i]):].any()
    assert checked > 200
