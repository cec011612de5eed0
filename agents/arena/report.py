"""Match and tournament results as numbers with intervals, a text table, JSON/CSV rows and an optional PNG.

matplotlib is imported only by ``plot_*`` (the ``plot`` extra), with a clear error when it is missing.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from pathlib import Path, PurePath
from typing import Any, Sequence

import numpy as np

from agents.arena.match import Tally
from agents.arena.series import SeriesResult
from agents.arena.stats import EloTable, Rate, elo_with_intervals, wilson


LABEL_WIDTH = 30  # agent names longer than this get a short label in text tables
MIN_MATCHES_FOR_INTERVAL = 5  # fewer matches per agent: no Elo interval is shown (a bootstrap of so few says nothing)


def short_label(spec: str, width: int = LABEL_WIDTH) -> str:
    """A table-friendly label for an agent spec: a model path keeps its folder and file name, long options are cut."""
    spec = spec.strip()
    if len(spec) <= width:
        return spec
    kind, _, opts = spec.partition(":")
    if kind.lower() in ("ppo", "sac") and opts:
        p = PurePath(opts)
        label = f"{kind}:{p.parent.name}/{p.name}" if p.parent.name else f"{kind}:{p.name}"
        if len(label) <= width:
            return label
        return f"{kind}:…{label[len(label) - (width - len(kind) - 2):]}"
    return spec[: width - 1] + "…"


def labels(names: Sequence[str]) -> list[str]:
    """Short labels for ``names`` (the full names where two would get the same label)."""
    out = [short_label(n) for n in names]
    return out if len(set(out)) == len(out) else list(names)


def agent_summary(result: SeriesResult, player: int) -> dict[str, Any]:
    """The figures of agent A (0) or B (1): rates with 95 % Wilson intervals, per-rack averages, time per decision."""
    t: Tally = result.tally(player)
    wins = result.wins[player]
    return {
        "agent": (result.name_a, result.name_b)[player],
        "match_wins": wilson(wins, len(result.matches)),
        "racks_won": wilson(t.racks_won, t.racks),
        "break_and_run": wilson(t.break_and_runs, t.breaks),
        "legal_break": wilson(t.legal_breaks, t.breaks),
        "legal_pot": wilson(t.legal_pots, t.shots),
        "pot_success": wilson(t.pots_made, t.pot_attempts),
        "jump_legal": wilson(t.jumps_legal, t.jump_attempts),
        "jump_pot_success": wilson(t.jump_pots_made, t.jump_pot_attempts),
        "fouls_per_rack": t.fouls / t.racks if t.racks else float("nan"),
        "shots_per_rack": t.shots / t.racks if t.racks else float("nan"),
        "decision_ms": 1000.0 * t.think_s / t.decisions if t.decisions else float("nan"),
        "tally": t.as_dict(),
    }


def series_summary(result: SeriesResult) -> dict[str, Any]:
    """Both agents' figures and the settings, as plain JSON-ready values."""
    cfg = result.config
    return {
        "agents": [result.name_a, result.name_b],
        "matches": len(result.matches),
        "race_to": cfg.race_to,
        "noise": asdict(cfg.noise),
        "break_order": cfg.break_order,
        "seed": result.seed,
        "results": [_plain(agent_summary(result, p)) for p in (0, 1)],
    }


def _plain(value: Any) -> Any:
    if isinstance(value, Rate):
        return value.as_dict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


ROWS = (
    ("match wins", "match_wins", "matches won, 95 % Wilson interval"),
    ("racks won", "racks_won", "of all racks"),
    ("break-and-run", "break_and_run", "of racks broken"),
    ("legal break", "legal_break", "of racks broken"),
    ("legal-pot", "legal_pot", "of ordinary shots"),
    ("pot success", "pot_success", "of shots meant as pots"),
    ("jump legal", "jump_legal", "of jumps over a blocking ball"),
    ("jump-pot success", "jump_pot_success", "of jumps meant as pots"),
    ("fouls / rack", "fouls_per_rack", ""),
    ("shots / rack", "shots_per_rack", ""),
    ("time / decision", "decision_ms", "ms"),
)


def _cell(value: Any) -> str:
    if isinstance(value, Rate):
        if not value.n:
            return "-"
        return f"{value.k:g}/{value.n}  {100 * value.p:5.1f}% [{100 * value.lo:.1f}, {100 * value.hi:.1f}]"
    if isinstance(value, float):
        return "-" if np.isnan(value) else f"{value:.2f}"
    return str(value)


def format_series(result: SeriesResult) -> str:
    """The result table of ``nineball match``."""
    cfg = result.config
    a, b = agent_summary(result, 0), agent_summary(result, 1)
    noise = "none" if cfg.noise.silent else ", ".join(f"{k}={v:g}" for k, v in asdict(cfg.noise).items())
    label_a, label_b = labels([a["agent"], b["agent"]])
    head = (f"{label_a} vs {label_b}: {len(result.matches)} matches, race to {cfg.race_to}, "
            f"{cfg.break_order} breaks, noise {noise}, seed {result.seed}")
    rows = [("", label_a, label_b, "")]
    for label, key, note in ROWS:
        value_a, value_b = a[key], b[key]
        if key == "decision_ms":
            rows.append((label, f"{value_a:.1f} ms", f"{value_b:.1f} ms", ""))
        else:
            rows.append((label, _cell(value_a), _cell(value_b), note))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [head, ""]
    if (label_a, label_b) != (a["agent"], b["agent"]):
        lines[1:1] = [f"  {label} = {name}" for label, name in ((label_a, a["agent"]), (label_b, b["agent"]))
                      if label != name]
    for i, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths[:3]))
    return "\n".join(lines)


def series_csv(result: SeriesResult) -> str:
    """One CSV row per agent with every figure (rates as value, lower and upper bound)."""
    out = io.StringIO()
    rows = []
    for p in (0, 1):
        s = agent_summary(result, p)
        row: dict[str, Any] = {"agent": s["agent"], "matches": len(result.matches), "race_to": result.config.race_to,
                               "seed": result.seed}
        for _, key, _ in ROWS:
            v = s[key]
            if isinstance(v, Rate):
                row.update({f"{key}_k": v.k, f"{key}_n": v.n, key: v.p, f"{key}_lo": v.lo, f"{key}_hi": v.hi})
            else:
                row[key] = v
        rows.append(row)
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def series_json(result: SeriesResult) -> str:
    """The summary plus every match (scores, racks: breaker, winner, how it ended, break-and-run)."""
    data = series_summary(result)
    data["match_records"] = [
        {"index": m.index, "first_breaker": m.first_breaker, "winner": m.winner, "score": list(m.score),
         "racks": [asdict(r) for r in m.racks]} for m in result.matches]
    return json.dumps(data, indent=2)


# -- tournaments ---------------------------------------------------------------------------------


def tournament_elo(names: Sequence[str], results: Sequence[SeriesResult], seed: int = 0, n_boot: int = 200
                   ) -> EloTable:
    """Elo ratings from the racks of every match, with a bootstrap over matches (95 % intervals)."""
    index = {n: i for i, n in enumerate(names)}
    games = [(index[r.name_a], index[r.name_b], m.score[0], m.score[1]) for r in results for m in r.matches]
    return elo_with_intervals(names, games, np.random.default_rng(seed), n_boot=n_boot, unit="racks")


def format_tournament(names: Sequence[str], results: Sequence[SeriesResult], table: EloTable) -> str:
    """Pairwise rack scores and match wins, then the Elo table, best first."""
    lines = ["pairings (racks won, matches won):"]
    for r in results:
        a, b = r.tally(0).racks_won, r.tally(1).racks_won
        wa, wb = r.wins
        lines.append(f"  {r.name_a} vs {r.name_b}: racks {a}-{b}, matches {wa}-{wb}  "
                     f"({r.name_a} wins {wilson(a, a + b)} of racks)")
    lines += ["", f"Elo (from {table.unit}; 95 % bootstrap interval over matches; mean 1500):"]
    order = np.argsort(-table.rating)
    short = labels(table.names)
    width = max(len(n) for n in short)
    enough = has_interval(table, results)
    for rank, i in enumerate(order, 1):
        interval = (f"[{table.lo[i]:.1f}, {table.hi[i]:.1f}]" if enough[i] else
                    f"(too few games for an interval: {matches_played(table.names[i], results)} matches, "
                    f"need {MIN_MATCHES_FOR_INTERVAL})")
        lines.append(f"  {rank}. {short[i].ljust(width)}  {table.rating[i]:7.1f}  {interval}")
    if short != list(table.names):
        lines += ["", "  " + "; ".join(f"{s} = {n}" for s, n in zip(short, table.names) if s != n)]
    return "\n".join(lines)


def matches_played(name: str, results: Sequence[SeriesResult]) -> int:
    """Matches ``name`` played over ``results``."""
    return sum(len(r.matches) for r in results if name in (r.name_a, r.name_b))


def has_interval(table: EloTable, results: Sequence[SeriesResult]) -> list[bool]:
    """Per agent: enough matches (``MIN_MATCHES_FOR_INTERVAL``) and a bootstrap interval of non-zero width."""
    return [bool(matches_played(n, results) >= MIN_MATCHES_FOR_INTERVAL and table.hi[i] > table.lo[i])
            for i, n in enumerate(table.names)]


def tournament_json(names: Sequence[str], results: Sequence[SeriesResult], table: EloTable) -> str:
    elo = [{**row, "interval": ok} for row, ok in zip(table.as_dict(), has_interval(table, results))]
    return json.dumps({"agents": list(names), "elo": elo,
                       "pairings": [series_summary(r) for r in results]}, indent=2)


def tournament_csv(table: EloTable) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["agent", "elo", "lo", "hi"])
    writer.writeheader()
    writer.writerows(table.as_dict())
    return out.getvalue()


# -- plots ---------------------------------------------------------------------------------------


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise RuntimeError("plotting needs matplotlib: pip install 'nineball[plot]'") from err
    return plt


def plot_series(result: SeriesResult, path: str | Path) -> None:
    """Bar chart of both agents' rates (match wins, racks, break-and-run, legal pots) with their intervals."""
    plt = _pyplot()
    summaries = [agent_summary(result, p) for p in (0, 1)]
    names = [result.name_a, result.name_b]
    keys = [("match wins", "match_wins"), ("racks won", "racks_won"), ("break-and-run", "break_and_run"),
            ("legal-pot", "legal_pot"), ("pot success", "pot_success")]
    x = np.arange(len(keys))
    fig, ax = plt.subplots(figsize=(8, 4))
    for p, s in enumerate(summaries):
        rates = [s[k] for _, k in keys]
        p_ = np.array([r.p if r.n else 0.0 for r in rates])
        err = np.array([[r.p - r.lo if r.n else 0.0 for r in rates], [r.hi - r.p if r.n else 0.0 for r in rates]])
        ax.bar(x + (p - 0.5) * 0.38, 100 * p_, 0.38, yerr=100 * err, capsize=3, label=labels(names)[p])
    ax.set_xticks(x, [k for k, _ in keys])
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.set_title(f"{labels(names)[0]} vs {labels(names)[1]}: {len(result.matches)} races to {result.config.race_to} "
                 "(95 % Wilson intervals)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(str(path), dpi=120)
    plt.close(fig)


def plot_elo(table: EloTable, path: str | Path, results: Sequence[SeriesResult] | None = None) -> None:
    """Elo ratings with their bootstrap intervals, best first (no bar where ``results`` hold too few games)."""
    plt = _pyplot()
    order = np.argsort(-table.rating)
    enough = has_interval(table, results) if results is not None else [True] * len(table.names)
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.5 * len(order)))
    y = np.arange(len(order))
    r = table.rating[order]
    ok = np.array([enough[i] for i in order])
    err = np.array([r - table.lo[order], table.hi[order] - r]) * ok
    ax.errorbar(r, y, xerr=err, fmt="o", capsize=4)
    for k in np.flatnonzero(~ok):
        ax.annotate("too few games for an interval", (r[k], y[k]), xytext=(6, 6), textcoords="offset points",
                    fontsize=8)
    ax.set_yticks(y, [labels(table.names)[i] for i in order])
    ax.invert_yaxis()
    ax.set_xlabel(f"Elo (from {table.unit}, 95 % bootstrap interval)")
    fig.tight_layout()
    fig.savefig(str(path), dpi=120)
    plt.close(fig)
