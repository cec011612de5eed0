"""Candidate shots and spots shared by the players that search: safeties (hits of the lowest ball and one-rail kicks),
ball-in-hand spots spread over the pockets, and an even thinning of a candidate list to a budget."""

from __future__ import annotations

import math

import numpy as np

from agents.protocol import TableView
from agents.shots.aim import direction_deg
from agents.shots.pots import PotOption
from physics import BallState, Shot


def spread(items: list, n: int) -> list:
    """At most ``n`` of ``items``, evenly spaced (all of them when n >= len)."""
    if n >= len(items):
        return list(items)
    idx = np.unique(np.linspace(0, len(items) - 1, n).round().astype(int))
    return [items[i] for i in idx]


def diverse_spots(spots: list[tuple[tuple[float, float], PotOption]], n: int) -> list[tuple[float, float]]:
    """The ``n`` best of ``spots`` (``pots.cue_spots``, easiest first), at most two per pocket, so a search sees
    different shots."""
    out, per_pocket = [], {}
    for spot, option in spots:
        if per_pocket.get(option.pocket, 0) >= 2:
            continue
        per_pocket[option.pocket] = per_pocket.get(option.pocket, 0) + 1
        out.append(spot)
        if len(out) == n:
            break
    return out


def safety_candidates(view: TableView, state: BallState, budget: int) -> list[Shot]:
    """Hits of the lowest ball at fractions from full to thin on both sides, at a few speeds and spins (``spread``
    to ``budget`` less the kicks), and one-rail kicks at it off each cushion (aimed at its mirror image)."""
    cue, obj = state.pos[0], state.pos[view.rack.lowest]
    d = float(np.hypot(*(obj - cue)))
    base = direction_deg(cue, obj)
    R = view.params.R
    shots = []
    for frac in (0.0, 0.3, -0.3, 0.6, -0.6, 0.85, -0.85):
        offset = math.degrees(math.asin(min(frac * 2.0 * R / max(d, 2.0 * R), 1.0)))
        for V in (1.0, 2.0, 3.5, 6.0):
            for b in (-0.3, 0.3):
                shots.append(Shot(V0=V, phi=base + offset, b=b))
    kicks = []
    for axis, line in ((0, R), (0, view.table.width - R), (1, R), (1, view.table.length - R)):
        image = obj.copy()
        image[axis] = 2.0 * line - obj[axis]
        for V in (2.0, 3.5):
            kicks.append(Shot(V0=V, phi=direction_deg(cue, image)))
    return spread(shots, max(budget - len(kicks), 1)) + kicks
