"""The ``nineball`` command line: simulate a shot, play matches between agents, record and replay them.

Each command imports what it uses when it runs (physics, the arena, the agents), so ``nineball --help`` loads none of
them and ``nineball shot`` no agent.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from agents import first_run
from agents.version import __version__


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
        summary["log"] = [event_row(e) for e in result.events]
    print(json.dumps(summary, indent=2))
    if args.png:
        from nineball_env.render import Renderer

        renderer = Renderer(table)
        frame = mark_flights(renderer, renderer.draw(result.state, result), result)
        try:
            from agents.arena.animation import MissingExtra, shot_legend

            frame = shot_legend(frame, [p["ball"] for p in summary["pocketed"]])
        except MissingExtra as err:
            print(f"nineball shot: no legend on the drawing ({err})", file=sys.stderr)
        save_png(frame, args.png)
        print(f"wrote {args.png}", file=sys.stderr)
    return 0


def save_png(frame: np.ndarray, path: str) -> None:
    """Write an (H, W, 3) uint8 frame as a PNG file (stdlib zlib only, no image library needed)."""
    import struct
    import zlib

    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"frame: expected an (H, W, 3) uint8 array, got shape {frame.shape}")
    height, width = frame.shape[:2]
    raw = b"".join(b"\x00" + frame[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
                 + chunk(b"IEND", b""))


def mark_flights(renderer, frame: np.ndarray, result) -> np.ndarray:
    """Mark where balls left the cloth and landed (white dots) and where they left the table (red dots) on a
    drawing of the shot: the trails are drawn in the plane, so these show the jumps."""
    import physics
    from nineball_env.render import fill_disc

    colours = {physics.EventKind.BALL_AIRBORNE: (255, 255, 255), physics.EventKind.BALL_LANDING: (255, 255, 255),
               physics.EventKind.BALL_OFF_TABLE: (230, 30, 30)}
    ev = result.events
    for i in range(len(ev)):
        colour = colours.get(physics.EventKind(int(ev.kind[i])))
        if colour is not None:
            row, col = renderer.to_px(ev.state_a[i, 0:2])
            fill_disc(frame, row, col, 3.5, colour)
    return frame


def event_row(event) -> dict:
    """One event of the log with named fields: time [s], kind, the ball, and what it met (only those that apply)."""
    import physics

    kind = physics.EventKind(event.kind)
    row: dict = {"t": round(float(event.time), 6), "event": kind.name, "ball": int(event.ball_a)}
    if kind == physics.EventKind.BALL_BALL:
        row["other_ball"] = int(event.ball_b)
    elif kind == physics.EventKind.BALL_CUSHION:
        row["cushion"] = int(event.target)
    elif kind == physics.EventKind.BALL_JAW:
        row["jaw"] = int(event.target)
    elif kind == physics.EventKind.BALL_POCKET:
        row["pocket"] = physics.POCKET_NAMES[event.target]
    return row


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="nineball", description="Nine-ball pool: physics, rules, agents.",
                                     epilog="Run 'nineball COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"nineball {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    shot = sub.add_parser("shot", help="simulate one shot from a fresh rack (default: a break) and print the outcome")
    shot.add_argument("--speed", type=float, default=8.0, help="cue speed V0 [m/s] (default 8)")
    shot.add_argument("--phi", type=float, default=90.0, help="aim [deg], counter-clockwise from +x (default 90: up the table)")
    shot.add_argument("--theta", type=float, default=0.0, help="cue elevation [deg]")
    shot.add_argument("--a", type=float, default=0.0, help="side english, fraction of R")
    shot.add_argument("--b", type=float, default=0.0, help="follow (+) / draw (-), fraction of R")
    shot.add_argument("--seed", type=int, default=0, help="seed of the rack order")
    shot.add_argument("--table", choices=("9ft", "8ft", "7ft"), default="9ft")
    shot.add_argument("--events", action="store_true",
                      help="include the full event log: one object per event with t [s], event, ball, and "
                           "other_ball / cushion / jaw / pocket where they apply")
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
    match.add_argument("--record", metavar="DIR",
                       help="write every match to DIR (match-0000.jsonl.gz, ...) to watch with 'nineball replay'")
    match.set_defaults(func=_match_command)

    tour = sub.add_parser("tournament", help="round robin between agents, with Elo ratings",
                          description="Every pair of agents plays --matches races; prints the pairings and Elo "
                                      "ratings (from racks) with 95 % bootstrap intervals. Agents: " + _AGENT_HELP)
    tour.add_argument("agents", metavar="AGENT", nargs="+", help="two or more agents")
    _series_arguments(tour)
    tour.set_defaults(func=_tournament_command)

    rep = sub.add_parser("replay", help="re-simulate a recorded match; check it, list it, animate it",
                         description="Re-simulates a file written by 'nineball match --record' and checks that "
                                     "every shot comes out as recorded (a record from another physics version "
                                     "stops with a message). Without an output it lists the shots. Racks and "
                                     "shots count from 1.")
    rep.add_argument("file", metavar="FILE", help="a match record (match-0000.jsonl.gz)")
    rep.add_argument("--rack", type=int, help="only this rack (default: all)")
    rep.add_argument("--shot", type=int, help="only this shot of --rack")
    rep.add_argument("--gif", metavar="PATH", help="write an animated GIF of the shots (needs the video extra)")
    rep.add_argument("--mp4", metavar="PATH", help="write an MP4 video of the shots (needs the video extra)")
    rep.add_argument("--window", action="store_true", help="show the shots in a window (needs the human extra)")
    rep.add_argument("--fps", type=int, default=15, help="frames per second of simulated time (default 15)")
    rep.add_argument("--scale", type=float, default=200.0, help="pixels per metre (default 200, at least 100)")
    rep.set_defaults(func=_replay_command)

    doc = sub.add_parser("doctor", help="versions, platform and numba's cache: what to paste into a bug report",
                         description="Prints the versions of Python and the packages nineball uses (installed or not), "
                                     "the platform, and where numba caches the compiled kernels and which it holds "
                                     "(read from the cache's index: nothing is compiled or loaded).")
    doc.add_argument("--kernels", action="store_true", help="also list every kernel with its cached versions")
    doc.add_argument("--json", action="store_true", help="print the report as JSON")
    doc.set_defaults(func=_doctor_command)
    return parser


_AGENT_HELP = ("random, ghost, search (options: search:samples=8,candidates=32), "
               "learned (the shipped policy, numpy), learned:PATH.npz, "
               "value (search with the shipped value network, numpy; options: value:samples=16,weights=PATH.npz), "
               "ppo:PATH.zip, sac:PATH.zip (saved stable-baselines3 models, needs the train extra), "
               "rllib:PATH (an RLlib checkpoint from agents.training.rllib, needs the ray extra).")


def _series_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--race", type=int, default=3, help="racks needed to win a match (default 3)")
    p.add_argument("--matches", type=int, default=10, help="matches per pairing (default 10)")
    p.add_argument("--noise", default="icga", help="execution noise preset: icga (default) or none")
    p.add_argument("--seed", type=int, default=0, help="seed of racks, noise and agents (default 0)")
    p.add_argument("--break-order", choices=("alternate", "winner"), default="alternate",
                   help="who breaks the next rack within a match (default alternate)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; results do not depend on it)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where matches run: local processes (default) or Ray tasks (needs the ray extra; "
                        "--jobs then sets the CPUs of a local Ray instance)")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: the cluster to join (auto or the head's "
                                                     "HOST:PORT; default: start a local Ray instance)")
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
    if args.address is not None and args.backend != "ray":
        parser.error("--address: only with --backend ray")
    if args.plot is not None and not str(args.plot).lower().endswith(".png"):
        parser.error(f"--plot: expected a .png path, got {args.plot!r}")
    if args.plot is not None and not _importable("matplotlib"):
        parser.error("--plot: needs matplotlib, which is not installed: pip install 'nineball[plot]' "
                     "(checked before playing)")
    for spec in specs:
        try:
            make_agent(spec)
        except AgentSpecError as err:
            parser.error(f"agent {spec!r}: {err}")


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    else:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def _backend(args: argparse.Namespace):
    """A context holding the --backend: None for local processes, else a Ray connection (exit 2 if none)."""
    import contextlib

    if args.backend != "ray":
        return contextlib.nullcontext()
    from agents.arena.ray_backend import RayBackendError, connect

    try:
        return connect(args.address, num_cpus=args.jobs if args.jobs > 1 else None)
    except RayBackendError as err:
        args.parser.error(f"--backend ray{' --address ' + args.address if args.address else ''}: {err}")


def _warm_up(args: argparse.Namespace, specs: list[str]) -> None:
    """On a cold numba cache, compile the match's kernels on two cores before play (``agents.arena.warmup``); not
    for Ray, whose workers have their own caches."""
    if args.backend != "ray":
        from agents.arena import warmup

        warmup.before_play(specs)


def _config(args: argparse.Namespace):
    from agents.arena.match import MatchConfig
    from nineball_env.noise import make_noise

    return MatchConfig(race_to=args.race, noise=make_noise(args.noise), break_order=args.break_order)


def _match_command(args: argparse.Namespace) -> int:
    """Play the races, print the table, write JSON/CSV/PNG on request."""
    from agents.arena import report
    from agents.arena.series import run_series

    _check_series_args(args.parser, args, [args.agent_a, args.agent_b])
    _warm_up(args, [args.agent_a, args.agent_b])
    with _backend(args) as backend:
        result = run_series(args.agent_a, args.agent_b, args.matches, _config(args), args.seed, args.jobs,
                            progress=not args.no_progress, record_dir=args.record, backend=backend)
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
    if args.record:
        print(f"recorded {len(result.matches)} matches in {args.record}/ (watch the first rack: nineball replay "
              f"{args.record}/match-0000.jsonl.gz --rack 1 --gif rack1.gif)", file=sys.stderr)
    return 0


def _tournament_command(args: argparse.Namespace) -> int:
    """Round robin, pairings and Elo table; JSON/CSV/PNG on request."""
    from agents.arena import report
    from agents.arena.series import round_robin

    if len(args.agents) < 2:
        args.parser.error("tournament: expected at least two agents")
    if len(set(a.strip() for a in args.agents)) != len(args.agents):
        args.parser.error("tournament: each agent may appear once (add options to tell two searches apart)")
    _check_series_args(args.parser, args, args.agents)
    _warm_up(args, args.agents)
    with _backend(args) as backend:
        results = round_robin(args.agents, args.matches, _config(args), args.seed, args.jobs,
                              progress=not args.no_progress, backend=backend)
    table = report.tournament_elo(args.agents, results, args.seed)
    if args.json != "-" and args.csv != "-":
        print(report.format_tournament(args.agents, results, table))
    if args.json:
        _write(args.json, report.tournament_json(args.agents, results, table))
    if args.csv:
        _write(args.csv, report.tournament_csv(table))
    if args.plot:
        try:
            report.plot_elo(table, args.plot, results)
        except RuntimeError as err:
            print(f"nineball tournament: {err}", file=sys.stderr)
            return 1
    return 0


def _replay_command(args: argparse.Namespace) -> int:
    """Re-simulate a record, check it against the record; list, animate or show the chosen shots."""
    from agents.arena import animation, recording

    parser = args.parser
    if args.fps < 1 or args.fps > 60:
        parser.error(f"--fps: expected a whole number from 1 to 60, got {args.fps}")
    if not args.scale >= 100.0:
        parser.error(f"--scale: expected at least 100 pixels per metre, got {args.scale}")
    try:
        animation.check_outputs(args.gif, args.mp4, args.window)
        record = recording.read_record(args.file)
        animation.check_selection(record, args.rack, args.shot)
        config, _, _ = recording.game_config(record.header)
    except (animation.MissingExtra, recording.RecordError, ValueError) as err:
        print(f"nineball replay: {err}", file=sys.stderr)
        return 2
    names = tuple(record.header["agents"])
    try:
        shots = animation.select(recording.resimulate(record), args.rack, args.shot)
    except recording.ReplayMismatch as err:
        print(f"nineball replay: {args.file}: {err}", file=sys.stderr)
        return 1
    if not (args.gif or args.mp4 or args.window):
        for s in shots:
            cue = s.record.cue
            what = "push-out choice" if cue is None else (f"V0 {cue['V0']:.2f} m/s, phi {cue['phi']:.1f} deg, "
                                                           f"a {cue['a']:+.2f}, b {cue['b']:+.2f}")
            print(f"rack {s.record.rack + 1} shot {s.record.shot + 1}: {names[s.record.player]}: {what}: "
                  f"{animation.ruling_text(s, names)}")
        print(f"replayed {len(shots)} shots as recorded; {names[0]} {record.score[0]} - {record.score[1]} "
              f"{names[1]}", file=sys.stderr)
        return 0
    maker = animation.FrameMaker(names, config.table, config.params, scale=args.scale, fps=args.fps)

    def frames():
        return (f for s in shots for f in maker.frames(s))

    if args.gif:
        width, height = maker.size
        megapixels = sum(maker.n_frames(s) for s in shots) * width * height / 1e6
        if megapixels > animation.MAX_GIF_MEGAPIXELS:
            print(f"nineball replay: --gif: {len(shots)} shots make {megapixels:.0f} megapixels of frames, more than "
                  f"a GIF can be built from in memory ({animation.MAX_GIF_MEGAPIXELS:.0f}); choose a rack (--rack N), "
                  "lower --fps or --scale, or write --mp4, which streams", file=sys.stderr)
            return 2
        n = animation.write_gif(frames(), args.gif, args.fps)
        print(f"wrote {args.gif} ({len(shots)} shots, {n} frames)", file=sys.stderr)
    if args.mp4:
        n = animation.write_mp4(frames(), args.mp4, args.fps)
        print(f"wrote {args.mp4} ({len(shots)} shots, {n} frames)", file=sys.stderr)
    if args.window:
        animation.show_window(frames(), maker.size, args.fps)
    return 0


#: Distributions the doctor reports, as pip names them.
DOCTOR_PACKAGES = ("numpy", "numba", "llvmlite", "gymnasium", "torch", "stable-baselines3", "ray", "pettingzoo", "tqdm")


def doctor_report() -> dict:
    """Versions, platform and numba's cache, as plain data (``nineball doctor``): nothing is compiled."""
    import os
    import platform
    from importlib import metadata

    import numba

    from agents.arena import kernel_cache

    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    kernels = kernel_cache.cache_state()
    cached = {k.name: k.cached for k in kernels}
    return {
        "nineball": __version__,
        "python": f"{platform.python_version()} ({platform.python_implementation()}, {sys.executable})",
        "platform": f"{platform.platform()}, {os.cpu_count()} CPUs",
        "packages": {name: version(name) for name in DOCTOR_PACKAGES},
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR") or None,
        "cache_paths": sorted({k.path for k in kernels}),
        "kernels": {k.name: k.cached for k in kernels},
        "cold": any(cached[n] == 0 for n in kernel_cache.MATCH_KERNELS),
    }


def format_doctor(report: dict, kernels: bool = False) -> str:
    """The doctor's report as text: one line per item, then the cache by module (and by kernel with ``kernels``)."""
    lines = [f"{'nineball':<17} {report['nineball']}", f"{'python':<17} {report['python']}",
             f"{'platform':<17} {report['platform']}"]
    lines += [f"{name:<17} {v if v else 'not installed'}" for name, v in report["packages"].items()]
    lines.append(f"{'numba threads':<17} {report['numba_threads']}")
    where = report["numba_cache_dir"]
    where = f"NUMBA_CACHE_DIR={where}" if where else "beside the sources (NUMBA_CACHE_DIR unset)"
    lines.append(f"{'numba cache':<17} {where}:")
    lines += [f"  {path}" for path in report["cache_paths"]]
    modules: dict[str, list[int]] = {}
    for name, n in report["kernels"].items():
        modules.setdefault(name.rsplit(".", 1)[0], []).append(n)
    lines += [f"  {module:<34} {sum(1 for n in ns if n)} of {len(ns)} kernels cached" for module, ns in modules.items()]
    if kernels:
        lines += [f"    {name} ({n} cached version{'s' if n != 1 else ''})" if n else f"    {name} (not cached)"
                  for name, n in report["kernels"].items()]
    state = ("cold: the next match compiles the kernels (minutes on the first run)" if report["cold"]
             else "warm: a match loads the physics and env kernels from the cache")
    lines.append(f"{'cache state':<17} {state}")
    return "\n".join(lines)


def _doctor_command(args: argparse.Namespace) -> int:
    """Print versions, platform and numba's cache."""
    report = doctor_report()
    print(json.dumps(report, indent=2) if args.json else format_doctor(report, args.kernels))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # plain `nineball`: the help, not an error
        parser.print_help()
        return 0
    args.parser = parser._subparsers._group_actions[0].choices[args.command]  # type: ignore[union-attr]
    listener = first_run.install()
    try:
        return int(args.func(args) or 0)
    finally:
        first_run.uninstall(listener)


if __name__ == "__main__":
    sys.exit(main())
