"""Wilson intervals and Elo ratings: known values, symmetry, ordering, finite ratings for unbeaten players."""

import numpy as np
import pytest

from agents.arena.stats import bradley_terry, elo, elo_with_intervals, wilson


def test_wilson_known_values():
    r = wilson(5, 10)
    assert r.p == 0.5
    assert r.lo == pytest.approx(0.2366, abs=1e-4) and r.hi == pytest.approx(0.7634, abs=1e-4)
    zero = wilson(0, 10)
    assert zero.lo == 0.0 and zero.hi == pytest.approx(0.2775, abs=1e-4)
    full = wilson(10, 10)
    assert full.hi == 1.0 and full.lo == pytest.approx(0.7225, abs=1e-4)


def test_wilson_empty_and_bad_input():
    assert (wilson(0, 0).lo, wilson(0, 0).hi) == (0.0, 1.0)
    assert str(wilson(0, 0)) == "-"
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_elo_equal_players_are_equal_and_centered():
    w = np.array([[0, 10], [10, 0]])
    r = elo(w)
    assert r[0] == pytest.approx(r[1]) and r.mean() == pytest.approx(1500.0)


def test_elo_orders_players_and_stays_finite_when_unbeaten():
    w = np.array([[0, 9, 10], [1, 0, 8], [0, 2, 0]])
    r = elo(w)
    assert r[0] > r[1] > r[2]
    assert np.all(np.isfinite(r))
    # 9 of 10 is about 380 Elo (BT with a small prior pulls it in a little)
    two = elo(np.array([[0, 90], [10, 0]]), prior=0.0)
    assert two[0] - two[1] == pytest.approx(400 * np.log10(9), abs=1.0)


def test_bradley_terry_geometric_mean_one():
    g = bradley_terry(np.array([[0, 3, 1], [2, 0, 4], [5, 1, 0]]))
    assert np.exp(np.mean(np.log(g))) == pytest.approx(1.0)


def test_elo_bootstrap_interval_contains_estimate():
    games = [(0, 1, 3, 1)] * 8 + [(0, 1, 1, 3)] * 2 + [(1, 2, 3, 2)] * 10
    table = elo_with_intervals(["a", "b", "c"], games, np.random.default_rng(0), n_boot=100)
    assert np.all(table.lo <= table.rating + 1e-9) and np.all(table.rating <= table.hi + 1e-9)
    assert table.rating[0] > table.rating[2]
    assert {d["agent"] for d in table.as_dict()} == {"a", "b", "c"}
