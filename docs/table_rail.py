"""Draw docs/table_rail.png: the playing area's outline, the rail around it and a ball's flight over the rail.

Run from the repository root: python docs/table_rail.py (needs matplotlib). The region is drawn from
``physics.kernels.rail.outline_gap`` and ``edge_gap`` on a grid, the pieces from the table's arrays.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from physics.kernels.rail import edge_gap, outline_gap  # noqa: E402
from physics.table import L_R, L_X, LINER_STRIDE, RAIL_LINERS  # noqa: E402

TABLE = physics.DEFAULT_TABLE


def _region(ax, x0: float, x1: float, y0: float, y1: float, n: int = 500) -> None:
    xs, ys = np.linspace(x0, x1, n), np.linspace(y0, y1, n)
    code = np.empty((n, n))
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            inner = outline_gap(x, y, TABLE.segments, TABLE.jaws, TABLE.rail) > 0.0
            code[j, i] = 2 if inner else (1 if edge_gap(x, y, TABLE.width, TABLE.length, TABLE.rail) >= 0.0 else 0)
    ax.contourf(xs, ys, code, levels=[-0.5, 0.5, 1.5, 2.5], colors=["white", "#b58b5a", "#2e7d4f"])


def _pieces(ax) -> None:
    for x1, y1, x2, y2, _, _ in TABLE.segments:
        ax.plot([x1, x2], [y1, y2], color="black", lw=1.2)
    a = np.linspace(0, 2 * np.pi, 200)
    for cx, cy, r in TABLE.jaws:
        ax.plot(cx + r * np.cos(a), cy + r * np.sin(a), color="black", lw=0.6)
    for k in range(6):
        o = RAIL_LINERS + k * LINER_STRIDE
        lx, ly, rl = TABLE.rail[o + L_X], TABLE.rail[o + L_X + 1], TABLE.rail[o + L_R]
        ax.plot(lx + rl * np.cos(a), ly + rl * np.sin(a), color="black", lw=0.6, ls=":")
    for cx, cy, r in TABLE.pockets:
        ax.plot(cx + r * np.cos(a), cy + r * np.sin(a), color="#444", lw=0.6, ls="--")


def _flight(ax, cue, shot, label: str) -> None:
    """The cue ball's path in plan, from its logged states (straight between events in the air)."""
    r = physics.simulate(physics.place_balls({0: cue}), physics.Shot(*shot))
    t = np.linspace(0.0, r.duration, 400)
    xy = physics.sample_positions(r, t)[:, 0]
    ax.plot(xy[:, 0], xy[:, 1], color="#c62828", lw=1.2, label=label)
    for k in np.flatnonzero(r.events.kind == physics.EventKind.BALL_OFF_TABLE):
        ax.plot(*r.events.state_a[k, :2], "x", color="#c62828", ms=8, mew=2)


def main() -> None:
    W, L, rw = TABLE.width, TABLE.length, TABLE.spec.rail_width
    fig, axes = plt.subplots(1, 3, figsize=(13, 6.2), gridspec_kw={"width_ratios": [1.1, 1, 1]})
    whole, corner, side = axes
    _region(whole, -rw - 0.05, W + rw + 0.05, -rw - 0.05, L + rw + 0.05, 300)
    _pieces(whole)
    _flight(whole, (1.130255036018329, 2.25497785050205),
            (8.281634810874348, 303.84538642548785, 26.488008801425043, -0.3501932416126887, 0.13632541883470106),
            "a jump over the rail: it leaves at the rail's outer edge (x)")
    whole.set_title("the playing area (green), the rail (brown)")
    whole.legend(loc="upper center", fontsize=7, bbox_to_anchor=(0.5, -0.04))
    for ax, (cx, cy), title in ((corner, (0.0, 0.0), "head-left corner pocket"),
                                (side, (0.0, L / 2), "left side pocket")):
        _region(ax, cx - 0.17, cx + 0.13, cy - 0.15, cy + 0.15)
        _pieces(ax)
        ax.set_xlim(cx - 0.17, cx + 0.13)
        ax.set_ylim(cy - 0.15, cy + 0.15)
        ax.set_title(title)
    for ax in axes:
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
    whole.set_ylabel("y [m]")
    fig.suptitle("Cushion lines and facings (solid), jaw posts and liners (circles, dotted), capture circles (dashed)",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(ROOT / "docs" / "table_rail.png", dpi=90)


if __name__ == "__main__":
    main()
