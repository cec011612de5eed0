"""The compiled core of ``agents.protocol``: the ball layouts (float32 overlaps pushed apart) and the rack states of
many observations at once. Units: metres."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from numba import njit

from nineball_env.kernels import codes
from nineball_env.kernels.codes import NO_PLAYER, RackCol
from physics.kernels import drop_stale_numba_cache

# numba checks a cached kernel against its own file only: ``observed_rows`` freezes the rack's columns and codes
drop_stale_numba_cache(Path(__file__).resolve().parent, Path(codes.__file__).resolve())


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
def observed_rows(obs, pos_at, on_at, phase_at, n_phase, hand_at, n_hand, fouls_at, breaker_at, width, length, R, pos,
                  on, racks, lowest):
    """``observed_layouts`` and the rack states the observations show, seen by player 0 (the shooter), as packed rows
    into ``racks`` (N, RACK_W) (``RackState.packed``: the phase and ball-in-hand one-hots from columns ``phase_at``
    and ``hand_at`` on, the fouls from ``fouls_at`` (x 2, at most 2), the breaker from ``breaker_at``, the object
    balls from ``on``), and the lowest object ball on the table into ``lowest`` (N,). Returns the first row whose
    rack is over (no phase set), or -1."""
    observed_layouts(obs, pos_at, on_at, width, length, R, pos, on)
    over = -1
    for i in range(obs.shape[0]):
        phase = np.argmax(obs[i, phase_at:phase_at + n_phase])
        shown = False
        for j in range(n_phase):
            shown = shown or obs[i, phase_at + j] != 0.0
        if not shown and over < 0:
            over = i
        bits = 0
        lowest[i] = 0
        for b in range(pos.shape[1] - 1, 0, -1):
            if on[i, b]:
                bits |= 1 << b
                lowest[i] = b
        racks[i, RackCol.SHOOTER] = 0
        racks[i, RackCol.PHASE] = phase
        racks[i, RackCol.IN_HAND] = np.argmax(obs[i, hand_at:hand_at + n_hand])
        racks[i, RackCol.ON_BITS] = bits
        racks[i, RackCol.COUNT0] = min(np.rint(obs[i, fouls_at] * 2.0), 2.0)
        racks[i, RackCol.COUNT1] = min(np.rint(obs[i, fouls_at + 1] * 2.0), 2.0)
        racks[i, RackCol.BREAKER] = 0 if obs[i, breaker_at] > 0.5 else 1
        racks[i, RackCol.WINNER] = NO_PLAYER
        racks[i, RackCol.ENDED_BY] = -1
    return over


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
