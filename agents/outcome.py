"""A fast reading of a simulated shot for search: foul or not, balls pocketed, straight from the event arrays.

It applies the same tests as the rules engine (``nineball_env.rules.ruling.shot_fouls`` /
``push_out_fouls``: R-LOWEST first contact with simultaneous contacts in the shooter's favour,
R-FOUL-NO-RAIL, R-FOUL-SCRATCH, R-FOUL-JUMP) without building event objects, so a search can
judge thousands of shots; ``tests/agents`` checks that both always agree.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from nineball_env.rules.summary import SIMULTANEOUS_S
from physics import EventKind, SimResult

_BALL_BALL = int(EventKind.BALL_BALL)
_CUSHION = (int(EventKind.BALL_CUSHION), int(EventKind.BALL_JAW))
_POCKET = int(EventKind.BALL_POCKET)
_OFF = int(EventKind.BALL_OFF_TABLE)


class ShotOutcome(NamedTuple):
    """What a shot did, in the terms a search scores.

    Attributes:
        foul: the shot broke a rule (wrong ball first, no rail, scratch, ball off the table).
        potted: object balls pocketed.
        nine: the 9 was pocketed (a win when the shot is legal, R-WIN-9).
        cue_lost: the cue ball was pocketed or left the table.
    """

    foul: bool
    potted: int
    nine: bool
    cue_lost: bool

    @property
    def legal_pot(self) -> bool:
        """A legal shot that pocketed at least one object ball: the shooter stays at the table (or wins)."""
        return not self.foul and self.potted > 0


def classify(result: SimResult, lowest: int, push_out: bool = False) -> ShotOutcome:
    """Judge an ordinary shot (or a push-out, where only the scratch and jump fouls apply) on ``lowest``."""
    rows = result.events.rows  # columns: time, kind, ball_a, ball_b, ... (floats holding small integers)
    time, kind, a, b = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    pocket_rows = kind == _POCKET
    off_rows = kind == _OFF
    gone = a[pocket_rows | off_rows]
    cue_lost = bool(np.any(gone == 0))
    potted_balls = a[pocket_rows]
    potted = int(np.count_nonzero(potted_balls != 0))
    nine = bool(np.any(potted_balls == 9))
    object_off = bool(np.any(a[off_rows] != 0))
    if push_out:
        return ShotOutcome(cue_lost or object_off, potted, nine, cue_lost)
    hits = np.flatnonzero((kind == _BALL_BALL) & ((a == 0) | (b == 0)))
    if hits.size == 0:
        return ShotOutcome(True, potted, nine, cue_lost)
    t0 = time[hits[0]]
    first = hits[time[hits] - t0 <= SIMULTANEOUS_S]
    first_balls = np.where(a[first] == 0, b[first], a[first])
    foul = not bool(np.any(first_balls == lowest))
    if not foul and potted == 0:
        rail = ((kind == _CUSHION[0]) | (kind == _CUSHION[1])) & (time >= t0)
        foul = not bool(np.any(rail))
    foul = foul or cue_lost or object_off
    return ShotOutcome(foul, potted, nine, cue_lost)
