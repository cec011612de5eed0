"""Vector env throughput: NineBallVectorEnv env steps per second on 1 and 2 threads, and the physics' own rate.

Prints JSON: env steps per second (one step = one learner decision on one table, the opponent's decisions and
autoresets included) for B tables, random learner actions, against the default opponent (``AimingPolicy``, decided
inside the compiled turn) unless ``--opponent random`` (a Python opponent, asked once per round). Runs on 1 thread
are pinned to one CPU, runs on 2 threads to two. The physics' share: the same seeded steps are played again and
every shot they simulated (start state and strike, read off the turn's decision records) is simulated once more by
the physics alone, in batches of B (``physics.simulate_batch_packed``) on the same threads; ``physics_share`` is
that time over the vector steps' time. ``--sync`` adds a ``SyncVectorEnv`` of B ``NineBall-v0`` envs for comparison.
Run: python benchmarks/vector_env_throughput.py [--sizes 8 32 128] [--seconds 3] [--opponent aiming|random]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import nineball_env  # noqa: E402,F401  (registers NineBall-v0)
import physics  # noqa: E402
from benchmarks.provenance import provenance  # noqa: E402
from agents.players.random_agent import RandomAgent  # noqa: E402
from nineball_env.kernels.codes import RecF, RecI  # noqa: E402
from nineball_env.vector import NineBallVectorEnv  # noqa: E402


def _opponent_kwargs(opponent: str, seed: int) -> dict:
    return {"opponent": RandomAgent(seed + 1)} if opponent == "random" else {}


def _time(envs, B: int, seconds: float, seed: int) -> tuple[dict, list[np.ndarray]]:
    """Step ``envs`` with random actions for about ``seconds`` (after a warm-up): env steps per second, and the
    actions it took (to play the same steps again)."""
    rng = np.random.default_rng(seed)
    envs.reset(seed=seed)
    for _ in range(max(3, 64 // B)):  # warm-up: numba compilation / cache loading
        envs.step(rng.uniform(-1, 1, (B, 9)).astype(np.float32))
    acts, clock = [], time.perf_counter
    start = clock()
    while clock() - start < seconds:
        acts.append(rng.uniform(-1, 1, (B, 9)).astype(np.float32))
        envs.step(acts[-1])
    total = clock() - start
    timing = {"vector_steps": len(acts), "seconds": round(total, 3), "env_steps_per_s": round(len(acts) * B / total, 1)}
    return timing, acts


def _shots(venv: NineBallVectorEnv) -> tuple[np.ndarray, np.ndarray]:
    """The start states and strikes of every shot of the vector env's last step (its decision records)."""
    t = venv.tables
    shot = (np.arange(t.rec_i.shape[1])[None, :] < t.n_rec[:, None]) & (t.rec_i[:, :, RecI.SHOT] != 0)
    rows = t.rec_f[shot]
    return rows[:, RecF.START:].reshape(-1, 10, 9), rows[:, RecF.SHOT:RecF.SHOT + 5]


def physics_seconds(venv: NineBallVectorEnv, seed: int, acts: list[np.ndarray], threads: int) -> tuple[float, int]:
    """Seconds the physics alone takes for the shots of the vector steps ``acts`` (played again from the same seed
    on ``venv``), in batches of B on ``threads``; and how many shots."""
    rng = np.random.default_rng(seed)
    venv.reset(seed=seed)
    for _ in range(max(3, 64 // venv.num_envs)):
        venv.step(rng.uniform(-1, 1, (venv.num_envs, 9)).astype(np.float32))
    states, strikes = [], []
    for a in acts:
        venv.step(a)
        s, h = _shots(venv)
        states.append(s)
        strikes.append(h)
    packed, rows = np.concatenate(states), np.concatenate(strikes)
    B = venv.num_envs
    physics.simulate_batch_packed(packed[:B], rows[:B], threads=threads, log_capacity=256)
    t0 = time.perf_counter()
    for i in range(0, len(rows), B):
        physics.simulate_batch_packed(packed[i:i + B], rows[i:i + B], threads=threads, log_capacity=256)
    return time.perf_counter() - t0, len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", choices=("aiming", "random"), default="aiming")
    parser.add_argument("--noise", choices=("none", "icga"), default="none")
    parser.add_argument("--sync", action="store_true", help="also time a SyncVectorEnv of B NineBall-v0 envs")
    args = parser.parse_args()
    all_cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    results = []
    for B in args.sizes:
        row: dict = {"B": B}
        if args.sync:
            if all_cpus:
                os.sched_setaffinity(0, {all_cpus[-1]})
            sync = gym.vector.SyncVectorEnv([
                (lambda: gym.make("NineBall-v0", noise=args.noise, **_opponent_kwargs(args.opponent, args.seed)))
                for _ in range(B)])
            row["sync_vector_env_1core"] = _time(sync, B, args.seconds, args.seed)[0]
            sync.close()
        for threads in args.threads:
            if all_cpus:
                os.sched_setaffinity(0, set(all_cpus[-threads:]))
            venv = NineBallVectorEnv(B, threads=threads, noise=args.noise, **_opponent_kwargs(args.opponent, args.seed))
            timing, acts = _time(venv, B, args.seconds, args.seed)
            phys_s, n_shots = physics_seconds(
                NineBallVectorEnv(B, threads=threads, noise=args.noise, **_opponent_kwargs(args.opponent, args.seed)),
                args.seed, acts, threads)
            timing.update(shots_per_env_step=round(n_shots / (len(acts) * B), 3),
                          physics_env_steps_per_s=round(len(acts) * B / phys_s, 1),
                          physics_share=round(phys_s / timing["seconds"], 3))
            row[f"native_threads{threads}"] = timing
        if 1 in args.threads and 2 in args.threads:
            row["threads2_over_threads1"] = round(row["native_threads2"]["env_steps_per_s"]
                                                  / row["native_threads1"]["env_steps_per_s"], 3)
        results.append(row)
    if all_cpus:
        os.sched_setaffinity(0, set(all_cpus))
    print(json.dumps({"results": results, "opponent": args.opponent, "noise": args.noise, "seconds": args.seconds,
                      "cpus": len(all_cpus) if all_cpus else os.cpu_count(), **provenance()}, indent=2))


if __name__ == "__main__":
    main()
