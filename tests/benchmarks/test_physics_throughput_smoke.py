"""Smoke tests of benchmarks/physics_throughput.py's side-by-side cushion-model timing."""

from __future__ import annotations

import pytest

from benchmarks import physics_throughput as bench


def test_two_cushion_models_side_by_side(capsys):
    out = bench.main(["--skip-startup", "--breaks", "1", "--shots", "3", "--repeats", "2",
                      "--cushion-model", "stronge", "han2005"])
    capsys.readouterr()
    assert out["cushion_model"] == "stronge"
    assert set(out["by_cushion_model"]) == {"stronge", "han2005"}
    assert out["by_cushion_model"]["stronge"]["shot_ms_median"] == out["shot_ms_median"]
    ratio = out["shot_ms_ratio"]["stronge/han2005"]
    by = out["by_cushion_model"]
    # the ratio is the first model's time over the other's (not the other way round), from the medians it reports
    # (those are rounded to 0.1 us, some 0.4 % of a shot's 25 us)
    assert ratio["ratio_of_medians"] == pytest.approx(by["stronge"]["shot_ms_median"] / by["han2005"]["shot_ms_median"],
                                                      rel=1e-2)
    assert 0.05 < ratio["median_of_ratios"] < 20.0  # the same shots under two cushion models: not orders apart


def test_default_run_times_the_default_model_only(capsys):
    out = bench.main(["--skip-startup", "--breaks", "1", "--shots", "2", "--repeats", "1"])
    capsys.readouterr()
    assert out["cushion_model"] == "stronge" and "by_cushion_model" not in out


@pytest.mark.parametrize("models", [["nope"], ["han2005", "han2005"]])
def test_bad_cushion_model_is_rejected(models, capsys):
    with pytest.raises(SystemExit):
        bench.main(["--skip-startup", "--cushion-model", *models])
    assert "--cushion-model" in capsys.readouterr().err
