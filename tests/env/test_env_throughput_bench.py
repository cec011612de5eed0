"""benchmarks/env_throughput.py reports reset times apart by who broke, with the garbage collector on."""

from __future__ import annotations

import gc

from benchmarks import env_throughput


def test_the_reset_times_split_by_who_broke_and_the_collector_stays_on() -> None:
    out = env_throughput.run(40, seed=0, opponent="aiming", noise="none")
    share = out["reset_opponent_break_share"]
    assert 0.0 < share < 1.0  # 40 resets with a drawn breaker: both kinds (seed 0)
    assert out["reset_opponent_breaks_us_median"] > out["reset_learner_breaks_us_median"] > 0.0
    whole = share * out["reset_opponent_breaks_us_mean"] + (1 - share) * out["reset_learner_breaks_us_mean"]
    assert abs(whole - out["reset_us_mean"]) <= 0.01 * out["reset_us_mean"] + 0.2  # the parts make the whole
    assert out["reset_gc_collections"] >= 0 and gc.isenabled()
    assert out["steps"] == 40 and out["steps_per_s"] > 0.0
