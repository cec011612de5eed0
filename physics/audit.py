"""The physics audit for one shot: its event log checked against the table and the laws the simulation must keep
(the kernels are ``physics/kernels/audit.py``; ``benchmarks/soak.py`` runs them over many random shots).

    problems = physics.audit.audit(physics.simulate(state, shot))   # {"nan": 0, "overlap_sampled": 0, ...}

A shot in which no ball left the cloth is audited in plan (``AUDIT_NAMES``), one with a ball in the air in 3-D from
its heights (``AIR_AUDIT_NAMES``); each name maps to 1 when that kind of problem was found.
"""

from __future__ import annotations

import numpy as np

from physics.events import SimResult
from physics.kernels.audit import (
    AIR_AUDIT_NAMES, AUDIT_NAMES, N_AIR_AUDIT, N_AUDIT, RUN_TOL, audit_air_shot, audit_shot,
)
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.table import DEFAULT_TABLE, Table

__all__ = ["AIR_AUDIT_NAMES", "AUDIT_NAMES", "RUN_TOL", "audit"]


def audit(result: SimResult, samples: int | np.ndarray = 64, table: Table = DEFAULT_TABLE,
          params: PhysicsParams = DEFAULT_PARAMS, *, rows: np.ndarray | None = None, air: np.ndarray | None = None,
          final: np.ndarray | None = None) -> dict[str, int]:
    """Audit one simulated shot at every event and at ``samples`` times (a count, spread evenly over the shot, or
    the times [s]): {problem name: 1 if found, else 0}. ``rows``, ``air`` (its EventLog.air) and ``final`` (a packed
    state) replace the result's log and final state: a log changed by hand must be flagged (the audit's own tests).
    A cap that stopped the shot is no problem of the plan audit; the 3-D audit counts a ball still moving at the
    end (``in_flight``) as not at rest."""
    if not isinstance(result, SimResult):
        raise ValueError(f"result: expected a physics.SimResult, got {type(result).__name__}")
    rows = np.ascontiguousarray(result.events.rows if rows is None else rows, dtype=np.float64)
    air = result.events.air if air is None else air
    final = np.ascontiguousarray(result.state.packed() if final is None else final, dtype=np.float64)
    duration = float(rows[-1, 0]) if len(rows) else 0.0
    times = np.linspace(0.0, duration, samples) if np.isscalar(samples) else np.sort(np.asarray(samples, float))
    initial = result.initial.packed()
    p = params.to_array()
    if air is None:
        counters = np.zeros(N_AUDIT, dtype=np.int64)
        audit_shot(initial, rows, len(rows), final, result.hit_event_cap or result.hit_time_cap, times, p,
                   table.width, table.length, table.segments, table.jaws, table.pockets, counters)
        return {name: int(counters[k]) for k, name in enumerate(AUDIT_NAMES)}
    counters = np.zeros(N_AIR_AUDIT, dtype=np.int64)
    audit_air_shot(initial, rows, np.ascontiguousarray(air, dtype=np.float64), len(rows), final, times, p,
                   table.width, table.length, table.segments, table.jaws, table.pockets, table.rail, counters)
    return {name: int(counters[k]) for k, name in enumerate(AIR_AUDIT_NAMES)}
