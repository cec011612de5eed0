"""benchmarks/decision_time.py times agents on the positions of a short race and prints its JSON report (a smoke
test, not a figure)."""

from __future__ import annotations

import json

import pytest

from benchmarks import decision_time


def test_decision_time_times_every_agent_on_the_same_positions(capsys) -> None:
    decision_time.main(["ghost", "random", "ghost", "--matches", "1", "--race", "1", "--seed", "4", "--passes", "2"])
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] >= 2 and report["passes"] == 2
    assert set(report["agents"]) == {"ghost", "random"}  # a name given twice is timed once
    for timing in report["agents"].values():
        assert len(timing["passes_ms"]) == 2 and timing["median_ms"] > 0
    assert report["agents"]["ghost"]["ratio_to_first"] == 1.0


def test_decision_time_refuses_a_lone_agent() -> None:
    with pytest.raises(SystemExit):
        decision_time.main(["ghost"])
