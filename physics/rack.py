"""Layouts: the nine-ball rack and placing balls by number."""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.state import N_BALLS, BallState
from physics.table import DEFAULT_TABLE, Table

RACK_GAP = 1e-8  # [m] numerical gap between "touching" racked balls


def rack_positions(table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS) -> np.ndarray:
    """The 9 diamond slots (apex first, centre slot at index 4), apex on the foot spot, rows toward the foot."""
    fx, fy = table.foot_spot
    d = 2.0 * params.R + RACK_GAP
    slots = []
    for row, count in enumerate((1, 2, 3, 2, 1)):
        y = fy + row * d * math.sqrt(3.0) / 2.0
        for j in range(count):
            slots.append((fx + (j - (count - 1) / 2.0) * d, y))
    return np.array(slots)


def nine_ball_rack(
    rng: np.random.Generator,
    table: Table = DEFAULT_TABLE,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    cue_position: tuple[float, float] | None = None,
    jitter: float = 0.0,
) -> BallState:
    """A nine-ball rack (R-RACK): 1 on the foot spot, 9 in the centre, 2–8 in random order from ``rng``.

    ``cue_position`` defaults to the middle of the head string; ``jitter`` [m] adds a uniform
    gap of up to that size between neighbouring rows (balls never overlap).
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng: expected a numpy.random.Generator, got {type(rng).__name__}")
    if not (math.isfinite(jitter) and 0.0 <= jitter <= params.R):
        raise ValueError(f"jitter: expected a gap in [0, R={params.R}] m, got {jitter!r}")
    slots = rack_positions(table, params)
    if jitter > 0.0:
        row_of_slot = np.array([0, 1, 1, 2, 2, 2, 3, 3, 4])
        row_shift = np.cumsum(np.concatenate([[0.0], rng.uniform(0.0, jitter, 4)]))
        slots[:, 1] += row_shift[row_of_slot]
        slots[:, 0] += rng.uniform(-jitter / 4, jitter / 4, 9) * (row_of_slot > 0)
        # keep every pair apart after the sideways nudge
        slots = _separate(slots, 2.0 * params.R + RACK_GAP)
    others = rng.permutation(np.arange(2, 9))
    order = [1, *others[:3], 9, *others[3:]]  # slot 4 is the centre of the middle row
    state = BallState.empty(N_BALLS)
    for slot, ball in enumerate(order):
        state.place(int(ball), *slots[slot])
    cx, cy = cue_position if cue_position is not None else (table.width / 2.0, table.head_string_y)
    state.place(0, cx, cy)
    return state


def _separate(points: np.ndarray, min_dist: float) -> np.ndarray:
    """Push points apart pairwise until no two are closer than ``min_dist`` (few points, few passes)."""
    points = points.copy()
    for _ in range(50):
        moved = False
        for i in range(len(points)):
            for j in range(i + 1, len(points)):
                delta = points[j] - points[i]
                dist = math.hypot(*delta)
                if dist < min_dist:
                    push = (min_dist - dist) / 2.0 + 1e-12
                    unit = delta / dist if dist > 0 else np.array([1.0, 0.0])
                    points[i] -= unit * push
                    points[j] += unit * push
                    moved = True
        if not moved:
            break
    return points


def place_balls(positions: Mapping[int, tuple[float, float]], n_balls: int = N_BALLS) -> BallState:
    """A state with the given balls at rest at the given centres; every other ball is off the table."""
    state = BallState.empty(n_balls)
    for ball, xy in positions.items():
        if not isinstance(ball, (int, np.integer)) or not 0 <= int(ball) < n_balls:
            raise ValueError(f"positions: ball numbers must be integers 0..{n_balls - 1}, got {ball!r}")
        try:
            x, y = (float(v) for v in xy)
        except (TypeError, ValueError):
            raise ValueError(f"positions[{ball}]: expected an (x, y) pair, got {xy!r}") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"positions[{ball}]: expected finite coordinates, got {xy!r}")
        state.place(int(ball), x, y)
    return state
