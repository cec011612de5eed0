"""Head-to-head figures of the built-in and learned agents under ``icga`` noise, printed as JSON.

    python benchmarks/agents_h2h.py --matches 30 --race 3 --jobs 2 [--model checkpoints/RUN/final.zip]

Pairings: GhostBall vs Random, Search vs GhostBall and, when a saved model is given (or found as
the newest ``checkpoints/*/final.zip``), the learned agent vs Random, GhostBall and Search. Each
pairing reports match and rack win rates with 95 % Wilson intervals, plus every agent's
break-and-run, legal-pot and pot-success rates, fouls and shots per rack, and time per decision.
A benchmark, not a test: sample sizes are in the output.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from agents.arena.match import MatchConfig  # noqa: E402
from agents.arena.report import series_summary  # noqa: E402
from agents.arena.series import run_series  # noqa: E402
from nineball_env.noise import make_noise  # noqa: E402


def newest_model(root: Path = ROOT / "checkpoints") -> Path | None:
    """The most recently written ``final.zip`` under ``checkpoints/``, if any."""
    found = sorted(root.glob("*/final.zip"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def _compact(summary: dict) -> dict:
    """The figures of one pairing without the raw tallies."""
    out = {k: summary[k] for k in ("agents", "matches", "race_to", "seed")}
    out["results"] = []
    for r in summary["results"]:
        row = {k: v for k, v in r.items() if k != "tally"}
        row["racks"] = r["tally"]["racks"]
        row["pot_attempts"] = r["tally"]["pot_attempts"]
        out["results"].append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=30, help="matches per pairing (default 30)")
    parser.add_argument("--race", type=int, default=3, help="race length (default 3)")
    parser.add_argument("--noise", default="icga")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--search", default="search", help="spec of the search agent (default: its defaults)")
    parser.add_argument("--model", help="saved stable-baselines3 model of the learned agent")
    parser.add_argument("--algo", choices=("ppo", "sac"), default="ppo")
    parser.add_argument("--skip-learned", action="store_true")
    parser.add_argument("--out", help="also write the JSON here")
    args = parser.parse_args(argv)

    config = MatchConfig(race_to=args.race, noise=make_noise(args.noise))
    pairings = [("ghost", "random"), (args.search, "ghost")]
    model = None if args.skip_learned else (Path(args.model) if args.model else newest_model())
    if model is not None:
        learned = f"{args.algo}:{model}"
        pairings += [(learned, "random"), (learned, "ghost"), (learned, args.search)]
    report = {"noise": args.noise, "race_to": args.race, "matches_per_pairing": args.matches, "seed": args.seed,
              "learned_model": str(model) if model else None, "pairings": []}
    for i, (a, b) in enumerate(pairings):
        start = time.perf_counter()
        result = run_series(a, b, args.matches, config, seed=args.seed + i, jobs=args.jobs, progress=False)
        entry = _compact(series_summary(result))
        entry["wall_s"] = round(time.perf_counter() - start, 1)
        report["pairings"].append(entry)
        print(f"{a} vs {b}: {result.wins} in {entry['wall_s']} s", file=sys.stderr)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
