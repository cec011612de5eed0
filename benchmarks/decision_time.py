"""Time per decision of agents side by side, on the same positions: a match report times each player on the
positions it met, this times every agent on every position, alternated (A B A B ...), medians of the passes.

The positions are the decisions of both players in ``--matches`` races between the first two agents (seeded as
``nineball match`` seeds them). Prints JSON: per agent the median milliseconds per decision over the passes, every
pass, and its ratio to the first agent.

    taskset -c 1 python benchmarks/decision_time.py value search --matches 10 --seed 27006 --passes 3
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.arena.match import MatchConfig, play_match
from agents.protocol import Agent, BaseAgent, TableView
from agents.registry import make_agent
from nineball_env.noise import make_noise


class _Recorder(BaseAgent):
    """Plays as the agent it wraps (given the view, as the match runner gives its agents) and keeps every position
    (observation and view) it is asked to decide."""

    def __init__(self, agent: Agent, positions: list[tuple[np.ndarray, TableView | None]]) -> None:
        super().__init__()
        self.agent, self.positions, self.name = agent, positions, getattr(agent, "name", "agent")

    def seed(self, seed: int | None = None) -> None:
        self.agent.seed(seed)

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        self.positions.append((observation, view))
        action = self.agent.act(observation, view)
        self.intent = getattr(self.agent, "intent", None)
        return action


def record_positions(spec_a: str, spec_b: str, matches: int, seed: int, race: int = 3,
                     noise: str = "icga") -> list[tuple[np.ndarray, TableView | None]]:
    """The positions (observation, view) both players decided in ``matches`` races between ``spec_a`` and
    ``spec_b``."""
    positions: list[tuple[np.ndarray, TableView | None]] = []
    config = MatchConfig(race_to=race, noise=make_noise(noise))
    a, b = _Recorder(make_agent(spec_a), positions), _Recorder(make_agent(spec_b), positions)
    for index in range(matches):
        play_match(a, b, config, seed=seed, index=index)
    return positions


def time_agents(specs: list[str], positions: list[tuple[np.ndarray, TableView | None]], passes: int,
                seed: int) -> dict[str, list[float]]:
    """Milliseconds per decision of each agent over ``positions``, one entry per pass, the agents alternated (a name
    given twice is timed once)."""
    specs = list(dict.fromkeys(specs))
    agents = [make_agent(spec) for spec in specs]
    for agent in agents:  # compile and warm before timing
        agent.seed(seed)
        for observation, view in positions[:3]:
            agent.act(observation, view)
    ms: dict[str, list[float]] = {spec: [] for spec in specs}
    for p in range(passes):
        for spec, agent in zip(specs, agents):
            agent.seed(seed + p)
            start = time.perf_counter()
            for observation, view in positions:
                agent.act(observation, view)
            ms[spec].append(1000.0 * (time.perf_counter() - start) / len(positions))
    return ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="+", help="agents to time (the first two play the matches)")
    parser.add_argument("--matches", type=int, default=10, help="races that supply the positions (default 10)")
    parser.add_argument("--race", type=int, default=3, help="racks needed to win a race (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the races and the agents (default 0)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the positions per agent (default 3)")
    parser.add_argument("--noise", default="icga", help="execution noise preset (default icga)")
    args = parser.parse_args(argv)
    if len(args.agents) < 2:
        parser.error("agents: name at least two (the first two play the races that supply the positions)")
    if args.matches < 1 or args.passes < 1:
        parser.error("--matches and --passes must be at least 1")
    positions = record_positions(args.agents[0], args.agents[1], args.matches, args.seed, args.race, args.noise)
    ms = time_agents(args.agents, positions, args.passes, args.seed)
    first = float(np.median(ms[args.agents[0]]))
    report = {"positions": len(positions), "matches": args.matches, "seed": args.seed, "passes": args.passes,
              "agents": {spec: {"median_ms": float(np.median(v)), "passes_ms": v,
                                "ratio_to_first": float(np.median(v)) / first} for spec, v in ms.items()}}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
