"""The compiled core of ``agents.protocol``: the ball layouts of many observations at once, float32 overlaps pushed
apart. Units: metres."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def observed_layouts(obs, pos_at, on_at, width, length, R, pos, on):
    """Ball centres [m] and the on-table mask of observations ``obs`` (N, OBS_SIZE) (float64): positions read from
    columns ``pos_at`` on (x / width, y / length per ball), the mask from ``on_at`` on (> 0.5), into ``pos`` (N, n, 2)
    (0 off the table) and ``on`` (N, n); balls that overlap after the float32 rounding are pushed apart (touching
    balls end 10 nm apart: ``separate``)."""
    n = pos.shape[1]
    for i in range(obs.shape[0]):
        for b in range(n):
            on[i, b] = obs[i, on_at + b] > 0.5
            if on[i, b]:
                pos[i, b, 0] = obs[i, pos_at + 2 * b] * width
                pos[i, b, 1] = obs[i, pos_at + 2 * b + 1] * length
            else:
                pos[i, b, 0] = 0.0
                pos[i, b, 1] = 0.0
        separate(pos[i], on[i], R)


@njit(cache=True)
def separate(pos, on, R):
    """Push apart the balls of ``on`` whose centres ``pos`` (n, 2) [m] are closer than 2R + 10 nm (float32
    rounding), each by half the overlap along the line of centres, in up to five sweeps over the pairs."""
    reach = 2.0 * R + 1e-8
    for _ in range(5):
        moved = False
        for i in range(pos.shape[0]):
            if not on[i]:
                continue
            for j in range(i + 1, pos.shape[0]):
                if not on[j]:
                    continue
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                dist = math.hypot(dx, dy)
                if dist < reach:
                    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
                    push = (reach - dist) / 2.0
                    pos[i, 0] -= ux * push
                    pos[i, 1] -= uy * push
                    pos[j, 0] += ux * push
                    pos[j, 1] += uy * push
                    moved = True
        if not moved:
            return
