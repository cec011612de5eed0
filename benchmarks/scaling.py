"""Scaling out (the ``ray`` extra): a tournament on Ray against ``--jobs`` processes, and RLlib's sampling rate.

Prints JSON. ``tournament``: the same round robin played with ``--jobs N`` (a local process pool,
first, before Ray runs in the process) and on a local Ray instance with N CPUs, ``--repeats`` times
each; the median wall-clock time and matches per second of each, their ratio, and whether the
records are identical. Ray's
start-up and a warm-up round (its workers load numba's cache once and keep their agents) are
reported apart, outside the timing; the pool's start is inside it, as ``nineball tournament --jobs``
pays it for every pairing.
``sampling``: env steps per second of one in-process RLlib env runner (one torch and one numba
thread, as a one-CPU env-runner actor) sampling NineBall-v0 with the PPO module (``--envs`` tables:
the native vector env through the vector entry point, and Gymnasium's ``SyncVectorEnv`` of
copies), and of the two-player self-play env (RLlib's vector of ``--envs`` copies).

    python benchmarks/scaling.py --cpus 2 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

AGENTS = ("random", "ghost", "search:candidates=16,top=3,samples=4,refine=1,placements=2")


def _played(results) -> list:
    return [[(m.index, m.winner, m.score, m.racks) for m in r.matches] for r in results]


def tournament(cpus: int, matches: int, race: int, repeats: int, seed: int) -> dict:
    """Median seconds of the same round robin with ``jobs=cpus`` and on Ray with ``cpus`` CPUs."""
    from agents.arena.match import MatchConfig
    from agents.arena.ray_backend import connect
    from agents.arena.series import round_robin

    config = MatchConfig(race_to=race)
    n_matches = matches * len(AGENTS) * (len(AGENTS) - 1) // 2
    times: dict[str, list[float]] = {"jobs": [], "ray": []}
    for _ in range(repeats):  # first, while Ray is not running here: the pool forks its workers, as in the CLI
        start = time.perf_counter()
        local = round_robin(AGENTS, matches, config, seed, jobs=cpus, progress=False)
        times["jobs"].append(time.perf_counter() - start)
    start = time.perf_counter()
    with connect(None, num_cpus=cpus) as backend:
        ray_start_s = time.perf_counter() - start
        start = time.perf_counter()
        round_robin(AGENTS, 1, config, seed, progress=False, backend=backend)  # warm the workers (numba, agents)
        ray_warm_s = time.perf_counter() - start
        for _ in range(repeats):
            start = time.perf_counter()
            remote = round_robin(AGENTS, matches, config, seed, progress=False, backend=backend)
            times["ray"].append(time.perf_counter() - start)
    same = _played(local) == _played(remote)
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"agents": list(AGENTS), "matches": n_matches, "race_to": race, "cpus": cpus, "repeats": repeats,
            "seconds_median": med, "matches_per_s": {k: n_matches / v for k, v in med.items()},
            "ray_over_jobs_speed": med["jobs"] / med["ray"], "identical_records": same,
            "ray_start_s": ray_start_s, "ray_warm_up_s": ray_warm_s,
            "seconds_all": times}


def _runner_rate(config, steps: int, repeats: int) -> float:
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    cls = MultiAgentEnvRunner if config.is_multi_agent else SingleAgentEnvRunner
    runner = cls(config=config)
    try:
        runner.sample(num_timesteps=steps // 4)  # warm-up (numba, torch)
        rates = []
        for _ in range(repeats):
            start = time.perf_counter()
            episodes = runner.sample(num_timesteps=steps)
            elapsed = time.perf_counter() - start
            rates.append(sum(e.env_steps() if hasattr(e, "env_steps") else len(e) for e in episodes) / elapsed)
        return statistics.median(rates)
    finally:
        runner.stop()


def sampling(envs: int, steps: int, repeats: int) -> dict:
    """Env steps/s of one local env runner: native vector env vs SyncVectorEnv, and self-play."""
    import dataclasses

    from agents.training.rllib import Args, ppo_config

    import torch

    torch.set_num_threads(1)  # as in a Ray env-runner actor (OMP_NUM_THREADS=1 for one CPU)
    base = Args(env_runners=0, envs_per_runner=envs, noise="icga")
    native = ppo_config(base)
    native.environment(env_config={**native.env_config, "threads": 1})  # one numba thread, as the actor's one CPU
    sync = ppo_config(base).env_runners(gym_env_vectorize_mode="sync")
    selfplay = ppo_config(dataclasses.replace(base, selfplay=True))
    return {"envs_per_runner": envs, "steps": steps, "repeats": repeats,
            "env_steps_per_s": {"native_vector": _runner_rate(native, steps, repeats),
                                "sync_vector": _runner_rate(sync, steps, repeats),
                                "selfplay": _runner_rate(selfplay, steps, repeats)}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cpus", type=int, default=2, help="worker processes / Ray CPUs (default 2)")
    parser.add_argument("--matches", type=int, default=4, help="matches per pairing (default 4)")
    parser.add_argument("--race", type=int, default=2, help="race length (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8, help="tables per env runner for the sampling figure")
    parser.add_argument("--steps", type=int, default=2000, help="env steps per timed sample (default 2000)")
    parser.add_argument("--only", choices=("tournament", "sampling"), help="run one of the two")
    args = parser.parse_args(argv)
    report = {}
    if args.only in (None, "tournament"):
        report["tournament"] = tournament(args.cpus, args.matches, args.race, args.repeats, args.seed)
    if args.only in (None, "sampling"):
        report["sampling"] = sampling(args.envs, args.steps, args.repeats)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
