"""benchmarks/run_out.py runs a few racks and prints its JSON report (a smoke test, not a figure)."""

from __future__ import annotations

import json

from benchmarks import run_out


def test_run_out_prints_a_consistent_report(capsys) -> None:
    run_out.main(["--racks", "2", "--seed", "3", "--config", '{"samples": 4, "candidates": 32, "top": 4}'])
    report = json.loads(capsys.readouterr().out)
    assert report["racks"] == 2 and 0 <= report["run_outs"] <= 2
    assert sum(report["ends"].values()) == 2
    lo, hi = report["wilson95"]
    assert 0.0 <= lo <= report["rate"] <= hi <= 1.0
    assert report["decisions"] >= 2 and report["mean_decision_ms"] > 0
