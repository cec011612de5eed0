"""Noise-free look at where a shot leaves the table: the value of one simulated shot, for the macro layer's features.

A learning agent that sees only ball coordinates must discover position play from scratch; these numbers
hand it what one noise-free simulation of a candidate shot says (the same scale as ``agents.search``'s
sample value, so 0.5 separates keeping the table from giving it away):

* 1 for a legal shot that pockets the 9 (R-WIN-9); 0 for a foul;
* 0.5 + 0.5·e after any other legal pot, e the estimated chance of potting the next ball from where the
  cue ball stopped (``agents.shots.best_ease``);
* 0.5 − 0.5·e′ when the turn passes, e′ the opponent's chance from the leave.
"""

from __future__ import annotations

import numpy as np

import physics
from agents.base import TableView
from agents.search import judge
from agents.shots import aim_sigma, best_ease
from physics import BallState, Shot

MAX_EVENTS, MAX_TIME = 1000, 60.0  # caps of one simulated shot (those of ``agents.search``)


def leave_ease(view: TableView, final: BallState) -> float:
    """Chance of potting the next shot from the resting balls ``final`` (1 once the cue ball or every object
    ball is off the table: the next player shoots with ball in hand or the rack is over)."""
    on = final.on_table()
    left = [b for b in range(1, len(on)) if on[b]]
    if not on[0] or not left:
        return 1.0
    return best_ease(final.pos[0], final.pos, on, left[0], view.table, view.params, aim_sigma(view.noise))


def shot_value(view: TableView, state: BallState, shot: Shot, push_out: bool = False) -> float:
    """Value in [0, 1] of ``shot`` from ``state`` (the cue ball already placed), simulated once without noise
    (see the module docstring); a shot the physics rejects is worth 0, like a foul."""
    try:
        result = physics.simulate(state, shot, view.table, view.params, max_events=MAX_EVENTS, max_time=MAX_TIME)
    except ValueError:
        return 0.0
    out = judge(view, result, push_out=push_out)
    if out.foul:
        return 0.0
    if out.nine:
        return 1.0
    e = leave_ease(view, result.state)
    return 0.5 + 0.5 * e if out.potted else 0.5 - 0.5 * e


__all__ = ["leave_ease", "shot_value"]
