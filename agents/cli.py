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
    shot.set_defaults(func=_shot_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
