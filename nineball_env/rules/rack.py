"""A new rack (R-RACK) and spotting the 9 (R-SPOT-9).

Positions are passed in as ``{ball: (x, y)}``; the physics core owns where balls are, this module
only decides where the 9 goes (R-SPOT-9). Where a cue ball in hand may go (R-BIH, R-BREAK-POS) is
``nineball_env.placement``'s one check.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from nineball_env.rules.events import NINE
from nineball_env.rules.state import RackState
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, Table

Positions = Mapping[int, tuple[float, float]]
#: Two centres closer than 2R − TOUCH_TOL [m] overlap (a spotted 9 needs at least 2R − TOUCH_TOL).
TOUCH_TOL = 1e-9
#: Gap [m] left between a spotted 9 and the ball that blocks it, so it starts clear of that ball.
SPOT_GAP = 1e-8


def rack_order(rng: np.random.Generator) -> tuple[int, ...]:
    """The balls of the diamond by slot, apex first and the centre at index 4 (R-RACK).

    The 1 is at the apex, the 9 in the centre, 2–8 in random order; the draw is the same as
    ``physics.rack.nine_ball_rack``'s, so one generator state gives both the same rack.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng: expected a numpy.random.Generator, got {type(rng).__name__}")
    others = [int(b) for b in rng.permutation(np.arange(2, 9))]
    return (1, *others[:3], NINE, *others[3:])


def new_rack(rng: np.random.Generator, breaker: int = 0) -> tuple[RackState, tuple[int, ...]]:
    """A fresh rack with ``breaker`` to break from the kitchen (R-BREAK-POS), and its slot order (R-RACK).

    Foul counts start at zero: they never carry over from a previous rack (R-THREE-FOULS).
    """
    order = rack_order(rng)
    return RackState.start(breaker, order), order


def spot_nine(positions: Positions, table: Table = DEFAULT_TABLE, r: float = DEFAULT_PARAMS.R) -> tuple[float, float]:
    """Where the 9 is spotted (R-SPOT-9): the foot spot, else the nearest free point behind it on the
    long string (toward the foot cushion), else the nearest free point in front of it.

    ``positions`` are the centres of the balls that stay on the table (the 9's entry, if any, is
    ignored; leave out a cue ball that is in hand, since spotting comes first); ``r`` is the ball radius [m].
    Raises ValueError when the whole centre line is blocked.
    """
    x, foot_y = table.foot_spot
    others = [(float(ox), float(oy)) for ball, (ox, oy) in positions.items() if int(ball) != NINE]
    clearance = 2 * r + SPOT_GAP
    # Candidates: the foot spot and, for each ball near the line, the two points where the 9 just clears it.
    candidates = [foot_y]
    for ox, oy in others:
        dx = abs(ox - x)
        if dx < clearance:
            half = math.sqrt(clearance * clearance - dx * dx)
            candidates += [oy - half, oy + half]
    touching = 2 * r - TOUCH_TOL
    free = [y for y in candidates  # (a NaN distance is not clear)
            if r <= y <= table.length - r and all(math.hypot(x - ox, y - oy) >= touching for ox, oy in others)]
    behind = [y for y in free if y >= foot_y]
    if behind:
        return (x, min(behind))
    in_front = [y for y in free if y < foot_y]
    if in_front:
        return (x, max(in_front))
    raise ValueError("no free point on the long centre line to spot the 9 (R-SPOT-9)")
