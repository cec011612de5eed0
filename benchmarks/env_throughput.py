"""Env throughput: NineBall-v0 steps per second with a random learner, and the physics' own rate in the same run.

Prints JSON. A step is one learner decision plus the opponent's decisions that follow it, resets included (as an
RL loop sees them). ``reset_us_*`` time ``env.reset()`` alone with the garbage collector on, as a training loop runs
it: the mean and median of all resets, and apart the resets in which the opponent broke (its break, ~10 shots' physics,
is played inside ``reset``) and those in which the learner breaks (no physics at all); ``reset_gc_collections`` counts
the collections that ran during them. The
physics' share: the same seeded steps are played again and every shot they simulated (start state and strike,
read off the turn's decision records) is simulated once more by the physics alone
(``physics.simulate_batch_packed``, one thread); ``physics_us_per_step`` is that time per step, ``physics_share``
its part of a step. The process is pinned to one CPU where the OS allows it.
Run: python benchmarks/env_throughput.py [--steps 5000] [--opponent aiming|random] [--noise none|icga]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from benchmarks.provenance import provenance  # noqa: E402
from agents.players.random_agent import RandomAgent  # noqa: E402
from nineball_env.env import NineBallEnv  # noqa: E402
from nineball_env.kernels.codes import RecF, RecI  # noqa: E402


def _env(opponent: str, noise: str, seed: int) -> NineBallEnv:
    return NineBallEnv(opponent=RandomAgent(seed + 1) if opponent == "random" else None, noise=noise)


def _shots(env: NineBallEnv) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The start states and strikes of the shots of the env's last step or reset (its decision records)."""
    t = env._tables
    states, strikes = [], []
    for i in range(int(t.n_rec[0])):
        if t.rec_i[0, i, RecI.SHOT]:
            states.append(t.rec_f[0, i, RecF.START:].reshape(10, 9).copy())
            strikes.append(t.rec_f[0, i, RecF.SHOT:RecF.SHOT + 5].copy())
    return states, strikes


def run(steps: int, seed: int, opponent: str, noise: str) -> dict:
    """Time ``steps`` random learner decisions (after a warm-up), then the physics of the same steps alone."""
    env = _env(opponent, noise, seed)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(200):  # warm-up: numba compilation / cache loading, first allocations
        if env.step(rng.uniform(-1, 1, 9).astype(np.float32))[2]:
            env.reset()
    acts = rng.uniform(-1, 1, (steps, 9)).astype(np.float32)
    replay = env.clone()  # the same steps again, for their shots
    per_step = np.empty(steps)
    episodes = opponent_decisions = events = 0
    clock = time.perf_counter
    begin = clock()
    for i in range(steps):
        t0 = clock()
        _, _, term, trunc, info = env.step(acts[i])
        opponent_decisions += info["opponent"]["decisions"]
        events += info["n_events"]
        if term or trunc:
            episodes += 1
            _, reset_info = env.reset()
            opponent_decisions += reset_info["opponent"]["decisions"]
        per_step[i] = clock() - t0
    total = clock() - begin
    resets, broke, collections = [], [], [0]

    def count(phase: str, _info: dict) -> None:
        collections[0] += phase == "start"

    gc.enable()
    gc.callbacks.append(count)
    try:
        for _ in range(min(steps, 2000)):
            t0 = clock()
            _, reset_info = env.reset()
            resets.append(clock() - t0)
            broke.append(reset_info["opponent"]["decisions"] > 0)
    finally:
        gc.callbacks.remove(count)
    resets_us, broke = np.array(resets) * 1e6, np.array(broke)
    # the physics of the same steps alone
    env, states, strikes = replay, [], []
    for i in range(steps):
        if env.step(acts[i])[2]:
            s, h = _shots(env)
            states += s
            strikes += h
            env.reset()
        s, h = _shots(env)
        states += s
        strikes += h
    packed, rows = np.array(states), np.array(strikes)
    physics_s = min(physics_seconds(packed, rows) for _ in range(3))
    return {
        "steps": steps,
        "seconds": round(total, 3),
        "steps_per_s": round(steps / total, 1),
        "ms_per_step_median": round(float(np.median(per_step)) * 1e3, 4),
        "ms_per_step_p90": round(float(np.quantile(per_step, 0.9)) * 1e3, 4),
        "reset_us_mean": round(float(np.mean(resets_us)), 1),
        "reset_us_median": round(float(np.median(resets_us)), 1),
        "reset_opponent_breaks_us_mean": _mean(resets_us[broke]),
        "reset_opponent_breaks_us_median": _median(resets_us[broke]),
        "reset_learner_breaks_us_mean": _mean(resets_us[~broke]),
        "reset_learner_breaks_us_median": _median(resets_us[~broke]),
        "reset_opponent_break_share": round(float(broke.mean()), 3),
        "reset_gc_collections": collections[0],
        "decisions_per_step": round((steps + opponent_decisions) / steps, 3),
        "shots_per_step": round(len(rows) / steps, 3),
        "steps_per_episode": round(steps / max(episodes, 1), 2),
        "learner_events_per_step": round(events / steps, 2),
        "physics_us_per_step": round(physics_s / steps * 1e6, 1),
        "physics_share": round(physics_s / total, 3),
        "opponent": opponent,
        "noise": noise,
        "seed": seed,
    }


def _mean(us: np.ndarray) -> float | None:
    return round(float(us.mean()), 1) if us.size else None


def _median(us: np.ndarray) -> float | None:
    return round(float(np.median(us)), 1) if us.size else None


def physics_seconds(packed: np.ndarray, rows: np.ndarray, threads: int = 1, chunk: int = 128) -> float:
    """Seconds the physics alone takes for these shots (start states (n, 10, 9), strikes (n, 5)), simulated in
    batches of ``chunk`` by ``physics.simulate_batch_packed`` (the Python around each batch call included)."""
    physics.simulate_batch_packed(packed[:1], rows[:1], threads=threads)  # first-call costs out
    t0 = time.perf_counter()
    for i in range(0, len(rows), chunk):
        physics.simulate_batch_packed(packed[i:i + chunk], rows[i:i + chunk], threads=threads, log_capacity=256)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", choices=("aiming", "random"), default="aiming")
    parser.add_argument("--noise", choices=("none", "icga"), default="none")
    parser.add_argument("--repeats", type=int, default=3, help="runs; the median is reported, all are listed")
    args = parser.parse_args()
    cpu = None
    if hasattr(os, "sched_setaffinity"):
        cpu = max(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    runs = [run(args.steps, args.seed, args.opponent, args.noise) for _ in range(args.repeats)]
    median = sorted(runs, key=lambda r: r["steps_per_s"])[len(runs) // 2]
    out = {**median, "steps_per_s_runs": [r["steps_per_s"] for r in runs],
           "reset_us_mean_runs": [r["reset_us_mean"] for r in runs],
           "reset_learner_breaks_us_median_runs": [r["reset_learner_breaks_us_median"] for r in runs],
           "physics_share_median": statistics.median(r["physics_share"] for r in runs), "pinned_cpu": cpu,
           **provenance()}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
