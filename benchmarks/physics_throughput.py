"""Physics throughput: break and ordinary-shot times, µs per event, compile and cached start.

Prints JSON. Fixed, seeded sets of breaks and random ordinary shots; medians of repeated
timings per shot (warm, after compilation). Run: python benchmarks/physics_throughput.py

``--cushion-model stronge han2005`` times several cushion models side by side in one run: each shot's
repeats alternate between the models run by run (the order flips every repeat), the top-level figures are
the first model's, and ``by_cushion_model`` / ``shot_ms_ratio`` compare the others with it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dataclasses import replace

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from physics.params import CUSHION_MODELS, PhysicsParams  # noqa: E402
from physics.samples import break_shots, ordinary_shots  # noqa: E402


def time_shots(shots, repeats: int, params: list[PhysicsParams] | None = None) -> tuple[list[list[float]], list[int]]:
    """Median wall time [s] per shot over ``repeats`` runs for each of ``params`` (default: the default
    parameters), the parameter sets alternating run by run in an order that flips every repeat, so
    none of them sees the caches warmer; and the first set's event counts."""
    params = params or [physics.DEFAULT_PARAMS]
    times: list[list[float]] = [[] for _ in params]
    events = []
    for state, shot in shots:
        samples: list[list[float]] = [[] for _ in params]
        for k in range(repeats):
            order = range(len(params)) if k % 2 == 0 else range(len(params) - 1, -1, -1)
            for j in order:
                t0 = time.perf_counter()
                result = physics.simulate(state, shot, physics.DEFAULT_TABLE, params[j])
                samples[j].append(time.perf_counter() - t0)
                if j == 0:
                    n_events = len(result.events)
        for j in range(len(params)):
            times[j].append(statistics.median(samples[j]))
        events.append(n_events)
    return times, events


def startup_seconds(fresh_cache: bool) -> float:
    """Seconds for a new interpreter to import physics and simulate one break (cold: empty numba cache)."""
    env = dict(os.environ)
    tmp = None
    if fresh_cache:
        tmp = tempfile.mkdtemp(prefix="nineball-numba-")
        env["NUMBA_CACHE_DIR"] = tmp
    code = ("import numpy as np, physics; s = physics.nine_ball_rack(np.random.default_rng(0)); "
            "physics.simulate(s, physics.Shot(V0=8.0, phi=90.0))")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
    elapsed = time.perf_counter() - t0
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    return elapsed


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--breaks", type=int, default=50)
    parser.add_argument("--shots", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-startup", action="store_true", help="skip the cold-compile and cached-start runs")
    parser.add_argument("--cushion-model", nargs="+", choices=CUSHION_MODELS, default=None, metavar="MODEL",
                        help=f"cushion model(s) to time, alternating run by run (one of {', '.join(CUSHION_MODELS)}; "
                             "default: the default parameters' model); the first one's figures are the top-level ones")
    args = parser.parse_args(argv)
    models = args.cushion_model or [physics.DEFAULT_PARAMS.cushion_model]
    if len(set(models)) != len(models):
        parser.error(f"--cushion-model: each model at most once, got {models}")
    params = [replace(physics.DEFAULT_PARAMS, cushion_model=m) for m in models]
    out: dict = {}
    if not args.skip_startup:
        out["cold_compile_s"] = round(startup_seconds(fresh_cache=True), 3)
        startup_seconds(fresh_cache=False)  # make sure the default cache is populated
        out["cached_start_s"] = round(startup_seconds(fresh_cache=False), 3)
    breaks = break_shots(args.breaks, args.seed)
    shots = ordinary_shots(args.shots, args.seed + 1)
    for prm in params:
        physics.simulate(*breaks[0], physics.DEFAULT_TABLE, prm)  # compile / load
    b_times, b_events = time_shots(breaks, args.repeats, params)
    s_times, s_events = time_shots(shots, args.repeats, params)
    per_event = [t / e for t, e in zip(b_times[0] + s_times[0], b_events + s_events)]
    out.update(
        cushion_model=models[0],
        break_ms_median=round(statistics.median(b_times[0]) * 1e3, 4),
        shot_ms_median=round(statistics.median(s_times[0]) * 1e3, 4),
        us_per_event_median=round(statistics.median(per_event) * 1e6, 3),
        shots_per_s=round(1.0 / statistics.median(s_times[0]), 1),
        breaks_per_s=round(1.0 / statistics.median(b_times[0]), 1),
        events_per_break_median=statistics.median(b_events),
        events_per_break_max=max(b_events),
        events_per_shot_median=statistics.median(s_events),
        n_breaks=args.breaks, n_shots=args.shots, repeats=args.repeats, seed=args.seed,
    )
    if len(models) > 1:
        out["by_cushion_model"] = {
            m: {"break_ms_median": round(statistics.median(b_times[j]) * 1e3, 4),
                "shot_ms_median": round(statistics.median(s_times[j]) * 1e3, 4)}
            for j, m in enumerate(models)
        }
        # each model's ordinary-shot time against the first model's: median of per-shot ratios, ratio of medians
        out["shot_ms_ratio"] = {
            f"{models[0]}/{m}": {
                "median_of_ratios": round(statistics.median([a / b for a, b in zip(s_times[0], s_times[j])]), 4),
                "ratio_of_medians": round(statistics.median(s_times[0]) / statistics.median(s_times[j]), 4),
            }
            for j, m in enumerate(models) if j > 0
        }
    print(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
