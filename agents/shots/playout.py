"""Play candidate shots out and describe the positions they leave: the simulator and the rules for many rows at once.

A searching player that values outcomes with a network needs, for every candidate shot and every noise draw, where
the balls stopped and how the rules stand after it (who acts next, ball in hand, fouls, the rack over). ``Playout``
serves both for one table, its physics and its noise, from the compiled ``playout_kernels``: ``play`` simulates and
rules shot rows in one call, ``features`` describes positions for a value network in another.

Feature layout (``playout_kernels.F_*``, every number in [0, 1], seen by the player to act): ball in hand, push-out
allowed, the player's and the opponent's consecutive fouls (1, 2), the cue ball (x / width, y / length; 0 in hand),
the share of object balls left, then for the object balls in the order they must be played (the lowest first):
present, x, y, is the 9; for the first four, how pottable they are wherever the cue ball is (a straight pot from
0.3 m, the best pocket) and their clear pockets / 6; and the cue ball's best shot on the lowest ball (ease, options
/ 6, cut / 90°, distance / length), whether a ball blocks the lowest, the distance to it and the best ease with
combinations on the 9.
"""

from __future__ import annotations

import numpy as np

from agents.shots import playout_kernels as PK
from agents.shots.pots import aim_sigma, pocket_geometry
from nineball_env.kernels.codes import RACK_W, DeclarationCode
from nineball_env.noise import NoiseConfig
from nineball_env.rules.facts import SIMULTANEOUS_S
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table
from physics.api import params_array
from physics.validate import OVERLAP_TOL

MAX_EVENTS, MAX_TIME = 1000, 60.0  # caps of one simulated ordinary shot (those of ``agents.shots.leaves``)
BREAK_EVENTS = 2000  # a break moves every ball
N_FEATURES = PK.N_FEATURES
REJECTED = PK.REJECTED
SHOT, PUSH_OUT = int(DeclarationCode.SHOT), int(DeclarationCode.PUSH_OUT)


class Playout:
    """Simulate-and-rule and position features for one table, physics and noise (the kernels' arguments, once)."""

    def __init__(self, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                 noise: NoiseConfig | None = None) -> None:
        self.table, self.params = table, params
        self.aims, self.axes, self.model = pocket_geometry(table)
        self.p = params_array(params)
        self.width, self.length = float(table.spec.width), float(table.spec.length)
        self.foot = tuple(float(v) for v in table.foot_spot)
        self.R = float(params.R)
        self.sigma = aim_sigma(noise or NoiseConfig())

    def play(self, starts: np.ndarray, racks: np.ndarray, which: np.ndarray, shots: np.ndarray,
             declaration: int = SHOT, max_events: int = MAX_EVENTS) -> tuple[np.ndarray, np.ndarray]:
        """Shot rows (N, 5) (V0, phi°, theta°, a, b), row i played from packed state ``starts[which[i]]`` (M, n, 9)
        under rack row ``racks[which[i]]`` (M, RACK_W) with ``declaration`` (a ``DeclarationCode``): the balls at rest
        (N, n, 9) and the rack rows after (N, RACK_W); a layout the physics rejects gets shooter ``REJECTED``."""
        starts = np.ascontiguousarray(starts, dtype=np.float64)
        racks = np.ascontiguousarray(racks, dtype=np.int64)
        which = np.ascontiguousarray(which, dtype=np.int64).reshape(-1)
        shots = np.ascontiguousarray(shots, dtype=np.float64).reshape(-1, 5)
        if starts.ndim != 3 or starts.shape[2] != 9 or racks.shape != (starts.shape[0], RACK_W):
            raise ValueError(f"starts, racks: expected (M, n, 9) and (M, {RACK_W}), got {starts.shape} and "
                             f"{racks.shape}")
        if which.shape[0] != shots.shape[0]:
            raise ValueError(f"which: expected one start per shot ({shots.shape[0]}), got {which.shape[0]}")
        if which.size and not (0 <= which.min() and which.max() < starts.shape[0]):
            raise ValueError(f"which: expected start indices in 0..{starts.shape[0] - 1}")
        if not np.isfinite(shots).all():
            raise ValueError("shots: expected finite numbers")
        n = shots.shape[0]
        states = np.empty((n, starts.shape[1], 9))
        after = np.empty((n, RACK_W), dtype=np.int64)
        t = self.table
        PK.play_rows(starts, racks, which, shots, np.full(n, declaration, dtype=np.int64), t.segments, t.jaws,
                     t.pockets, self.p, self.width, self.length, t.rail, OVERLAP_TOL, int(max_events), MAX_TIME,
                     SIMULTANEOUS_S, self.foot[0], self.foot[1], states, after)
        return states, after

    def features(self, states: np.ndarray, racks: np.ndarray) -> np.ndarray:
        """The features (N, N_FEATURES) of packed states (N, n, 9) under rack rows (N, RACK_W) (see the module
        docstring); rows whose rack is over are 0."""
        states = np.ascontiguousarray(states, dtype=np.float64)
        racks = np.ascontiguousarray(racks, dtype=np.int64)
        if states.ndim != 3 or states.shape[2] != 9 or racks.shape != (states.shape[0], RACK_W):
            raise ValueError(f"states, racks: expected (N, n, 9) and (N, {RACK_W}), got {states.shape} and "
                             f"{racks.shape}")
        out = np.empty((states.shape[0], N_FEATURES))
        PK.position_features(states, racks, self.aims, self.axes, self.model, self.width, self.length, self.R,
                             self.sigma, out)
        return out


__all__ = ["BREAK_EVENTS", "MAX_EVENTS", "N_FEATURES", "PUSH_OUT", "Playout", "REJECTED", "SHOT"]
