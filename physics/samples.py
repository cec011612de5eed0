"""Seeded shot sets: the breaks and ordinary shots that ``benchmarks/physics_throughput.py`` times and that the
physics tests and their reference data (``tests/physics/data``) replay, in one place so they cannot drift apart.

Each function returns ``(state, shot)`` pairs, the same for the same arguments (the sets are built with numpy's
seeded generator only).
"""

from __future__ import annotations

import math

import numpy as np

from physics.params import DEFAULT_PARAMS
from physics.rack import nine_ball_rack, place_balls
from physics.shot import Shot
from physics.state import BallState
from physics.table import DEFAULT_TABLE


def break_shots(n: int, seed: int) -> list[tuple[BallState, Shot]]:
    """n racks with a firm break from the kitchen at the 1 ball, slightly varied."""
    rng = np.random.default_rng(seed)
    table = DEFAULT_TABLE
    out = []
    for _ in range(n):
        cx = rng.uniform(0.3, table.width - 0.3)
        state = nine_ball_rack(rng, cue_position=(cx, table.head_string_y * 0.8))
        fx, fy = table.foot_spot
        phi = math.degrees(math.atan2(fy - state.pos[0, 1], fx - cx)) + rng.normal(0, 0.2)
        out.append((state, Shot(V0=float(rng.uniform(7.0, 9.0)), phi=float(phi), b=float(rng.uniform(-0.2, 0.2)))))
    return out


def ordinary_shots(n: int, seed: int) -> list[tuple[BallState, Shot]]:
    """Random layouts of 2–9 balls and a shot aimed at a random object ball with moderate speed and spin."""
    rng = np.random.default_rng(seed)
    table, R = DEFAULT_TABLE, DEFAULT_PARAMS.R
    out = []
    while len(out) < n:
        k = int(rng.integers(2, 10))
        pts: list[tuple[float, float]] = []
        while len(pts) < k:
            p = (rng.uniform(R, table.width - R), rng.uniform(R, table.length - R))
            if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > (2.05 * R) ** 2 for q in pts):
                pts.append(p)
        balls = [0, *sorted(rng.choice(np.arange(1, 10), size=k - 1, replace=False).tolist())]
        state = place_balls(dict(zip(balls, pts)))
        target = pts[1 + int(rng.integers(0, k - 1))]
        phi = math.degrees(math.atan2(target[1] - pts[0][1], target[0] - pts[0][0])) + rng.normal(0, 2.0)
        shot = Shot(V0=float(rng.uniform(0.8, 3.0)), phi=float(phi),
                    a=float(rng.uniform(-0.3, 0.3)), b=float(rng.uniform(-0.4, 0.4)))
        out.append((state, shot))
    return out
