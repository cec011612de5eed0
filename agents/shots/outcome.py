"""What a simulated shot did under the rules: the ruling on an ordinary shot (or push-out) by the deciding player,
in the terms a searching player scores (foul, object balls pocketed, the 9, the cue ball lost)."""

from __future__ import annotations

from typing import NamedTuple

import physics
from agents.protocol import TableView
from nineball_env import rules
from nineball_env.rules import BallInHand, Phase


class ShotOutcome(NamedTuple):
    """What a simulated shot did, in the terms the search scores: foul, object balls pocketed, the 9, scratch."""

    foul: bool
    potted: int
    nine: bool
    cue_lost: bool

    @property
    def legal_pot(self) -> bool:
        """A legal shot that pocketed at least one object ball: the shooter stays at the table (or wins)."""
        return not self.foul and self.potted > 0


def judge(view: TableView, result: physics.SimResult, push_out: bool = False) -> ShotOutcome:
    """The rules' ruling on a simulated ordinary shot (or push-out) by the deciding player of ``view``."""
    rack = view.rack
    phase = Phase.PUSH_OUT_ALLOWED if push_out else Phase.NORMAL
    state = rules.RackState(rack.breaker, view.player, rack.on_table, phase, BallInHand.NONE, rack.foul_counts)
    ruling = rules.decide_log(state, result.events.rows,
                              rules.Declaration.PUSH_OUT if push_out else rules.Declaration.SHOT)
    pocketed = ruling.pocketed
    cue_lost = 0 in pocketed or 0 in ruling.off_table
    return ShotOutcome(ruling.foul, sum(1 for b in pocketed if b != 0), 9 in pocketed, cue_lost)
