"""benchmarks/soak.py: a short soak over the full Shot range is clean (the audit itself: tests/physics/test_physics_audit)."""

from __future__ import annotations

import json

import pytest

from benchmarks import soak
from physics.audit import AIR_AUDIT_NAMES, AUDIT_NAMES


def test_short_soak_over_the_full_shot_range_is_clean(capsys) -> None:
    report = soak.main(["--shots", "3000", "--seed", "11", "--chunk", "1000"])
    assert json.loads(capsys.readouterr().out)["shots"] == 3000
    assert {name: report[name] for name in AUDIT_NAMES} == dict.fromkeys(AUDIT_NAMES, 0)
    assert report["event_caps"] == 0 and report["time_caps"] == 0 and report["unresolved"] == 0
    assert report["events_max"] > 50  # the layouts and shots do reach the hard cases


@pytest.mark.slow
def test_soak_of_200_000_shots_is_clean() -> None:
    report = soak.run(200_000, seed=12)
    assert {name: report[name] for name in AUDIT_NAMES} == dict.fromkeys(AUDIT_NAMES, 0)
    assert report["event_caps"] <= 2 and report["unresolved"] == 0


def test_a_short_airborne_soak_is_clean() -> None:
    report = soak.run_airborne(300, seed=0)
    assert report["with_a_ball_in_the_air"] > 100 and report["with_a_ball_off_the_table"] > 5
    assert not any(report[name] for name in AIR_AUDIT_NAMES), report["examples"]
    assert report["unresolved"] == 0 and report["caps"] == 0
