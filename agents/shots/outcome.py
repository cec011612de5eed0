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
from nineball_env.kernels.codes import RACK_W
from nineball_env.rules import BallInHand, Phase
from nineball_env.rules.facts import SIMULTANEOUS_S
from physics.api import MAX_EVENTS_LIMIT, params_array
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


def ruled_shots(states: Sequence[physics.BallState], racks: Sequence[rules.RackState], which: np.ndarray,
                shots: Sequence[physics.Shot], table: physics.Table, params: physics.PhysicsParams, max_events: int,
                max_time: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``ruled_rows`` of ball states, rack states and ``Shot`` objects."""
    if len(racks) != len(states):
        raise ValueError(f"racks: expected one per state ({len(states)}), got {len(racks)}")
    packed = np.stack([s.packed() for s in states]) if states else np.empty((0, physics.N_BALLS, 9))
    rack_rows = np.stack([r.packed() for r in racks]) if racks else np.empty((0, RACK_W), dtype=np.int64)
    return ruled_rows(packed, rack_rows, which, _shot_rows(shots), table, params, max_events, max_time)


def ruled_rows(states: np.ndarray, racks: np.ndarray, which: np.ndarray, shots: np.ndarray, table: physics.Table,
               params: physics.PhysicsParams, max_events: int, max_time: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``simulate_resolved`` and the rules' ruling (``rules.decide_log`` of an ordinary shot from rack row
    ``racks[k]``) of every strike ``shots[i]`` (V0, phi, theta, a, b) from packed state ``states[k]`` (n, 9),
    k = ``which[i]``, in one compiled call (``kernels.ruled_shots``; the rare shot the caps stop in the air is
    replayed alone with the largest caps, as ``simulate_resolved`` does): whether each was a foul (N,), its object
    balls pocketed (N,), and whether it has no ruling (N,): the physics refuses the layout (``simulate_resolved``
    raises) or the shot is still in the air at the largest caps."""
    which = np.ascontiguousarray(which, dtype=np.int64).reshape(-1)
    shots = np.ascontiguousarray(shots, dtype=np.float64).reshape(-1, 5)
    if len(which) != len(shots) or (len(which) and not 0 <= which.min() <= which.max() < len(states)):
        raise ValueError(f"which: expected {len(shots)} indices into {len(states)} states, got {which.tolist()}")
    if len(racks) != len(states):
        raise ValueError(f"racks: expected one per state ({len(states)}), got {len(racks)}")
    out = np.zeros((len(shots), 3), dtype=np.int64)
    if len(shots):
        K.ruled_shots(np.ascontiguousarray(states, dtype=np.float64), np.ascontiguousarray(racks, dtype=np.int64),
                      which, shots, table.segments, table.jaws, table.pockets, params_array(params),
                      float(table.spec.width), float(table.spec.length), table.rail, OVERLAP_TOL, np.int64(max_events),
                      float(max_time), SIMULTANEOUS_S, out)
    for i in np.flatnonzero(out[:, 0] == 2).tolist():  # stopped in the air: replayed with the largest caps
        k = int(which[i])
        result = physics.simulate(physics.BallState.from_packed(states[k]), physics.Shot(*shots[i].tolist()), table,
                                  params, max_events=MAX_EVENTS_LIMIT, max_time=REPLAY_TIME_FACTOR * max_time)
        if result.in_flight:
            continue
        ruling = rules.decide_log(rules.RackState.from_packed(racks[k]), result.events.rows, rules.Declaration.SHOT)
        out[i] = (0, int(ruling.foul), sum(1 for b in ruling.pocketed if b != 0))
    return out[:, 1] != 0, out[:, 2], out[:, 0] != 0


def _shot_rows(shots: Sequence[physics.Shot]) -> np.ndarray:
    """``Shot`` objects as (N, 5) rows (V0, phi, theta, a, b)."""
    return np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots], dtype=np.float64).reshape(-1, 5)


def settled(states: Sequence[physics.BallState], which: np.ndarray, shots: Sequence[physics.Shot],
            table: physics.Table, params: physics.PhysicsParams, max_events: int, max_time: float) -> np.ndarray:
    """``settled_rows`` of ball states and ``Shot`` objects."""
    packed = np.stack([s.packed() for s in states]) if states else np.empty((0, physics.N_BALLS, 9))
    return settled_rows(packed, which, _shot_rows(shots), table, params, max_events, max_time)


def settled_rows(states: np.ndarray, which: np.ndarray, shots: np.ndarray, table: physics.Table,
                 params: physics.PhysicsParams, max_events: int, max_time: float) -> np.ndarray:
    """The packed states (N, n, 9) that strikes ``shots[i]`` (V0, phi, theta, a, b) from packed states
    ``states[which[i]]`` leave (``physics.simulate`` with these caps, its ``SimResult.state``), all in one compiled
    call (``kernels.settled_states``). Raises ``physics.simulate``'s ValueError for a layout the physics refuses."""
    which = np.ascontiguousarray(which, dtype=np.int64).reshape(-1)
    shots = np.ascontiguousarray(shots, dtype=np.float64).reshape(-1, 5)
    if len(which) != len(shots) or (len(which) and not 0 <= which.min() <= which.max() < len(states)):
        raise ValueError(f"which: expected {len(shots)} indices into {len(states)} states, got {which.tolist()}")
    packed = np.ascontiguousarray(states, dtype=np.float64)
    finals = np.empty((len(shots), packed.shape[1], packed.shape[2]))
    codes = np.empty(len(shots), dtype=np.int64)
    if len(shots):
        K.settled_states(packed, which, shots, table.segments, table.jaws, table.pockets, params_array(params),
                         float(table.spec.width), float(table.spec.length), table.rail, OVERLAP_TOL,
                         np.int64(max_events), float(max_time), finals, codes)
    for i in np.flatnonzero(codes != 0).tolist():  # refused: the physics' own message
        physics.simulate(physics.BallState.from_packed(packed[int(which[i])]), physics.Shot(*shots[i].tolist()),
                         table, params, max_events=max_events, max_time=max_time)
        raise ValueError(f"state: the physics refuses the layout of shot {i} (layout code {int(codes[i])})")
    return finals


def shot_rack(view: TableView, push_out: bool = False) -> rules.RackState:
    """The rack state ``judge`` rules a shot (or push-out) by the deciding player of ``view`` from."""
    rack = view.rack
    phase = Phase.PUSH_OUT_ALLOWED if push_out else Phase.NORMAL
    return rules.RackState(rack.breaker, view.player, rack.on_table, phase, BallInHand.NONE, rack.foul_counts)


def judge(view: TableView, result: physics.SimResult, push_out: bool = False) -> ShotOutcome:
    """The rules' ruling on a simulated ordinary shot (or push-out) by the deciding player of ``view``."""
    ruling = rules.decide_log(shot_rack(view, push_out), result.events.rows,
                              rules.Declaration.PUSH_OUT if push_out else rules.Declaration.SHOT)
    pocketed = ruling.pocketed
    cue_lost = 0 in pocketed or 0 in ruling.off_table
    return ShotOutcome(ruling.foul, sum(1 for b in pocketed if b != 0), 9 in pocketed, cue_lost)
