"""What a simulated shot did under the rules: the ruling on an ordinary shot (or push-out) by the deciding player,
in the terms a searching player scores (foul, object balls pocketed, the 9, the cue ball lost)."""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

import physics
from agents.protocol import TableView
from agents.shots import kernels as K
from nineball_env import rules
from nineball_env.game import REPLAY_TIME_FACTOR
from nineball_env.rules import BallInHand, Phase
from physics.api import MAX_EVENTS_LIMIT, params_array
from physics.kernels.codes import FLAG_IN_FLIGHT, LOG_W
from physics.validate import OVERLAP_TOL


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


def simulate_resolved(state: physics.BallState, shot: physics.Shot, table: physics.Table,
                      params: physics.PhysicsParams, max_events: int, max_time: float) -> physics.SimResult | None:
    """``physics.simulate`` with these caps; a shot they stop with a ball in the air (``SimResult.in_flight``: the
    rules cannot read its log) is simulated again with the physics' largest event cap and ``REPLAY_TIME_FACTOR`` x
    the time cap, as the env does (``nineball_env.game.simulate_shot``). None when it is still in the air then (the
    env would void it). Raises ValueError for a layout the physics refuses."""
    result = physics.simulate(state, shot, table, params, max_events=max_events, max_time=max_time)
    if result.in_flight:
        result = physics.simulate(state, shot, table, params, max_events=MAX_EVENTS_LIMIT,
                                  max_time=REPLAY_TIME_FACTOR * max_time)
    return None if result.in_flight else result


def resolved_logs(states: Sequence[physics.BallState], which: np.ndarray, shots: Sequence[physics.Shot],
                  table: physics.Table, params: physics.PhysicsParams, max_events: int, max_time: float
                  ) -> list[np.ndarray | None]:
    """``simulate_resolved`` of every shot ``shots[i]`` from ``states[which[i]]``, all in one compiled call
    (``kernels.simulate_shots``, the physics' kernel bit for bit): each shot's event-log rows; None where the
    physics refuses the layout (``simulate_resolved`` raises) or the shot is still in the air at the largest caps
    (shots the caps stop in the air are replayed alone with those caps, as ``simulate_resolved`` does)."""
    which = np.ascontiguousarray(which, dtype=np.int64).reshape(-1)
    if len(which) != len(shots) or (len(which) and not 0 <= which.min() <= which.max() < len(states)):
        raise ValueError(f"which: expected {len(shots)} indices into {len(states)} states, got {which.tolist()}")
    if not shots:
        return []
    packed = np.stack([s.packed() for s in states])
    rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots], dtype=np.float64).reshape(len(shots), 5)
    logs = np.empty((len(shots), max_events, LOG_W))
    out = np.empty((len(shots), 3), dtype=np.int64)
    K.simulate_shots(packed, which, rows, table.segments, table.jaws, table.pockets, params_array(params),
                     float(table.spec.width), float(table.spec.length), table.rail, OVERLAP_TOL, np.int64(max_events),
                     float(max_time), logs, out)
    resolved: list[np.ndarray | None] = []
    for k, shot in enumerate(shots):
        if out[k, 2] != 0:  # the layout is refused
            resolved.append(None)
        elif out[k, 1] & FLAG_IN_FLIGHT:
            result = physics.simulate(states[which[k]], shot, table, params, max_events=MAX_EVENTS_LIMIT,
                                      max_time=REPLAY_TIME_FACTOR * max_time)
            resolved.append(None if result.in_flight else result.events.rows)
        else:
            resolved.append(logs[k, :int(out[k, 0])])
    return resolved


def judge(view: TableView, result: physics.SimResult, push_out: bool = False) -> ShotOutcome:
    """The rules' ruling on a simulated ordinary shot (or push-out) by the deciding player of ``view``."""
    return judge_rows(view, result.events.rows, push_out)


def judge_rows(view: TableView, rows: np.ndarray, push_out: bool = False) -> ShotOutcome:
    """``judge`` on a shot's event-log rows (as ``SimResult.events.rows``)."""
    rack = view.rack
    phase = Phase.PUSH_OUT_ALLOWED if push_out else Phase.NORMAL
    state = rules.RackState(rack.breaker, view.player, rack.on_table, phase, BallInHand.NONE, rack.foul_counts)
    ruling = rules.decide_log(state, rows,
                              rules.Declaration.PUSH_OUT if push_out else rules.Declaration.SHOT)
    pocketed = ruling.pocketed
    cue_lost = 0 in pocketed or 0 in ruling.off_table
    return ShotOutcome(ruling.foul, sum(1 for b in pocketed if b != 0), 9 in pocketed, cue_lost)
