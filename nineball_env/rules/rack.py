"""A new rack (R-RACK) and spotting the 9 (R-SPOT-9): the readable views of the rack kernels (``kernels.rack``).

Positions are passed in as ``{ball: (x, y)}``; the physics core owns where balls are, this module
only decides where the 9 goes (R-SPOT-9). Where a cue ball in hand may go (R-BIH, R-BREAK-POS) is
``nineball_env.placement``'s one check.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from nineball_env.kernels.draws import GEN_W, generator_row
from nineball_env.kernels.rack import SPOT_GAP, TOUCH_TOL, spot_nine_at
from nineball_env.kernels.rack import rack_order as rack_order_kernel
from nineball_env.rules.events import NINE
from nineball_env.rules.state import RackState
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, Table

Positions = Mapping[int, tuple[float, float]]
__all__ = ["SPOT_GAP", "TOUCH_TOL", "new_rack", "rack_order", "spot_nine"]


def rack_order(rng: np.random.Generator) -> tuple[int, ...]:
    """The balls of the diamond by slot, apex first and the centre at index 4 (R-RACK).

    The 1 is at the apex, the 9 in the centre, 2–8 in random order; the draw is the same as
    ``physics.rack.nine_ball_rack``'s, so one generator state gives both the same rack.
    """
    gen = np.empty(GEN_W, dtype=np.int64)
    generator_row(rng, gen)  # ValueError for what is not a Generator
    order = np.empty(9, dtype=np.int64)
    rack_order_kernel(gen, order)
    return tuple(order.tolist())


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
    others = np.array([(float(ox), float(oy)) for ball, (ox, oy) in positions.items() if int(ball) != NINE],
                      dtype=np.float64).reshape(-1, 2)
    found, y = spot_nine_at(np.ascontiguousarray(others[:, 0]), np.ascontiguousarray(others[:, 1]), len(others),
                            float(x), float(foot_y), float(table.length), float(r))
    if not found:
        raise ValueError("no free point on the long centre line to spot the 9 (R-SPOT-9)")
    return (x, y)
