"""Matches: quick smoke races, results reproducible by seed (and by worker count), consistent tallies."""

import numpy as np
import pytest

from agents.arena.match import MatchConfig, Tally, play_match
from agents.arena.report import agent_summary, format_series, series_csv, series_json
from agents.arena.series import run_series
from agents.players.ghost_ball import GhostBallAgent
from agents.players.random_agent import RandomAgent
from nineball_env.noise import make_noise

CONFIG = MatchConfig(race_to=2, noise=make_noise("icga"))


def test_ghost_beats_random_in_a_smoke_match():
    record = play_match(GhostBallAgent(), RandomAgent(), CONFIG, seed=0, index=0)
    assert record.winner == 0 and record.score[0] == 2
    assert record.first_breaker == 0
    assert [r.breaker for r in record.racks] == [i % 2 for i in range(len(record.racks))]  # breaks alternate


def test_series_is_reproducible_by_seed():
    first = run_series("ghost", "random", 3, CONFIG, seed=4, progress=False)
    second = run_series("ghost", "random", 3, CONFIG, seed=4, progress=False)
    other = run_series("ghost", "random", 3, CONFIG, seed=5, progress=False)
    strip = lambda r: [(m.score, m.racks, {**m.tallies[0].as_dict(), "think_s": 0}) for m in r.matches]  # noqa: E731
    assert strip(first) == strip(second)
    assert strip(first) != strip(other)


def test_worker_processes_give_the_same_results():
    one = run_series("random", "ghost", 2, MatchConfig(race_to=1), seed=1, jobs=1, progress=False)
    two = run_series("random", "ghost", 2, MatchConfig(race_to=1), seed=1, jobs=2, progress=False)
    assert [m.racks for m in one.matches] == [m.racks for m in two.matches]


@pytest.mark.parametrize("cold", [True, False])
def test_a_cold_cache_plays_the_first_match_here_before_the_workers_start(monkeypatch, cold):
    # Workers would all compile the same kernels at once on a cold numba cache: the first match compiles them here.
    import agents.arena.series as series

    here = []
    play = series.play_match

    def counted(*args, **kwargs):
        here.append(args[4])  # the match index (in a forked worker the list is the worker's copy)
        return play(*args, **kwargs)

    monkeypatch.setattr(series.kernel_cache, "cold", lambda: cold)
    monkeypatch.setattr(series, "play_match", counted)
    two = run_series("random", "random", 3, MatchConfig(race_to=1), seed=3, jobs=2, progress=False)
    assert here == ([0] if cold else [])
    one = run_series("random", "random", 3, MatchConfig(race_to=1), seed=3, jobs=1, progress=False)
    assert [m.index for m in two.matches] == [0, 1, 2]
    assert [m.racks for m in one.matches] == [m.racks for m in two.matches]


def test_tallies_are_consistent():
    result = run_series("ghost", "ghost:safety_below=0.5", 4, CONFIG, seed=2, progress=False)
    a, b = result.tally(0), result.tally(1)
    racks = sum(len(m.racks) for m in result.matches)
    assert a.racks == b.racks == racks == a.racks_won + b.racks_won
    assert a.breaks + b.breaks == racks
    for t in (a, b):
        assert t.break_and_runs <= t.breaks and t.legal_pots <= t.shots and t.pots_made <= t.pot_attempts
        assert t.decisions >= t.shots + t.breaks
    assert sum(result.wins) == 4
    assert a + Tally() == a


def test_report_table_csv_and_json():
    result = run_series("ghost", "random", 2, CONFIG, seed=0, progress=False)
    text = format_series(result)
    for label in ("match wins", "racks won", "break-and-run", "legal-pot", "fouls / rack", "shots / rack",
                  "time / decision"):
        assert label in text
    assert series_csv(result).splitlines()[0].startswith("agent,")
    import json
    data = json.loads(series_json(result))
    assert data["results"][0]["match_wins"]["n"] == 2 and len(data["match_records"]) == 2
    assert agent_summary(result, 0)["match_wins"].p == 1.0


def test_bad_series_arguments():
    with pytest.raises(ValueError, match="race_to"):
        MatchConfig(race_to=0)
    with pytest.raises(ValueError, match="matches"):
        run_series("ghost", "random", 0, CONFIG, progress=False)


def test_match_accepts_foreign_policies():
    from nineball_env.aiming import AimingPolicy

    record = play_match(AimingPolicy(), RandomAgent(), MatchConfig(race_to=1), seed=0)
    assert record.winner in (0, 1) and np.isfinite(record.tallies[0].think_s)
