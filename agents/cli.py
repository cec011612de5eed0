"""The ``nineball`` command line: simulate a shot, play matches between agents."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np


def _shot_command(args: argparse.Namespace) -> int:
    """Simulate one shot (a break by default) and print its events and outcome."""
    import physics

    rng = np.random.default_rng(args.seed)
    table = {"9ft": physics.Table.nine_foot, "8ft": physics.Table.eight_foot, "7ft": physics.Table.seven_foot}[args.table]()
    state = physics.nine_ball_rack(rng, table)
    try:
        shot = physics.Shot(V0=args.speed, phi=args.phi, theta=args.theta, a=args.a, b=args.b)
    except ValueError as err:
        print(f"nineball shot: {err}", file=sys.stderr)
        return 2
    result = physics.simulate(state, shot, table)
    summary = {
        "events": len(result.events),
        "duration_s": round(result.duration, 4),
        "pocketed": [{"ball": e.ball_a, "pocket": physics.POCKET_NAMES[e.target], "t": round(e.time, 4)}
                     for e in result.events.of_kind(physics.EventKind.BALL_POCKET)],
        "off_table": [e.ball_a for e in result.events.of_kind(physics.EventKind.BALL_OFF_TABLE)],
        "airborne": len(result.events.of_kind(physics.EventKind.BALL_AIRBORNE)),
        "first_contact": next(([e.ball_a, e.ball_b] for e in result.events
                               if e.kind == physics.EventKind.BALL_BALL), None),
        "hit_event_cap": result.hit_event_cap,
        "hit_time_cap": result.hit_time_cap,
        "final_positions": {int(b): [round(float(x), 4), round(float(y), 4)]
                            for b, (x, y) in enumerate(result.state.pos) if result.state.on_table()[b]},
    }
    if args.events:
        summary["log"] = [[round(e.time, 6), e.kind.name, e.ball_a, e.ball_b, e.target] for e in result.events]
    print(json.dumps(summary, indent=2))
    if args.png:
        from nineball_env.render import Renderer, save_png

        save_png(Renderer(table).draw(result.state, result), args.png)
        print(f"wrote {args.png}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nineball", description="Nine-ball pool: physics, rules, agents.")
    sub = parser.add_subparsers(dest="command", required=True)
    shot = sub.add_parser("shot", help="simulate one shot from a fresh rack (default: a break) and print the outcome")
    shot.add_argument("--speed", type=float, default=8.0, help="cue speed V0 [m/s] (default 8)")
    shot.add_argument("--phi", type=float, default=90.0, help="aim [deg], counter-clockwise from +x (default 90: up the table)")
    shot.add_argument("--theta", type=float, default=0.0, help="cue elevation [deg]")
    shot.add_argument("--a", type=float, default=0.0, help="side english, fraction of R")
    shot.add_argument("--b", type=float, default=0.0, help="follow (+) / draw (-), fraction of R")
    shot.add_argument("--seed", type=int, default=0, help="seed of the rack order")
    shot.add_argument("--table", choices=("9ft", "8ft", "7ft"), default="9ft")
    shot.add_argument("--events", action="store_true", help="include the full event log")
    shot.add_argument("--png", metavar="PATH", help="also draw the table with the shot's trajectories to this PNG")
    shot.set_defaults(func=_shot_command)

    match = sub.add_parser("match", help="play races between two agents and print the result table",
                           description="Races between two agents (alternating breaks, the same noise for both), "
                                       "then a table of match wins with 95 % Wilson intervals, racks won, "
                                       "break-and-run, legal pots, fouls and shots per rack, time per decision. "
                                       "Agents: " + _AGENT_HELP)
    match.add_argument("agent_a", metavar="A", help="first agent (breaks first in even-numbered matches)")
    match.add_argument("agent_b", metavar="B", help="second agent")
    _series_arguments(match)
    match.set_defaults(func=_match_command)

    tour = sub.add_parser("tournament", help="round robin between agents, with Elo ratings",
                          description="Every pair of agents plays --matches races; prints the pairings and Elo "
                                      "ratings (from racks) with 95 % bootstrap intervals. Agents: " + _AGENT_HELP)
    tour.add_argument("agents", metavar="AGENT", nargs="+", help="two or more agents")
    _series_arguments(tour)
    tour.set_defaults(func=_tournament_command)
    return parser


_AGENT_HELP = ("random, ghost, search (options: search:samples=8,candidates=32), "
               "ppo:PATH.zip, sac:PATH.zip (saved stable-baselines3 models, needs the train extra).")


def _series_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--race", type=int, default=3, help="racks needed to win a match (default 3)")
    p.add_argument("--matches", type=int, default=10, help="matches per pairing (default 10)")
    p.add_argument("--noise", default="icga", help="execution noise preset: icga (default) or none")
    p.add_argument("--seed", type=int, default=0, help="seed of racks, noise and agents (default 0)")
    p.add_argument("--break-order", choices=("alternate", "winner"), default="alternate",
                   help="who breaks the next rack within a match (default alternate)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; results do not depend on it)")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON ('-' for standard output)")
    p.add_argument("--csv", metavar="PATH", help="also write the summary as CSV ('-' for standard output)")
    p.add_argument("--plot", metavar="PATH.png", help="also draw the results (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _check_series_args(parser: argparse.ArgumentParser, args: argparse.Namespace, specs: list[str]) -> None:
    """Argument errors exit with code 2 and a message before anything is played."""
    from agents.registry import AgentSpecError, make_agent
    from nineball_env.noise import PRESETS

    if args.race < 1:
        parser.error(f"--race: expected a whole number of racks >= 1, got {args.race}")
    if args.matches < 1:
        parser.error(f"--matches: expected a whole number >= 1, got {args.matches}")
    if args.jobs < 1:
        parser.error(f"--jobs: expected a whole number >= 1, got {args.jobs}")
    if args.noise not in PRESETS:
        parser.error(f"--noise: expected one of {', '.join(sorted(PRESETS))}, got {args.noise!r}")
    if args.plot is not None and not str(args.plot).lower().endswith(".png"):
        parser.error(f"--plot: expected a .png path, got {args.plot!r}")
    for spec in specs:
        try:
            make_agent(spec)
        except AgentSpecError as err:
            parser.error(f"agent {spec!r}: {err}")


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def _config(args: argparse.Namespace):
    from agents.match import MatchConfig
    from nineball_env.noise import make_noise

    return MatchConfig(race_to=args.race, noise=make_noise(args.noise), break_order=args.break_order)


def _match_command(args: argparse.Namespace) -> int:
    """Play the races, print the table, write JSON/CSV/PNG on request."""
    from agents import report
    from agents.match import run_series

    _check_series_args(args.parser, args, [args.agent_a, args.agent_b])
    result = run_series(args.agent_a, args.agent_b, args.matches, _config(args), args.seed, args.jobs,
                        progress=not args.no_progress)
    if args.json != "-" and args.csv != "-":
        print(report.format_series(result))
    if args.json:
        _write(args.json, report.series_json(result))
    if args.csv:
        _write(args.csv, report.series_csv(result))
    if args.plot:
        try:
            report.plot_series(result, args.plot)
        except RuntimeError as err:
            print(f"nineball match: {err}", file=sys.stderr)
            return 1
    return 0


def _tournament_command(args: argparse.Namespace) -> int:
    """Round robin, pairings and Elo table; JSON/CSV/PNG on request."""
    from agents import report
    from agents.match import round_robin

    if len(args.agents) < 2:
        args.parser.error("tournament: expected at least two agents")
    if len(set(a.strip() for a in args.agents)) != len(args.agents):
        args.parser.error("tournament: each agent may appear once (add options to tell two searches apart)")
    _check_series_args(args.parser, args, args.agents)
    results = round_robin(args.agents, args.matches, _config(args), args.seed, args.jobs,
                          progress=not args.no_progress)
    table = report.tournament_elo(args.agents, results, args.seed)
    if args.json != "-" and args.csv != "-":
        print(report.format_tournament(args.agents, results, table))
    if args.json:
        _write(args.json, report.tournament_json(args.agents, results, table))
    if args.csv:
        _write(args.csv, report.tournament_csv(table))
    if args.plot:
        try:
            report.plot_elo(table, args.plot)
        except RuntimeError as err:
            print(f"nineball tournament: {err}", file=sys.stderr)
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.parser = parser._subparsers._group_actions[0].choices[args.command]  # type: ignore[union-attr]
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
