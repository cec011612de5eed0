"""Noise-free look at where a shot leaves the table: the value of one simulated shot, for the macro layer's features.

A learning agent that sees only ball coordinates must discover position play from scratch; these numbers
hand it what one noise-free simulation of a candidate shot says (the same scale as ``agents.players.search``'s
sample value, so 0.5 separates keeping the table from giving it away):

* 1 for a legal shot that pockets the 9 (R-WIN-9); 0 for a foul;
* 0.5 + 0.5·e after any other legal pot, e the estimated chance of potting the next ball from where the
  cue ball stopped (``agents.shots.pots.best_ease``);
* 0.5 − 0.5·e′ when the turn passes, e′ the opponent's chance from the leave.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.protocol import TableView
from agents.shots import kernels as K
from agents.shots.aim import check_shot_rows
from agents.shots.pots import aim_sigma, pocket_geometry
from nineball_env import rules
from nineball_env.rules import BallInHand, Phase
from nineball_env.rules.facts import SIMULTANEOUS_S
from physics import BallState, Shot
from physics.api import params_array
from physics.validate import OVERLAP_TOL

MAX_EVENTS, MAX_TIME = 1000, 60.0  # caps of one simulated shot (those of ``agents.players.search``)


def shot_rack(view: TableView) -> np.ndarray:
    """The packed rack (``RackState.packed``) an ordinary shot by ``view``'s deciding player is ruled from."""
    r = view.rack
    return rules.RackState(r.breaker, view.player, r.on_table, Phase.NORMAL, BallInHand.NONE, r.foul_counts).packed()


def shot_values(views: Sequence[TableView], states: Sequence[BallState], which: np.ndarray, shots: np.ndarray
                ) -> np.ndarray:
    """The values (see the module docstring) of shots (N, 5) rows (V0, phi°, theta°, a, b), row i played from
    ``states[which[i]]`` (the cue ball already placed) and judged for ``views[which[i]]``, in one compiled call
    (``kernels.shot_values_batch``). Every view shares one table and one set of physics parameters."""
    if len(views) != len(states) or not views:
        raise ValueError(f"views, states: expected as many views as states (at least one), got {len(views)} and "
                         f"{len(states)}")
    which = np.ascontiguousarray(which, dtype=np.int64).reshape(-1)
    shots = check_shot_rows(shots)
    if which.shape[0] != shots.shape[0]:
        raise ValueError(f"which: expected one state index per shot ({shots.shape[0]}), got {which.shape[0]}")
    if which.size and not (0 <= which.min() and which.max() < len(views)):
        raise ValueError(f"which: expected state indices in 0..{len(views) - 1}, got {which.tolist()}")
    table, params = views[0].table, views[0].params
    if any(v.table is not table and v.table != table or v.params != params for v in views):
        raise ValueError("views: expected one table and one set of physics parameters for the whole batch")
    packed = np.ascontiguousarray(np.stack([s.packed() for s in states]))
    racks = np.ascontiguousarray(np.stack([shot_rack(v) for v in views]))
    sigma = np.array([aim_sigma(v.noise) for v in views])
    out = np.empty(shots.shape[0])
    K.shot_values_batch(packed, racks, which, shots, *pocket_geometry(table), sigma,
                        table.segments, table.jaws, table.pockets, params_array(params), float(table.spec.width),
                        float(table.spec.length), table.rail, OVERLAP_TOL, MAX_EVENTS, MAX_TIME, SIMULTANEOUS_S, out)
    return out


def shot_row(shot: Shot) -> tuple[float, float, float, float, float]:
    """``shot`` as a kernel row (V0, phi°, theta°, a, b)."""
    return (shot.V0, shot.phi, shot.theta, shot.a, shot.b)


def leave_ease(view: TableView, final: BallState) -> float:
    """Chance of potting the next shot from the resting balls ``final`` (1 once the cue ball or every object
    ball is off the table: the next player shoots with ball in hand or the rack is over)."""
    table = view.table
    return float(K.leave_ease(np.ascontiguousarray(final.packed()), *pocket_geometry(table),
                              float(table.width), float(table.length), float(view.params.R), aim_sigma(view.noise)))


def shot_value(view: TableView, state: BallState, shot: Shot) -> float:
    """Value in [0, 1] of ``shot`` from ``state`` (the cue ball already placed), simulated once without noise
    (see the module docstring); a shot the physics rejects is worth 0, like a foul. ``shot_values`` of one shot."""
    return float(shot_values([view], [state], np.zeros(1, dtype=np.int64), np.array([shot_row(shot)]))[0])


__all__ = ["leave_ease", "shot_rack", "shot_row", "shot_value", "shot_values"]
