"""Batched physics throughput: shots/s against batch size, on 1 and 2 threads, in one run.

Prints JSON; ``--plot PATH`` also draws shots/s against batch size (needs matplotlib); ``--replot JSON``
redraws the plot from a saved output without measuring again.
Run: python benchmarks/batch_scaling.py --plot benchmarks/batch_scaling.png > batch_scaling.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from physics.samples import break_shots, ordinary_shots  # noqa: E402


def shots_per_second(cases, batch: int, threads: int, repeats: int) -> float:
    """Median shots/s of simulate_batch over ``repeats`` runs of ``batch`` tables."""
    states = [cases[k % len(cases)][0] for k in range(batch)]
    shots = [cases[k % len(cases)][1] for k in range(batch)]
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        physics.simulate_batch(states, shots, threads=threads, log_capacity=8)
        samples.append(batch / (time.perf_counter() - t0))
    return statistics.median(samples)


def packed_shots_per_second(cases, batch: int, threads: int, repeats: int) -> float:
    """Median shots/s of simulate_batch_packed (states and shots already packed as arrays)."""
    states = np.stack([cases[k % len(cases)][0].packed() for k in range(batch)])
    shots = np.array([[getattr(cases[k % len(cases)][1], f) for f in ("V0", "phi", "theta", "a", "b")]
                      for k in range(batch)])
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        physics.simulate_batch_packed(states, shots, threads=threads, log_capacity=8)
        samples.append(batch / (time.perf_counter() - t0))
    return statistics.median(samples)


def single_shots_per_second(cases, n: int, repeats: int) -> float:
    """Median shots/s of the single-table ``simulate`` in a Python loop."""
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for k in range(n):
            physics.simulate(*cases[k % len(cases)])
        samples.append(n / (time.perf_counter() - t0))
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1,4,16,64,256,1024")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write a PNG plot here")
    parser.add_argument("--replot", metavar="JSON", help="only redraw --plot from a saved JSON output of this script")
    args = parser.parse_args(argv)
    if args.replot:
        if not args.plot:
            parser.error("--replot: needs --plot PATH")
        with open(args.replot, encoding="utf-8") as fh:
            out = json.load(fh)
        plot(out, args.plot)
        return out
    sizes = [int(s) for s in args.sizes.split(",")]
    max_threads = min(2, numba.config.NUMBA_NUM_THREADS)
    out: dict = {"threads_available": numba.config.NUMBA_NUM_THREADS, "sizes": sizes}
    for kind, cases in (("ordinary", ordinary_shots(256, args.seed + 1)), ("break", break_shots(64, args.seed))):
        physics.simulate_batch([c[0] for c in cases[:2]], [c[1] for c in cases[:2]])  # compile / load
        rows = {}
        for threads in range(1, max_threads + 1):
            rows[f"{threads}_thread"] = [round(shots_per_second(cases, b, threads, args.repeats), 1) for b in sizes]
            rows[f"{threads}_thread_packed"] = [round(packed_shots_per_second(cases, b, threads, args.repeats), 1)
                                                for b in sizes]
        out[kind] = rows
        out[kind]["single_loop"] = round(single_shots_per_second(cases, 256, args.repeats), 1)
        if max_threads >= 2:
            out[kind]["scaling_1_to_2_at_largest_batch"] = round(rows["2_thread"][-1] / rows["1_thread"][-1], 3)
            out[kind]["scaling_1_to_2_at_largest_batch_packed"] = round(
                rows["2_thread_packed"][-1] / rows["1_thread_packed"][-1], 3)
    print(json.dumps(out, indent=2))
    if args.plot:
        plot(out, args.plot)
    return out


def plot(out: dict, path: str) -> None:
    """Write ``figure(out)`` to ``path`` (PNG)."""
    import matplotlib.pyplot as plt

    fig = figure(out)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def figure(out: dict):
    """Shots/s against batch size, ordinary shots and breaks side by side; one legend below both panels,
    clear of the data (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = out["sizes"]
    threads_run = sorted({int(k.split("_")[0]) for k in out["ordinary"] if k.endswith("_thread")})
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.6))
    for ax, kind in zip(axes, ("ordinary", "break")):
        for threads in threads_run:
            ax.plot(sizes, out[kind][f"{threads}_thread"], marker="o", label=f"simulate_batch, {threads} thread(s)")
            ax.plot(sizes, out[kind][f"{threads}_thread_packed"], marker="s", linestyle=":",
                    label=f"simulate_batch_packed, {threads} thread(s)")
        ax.axhline(out[kind]["single_loop"], color="grey", linestyle="--", label="simulate in a Python loop")
        ax.set_xscale("log")
        ax.set_xlabel("batch size (tables)")
        ax.set_ylabel("shots / s")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{kind} shots")
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


if __name__ == "__main__":
    main()
