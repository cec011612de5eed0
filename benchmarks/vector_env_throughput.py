"""Vector env throughput: NineBallVectorEnv (batch kernel) vs SyncVectorEnv of B NineBall-v0 envs.

Prints JSON: env steps per second (one step = one learner decision on one table, the opponent's
decisions and autoresets included) for B tables, random learner actions, against the default
opponent (``AimingPolicy``) unless ``--opponent random``. ``threads=1`` runs are pinned to one CPU
(per-core figures); ``threads=2`` runs may use two CPUs (SyncVectorEnv is single-threaded either way).
Run: python benchmarks/vector_env_throughput.py [--sizes 8 32 128] [--seconds 3] [--opponent aiming|random]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import nineball_env  # noqa: E402,F401  (registers NineBall-v0)
from agents.players.random_agent import RandomAgent  # noqa: E402
from nineball_env.vector import NineBallVectorEnv  # noqa: E402


def _opponent_kwargs(opponent: str, seed: int) -> dict:
    return {"opponent": RandomAgent(seed + 1)} if opponent == "random" else {}


def _time(envs, B: int, seconds: float, seed: int) -> dict:
    """Step ``envs`` with random actions for about ``seconds`` (after a warm-up); env steps per second."""
    rng = np.random.default_rng(seed)
    envs.reset(seed=seed)
    for _ in range(max(3, 64 // B)):  # warm-up: numba compilation / cache loading
        envs.step(rng.uniform(-1, 1, (B, 9)).astype(np.float32))
    steps, clock = 0, time.perf_counter
    start = clock()
    while clock() - start < seconds:
        envs.step(rng.uniform(-1, 1, (B, 9)).astype(np.float32))
        steps += 1
    total = clock() - start
    return {"vector_steps": steps, "env_steps_per_s": round(steps * B / total, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", choices=("aiming", "random"), default="aiming")
    parser.add_argument("--noise", choices=("none", "icga"), default="none")
    args = parser.parse_args()
    all_cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    results = []
    for B in args.sizes:
        row: dict = {"B": B}
        if all_cpus:
            os.sched_setaffinity(0, {all_cpus[0]})
        sync = gym.vector.SyncVectorEnv([
            (lambda: gym.make("NineBall-v0", noise=args.noise, **_opponent_kwargs(args.opponent, args.seed)))
            for _ in range(B)])
        row["sync_vector_env_1core"] = _time(sync, B, args.seconds, args.seed)
        sync.close()
        for threads in args.threads:
            if all_cpus:
                os.sched_setaffinity(0, set(all_cpus[:threads]) if threads > 1 else {all_cpus[0]})
            venv = NineBallVectorEnv(B, threads=threads, noise=args.noise, **_opponent_kwargs(args.opponent, args.seed))
            row[f"native_threads{threads}"] = _time(venv, B, args.seconds, args.seed)
            row[f"speedup_threads{threads}"] = round(
                row[f"native_threads{threads}"]["env_steps_per_s"] / row["sync_vector_env_1core"]["env_steps_per_s"], 2)
        results.append(row)
    if all_cpus:
        os.sched_setaffinity(0, set(all_cpus))
    print(json.dumps({"results": results, "opponent": args.opponent, "noise": args.noise, "seconds": args.seconds,
                      "cpus": len(all_cpus) if all_cpus else os.cpu_count(), "python": platform.python_version(),
                      "machine": platform.machine()}, indent=2))


if __name__ == "__main__":
    main()
