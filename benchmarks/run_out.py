"""Break-and-run rate of SearchAgent, fast: it breaks N racks alone and shoots until the turn would pass.

A rack counts as run out when the breaker wins it before the opponent would come to the table
(the ``nineball match`` definition). Prints JSON: the rate with its Wilson interval, how the other
innings ended (break foul, dry break, missed pot, safety, push-out, foul) and the mean decision time.

    taskset -c 1 python benchmarks/run_out.py --racks 200 --seed 0
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from collections import Counter

import numpy as np

from agents.arena.stats import wilson
from agents.protocol import TableView
from nineball_env.game import Game, GameConfig
from nineball_env.noise import make_noise
from nineball_env.rules import Declaration, Phase


CALIBRATION: list[tuple[float, float, bool, int]] = []  # (estimated success, value, made, decision) per pot


def run_rack(agent, seed: int, index: int, noise) -> tuple[str, list[float], int]:
    """Play one rack from the break; how the inning ended, the decision times and balls left."""
    game_ss, noise_ss, agent_ss = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(3)
    game = Game(GameConfig(), np.random.default_rng(game_ss), 0, noise)
    noise_rng = np.random.default_rng(noise_ss)
    agent.seed(int(agent_ss.generate_state(1)[0]))
    times: list[float] = []
    while True:
        rack = game.rack
        view = TableView.from_game(game, noise)
        start = time.perf_counter()
        action = agent.decide(view)
        times.append(time.perf_counter() - start)
        breaking = rack.phase is Phase.BREAK
        outcome = game.play(0, action, noise_rng)
        ruling = outcome.ruling
        if not breaking and agent.intent == "pot" and agent.last_plan is not None:
            made = not ruling.foul and any(b != 0 for b in ruling.pocketed)
            CALIBRATION.append((agent.last_plan.success, agent.last_plan.value, made, len(times)))
        left = sum(1 for b in range(1, 10) if b in ruling.after.on_table) if not ruling.after.over else 0
        if outcome.rack_winner is not None:
            return ("run-out" if outcome.rack_winner == 0 else "lost"), times, left
        if ruling.next_shooter == 0:
            continue
        if breaking:
            return ("break foul" if ruling.foul else "dry break"), times, left
        if ruling.declaration is Declaration.PUSH_OUT:
            return "push-out", times, left
        if ruling.foul:
            return f"foul ({agent.intent})", times, left
        return ("missed pot" if agent.intent == "pot" else agent.intent or "other"), times, left


def _calibration() -> dict[str, list]:
    """Pot attempts by estimated success: [attempts, made, mean estimate]."""
    out = {}
    for lo, hi in ((0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.01)):
        rows = [c for c in CALIBRATION if lo <= c[0] < hi]
        if rows:
            out[f"{lo:.2f}-{min(hi, 1):.2f}"] = [len(rows), sum(c[2] for c in rows),
                                                 round(float(np.mean([c[0] for c in rows])), 3)]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--racks", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--noise", default="icga")
    ap.add_argument("--config", default="{}", help="SearchConfig overrides as JSON")
    ap.add_argument("--agent", default="agents.players.search", help="module holding SearchAgent and SearchConfig")
    args = ap.parse_args(argv)
    noise = make_noise(args.noise)
    module = importlib.import_module(args.agent)
    agent = module.SearchAgent(module.SearchConfig(**json.loads(args.config)))
    ends: Counter = Counter()
    left: Counter = Counter()
    times: list[float] = []
    wall = time.perf_counter()
    for i in range(args.racks):
        end, t, n_left = run_rack(agent, args.seed, i, noise)
        ends[end] += 1
        times += t
        if end != "run-out":
            left[f"{end} @{len(t)}"] += 1
    k = ends["run-out"]
    rate = wilson(k, args.racks)
    lo, hi = rate.lo, rate.hi
    print(json.dumps({
        "racks": args.racks, "seed": args.seed, "run_outs": k, "rate": k / args.racks,
        "wilson95": [round(lo, 4), round(hi, 4)], "ends": dict(ends.most_common()),
        "end_at_decision": dict(sorted(left.items())),
        "mean_decision_ms": 1000 * float(np.mean(times)), "decisions": len(times),
        "wall_s": time.perf_counter() - wall,
        "pot_calibration": _calibration(),
    }, indent=1))


if __name__ == "__main__":
    main()
