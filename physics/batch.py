"""Many tables at once: the single-shot entry point run in parallel over tables (numba ``prange``).

Both paths call the same ``run_shot`` kernel, so a table simulated in a batch ends exactly
as it would alone (a test checks this bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numba
import numpy as np

from physics.api import (
    DEFAULT_MAX_EVENTS, DEFAULT_MAX_TIME, _NO_SHOT, check_caps, check_types, params_array, raise_for_code, shot_array,
    simulate,
)
from physics.events import EventLog, SimResult
from physics.kernels.entry import LOG_W, run_batch
from physics.kernels.layout import OK
from physics.kernels.loop import FLAG_EVENT_CAP, FLAG_TIME_CAP
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.shot import Shot
from physics.state import BallState
from physics.table import DEFAULT_TABLE, Table
from physics.validate import OVERLAP_TOL


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Outcome of ``simulate_batch``: every table's final state packed in one array, event counts, flags.

    Attributes:
        states: (B, n, 9) final states (x, y, vx, vy, wx, wy, wz, motion, pocket) — see ``state(k)``.
        n_events: (B,) events each table took (its log keeps the first ``log_capacity``).
        hit_event_cap, hit_time_cap: (B,) flags.
    """

    initial: tuple[BallState, ...]
    shots: tuple[Shot | None, ...]
    table: Table
    params: PhysicsParams
    max_events: int
    max_time: float
    states: np.ndarray
    n_events: np.ndarray
    hit_event_cap: np.ndarray
    hit_time_cap: np.ndarray
    logs: np.ndarray

    def __len__(self) -> int:
        return self.states.shape[0]

    @property
    def pos(self) -> np.ndarray:
        """(B, n, 2) final ball centres."""
        return self.states[:, :, 0:2]

    @property
    def motion(self) -> np.ndarray:
        """(B, n) final motion codes."""
        return self.states[:, :, 7].astype(np.int64)

    @property
    def pocket(self) -> np.ndarray:
        """(B, n) pocket of each pocketed ball, -1 otherwise."""
        return self.states[:, :, 8].astype(np.int64)

    def state(self, k: int) -> BallState:
        """Final state of table k."""
        return BallState.from_packed(self.states[k])

    def result(self, k: int) -> SimResult:
        """Table k as a ``SimResult`` with its full event log (re-simulated alone if the batch log was truncated)."""
        if self.n_events[k] > self.logs.shape[1]:
            return simulate(self.initial[k], self.shots[k], self.table, self.params,
                            max_events=self.max_events, max_time=self.max_time)
        log = EventLog(self.logs[k, : int(self.n_events[k])].copy())
        return SimResult(self.initial[k].copy(), self.state(k), log, bool(self.hit_event_cap[k]),
                         bool(self.hit_time_cap[k]))


def simulate_batch(
    states: Sequence[BallState],
    shots: Sequence[Shot | None],
    table: Table = DEFAULT_TABLE,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
    max_time: float = DEFAULT_MAX_TIME,
    log_capacity: int = 64,
    threads: int | None = None,
) -> BatchResult:
    """Simulate ``shots[k]`` from ``states[k]`` for every k, in parallel over tables.

    Every state and shot is validated (ValueError naming the index and field, nothing simulated).
    Logs keep the first ``log_capacity`` events per table; ``BatchResult.result(k)`` recovers a
    full log. ``threads`` limits numba's worker threads for this call.
    """
    if len(states) != len(shots):
        raise ValueError(f"shots: expected one shot per state ({len(states)}), got {len(shots)}")
    if len(states) == 0:
        raise ValueError("states: expected at least one table")
    if isinstance(log_capacity, bool) or not isinstance(log_capacity, (int, np.integer)) or log_capacity < 1:
        raise ValueError(f"log_capacity: expected a positive integer, got {log_capacity!r}")
    check_caps(max_events, max_time)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, (int, np.integer))
                                or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS):
        raise ValueError(f"threads: expected 1..{numba.config.NUMBA_NUM_THREADS}, got {threads!r}")
    for k, (state, shot) in enumerate(zip(states, shots)):
        try:
            check_types(state, shot, table, params)
        except ValueError as err:
            raise ValueError(f"states[{k}]/shots[{k}]: {err}") from None
        if state.n_balls != states[0].n_balls:
            raise ValueError(f"states[{k}]: expected {states[0].n_balls} balls like states[0], got {state.n_balls}")
    B = len(states)
    packed = np.stack([s.packed() for s in states])
    work = packed.copy()
    shot_arr = np.stack([shot_array(s) if s is not None else _NO_SHOT for s in shots])
    strike = np.array([s is not None for s in shots], dtype=np.bool_)
    logs = np.empty((B, min(int(log_capacity), int(max_events)), LOG_W))
    out = np.zeros((B, 5), dtype=np.int64)
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        run_batch(work, shot_arr, strike, table.segments, table.jaws, table.pockets, params_array(params),
                  table.width, table.length, OVERLAP_TOL, int(max_events), float(max_time), logs, out)
    finally:
        numba.set_num_threads(previous)
    for k in np.flatnonzero(out[:, 2] != OK):
        try:
            raise_for_code(int(out[k, 2]), int(out[k, 3]), int(out[k, 4]), states[k], table, params)
        except ValueError as err:
            raise ValueError(f"states[{k}]: {err}") from None
    flags = out[:, 1]
    return BatchResult(
        initial=tuple(BallState.from_packed(p) for p in packed), shots=tuple(shots), table=table, params=params,
        max_events=int(max_events), max_time=float(max_time), states=work, n_events=out[:, 0].copy(),
        hit_event_cap=(flags & FLAG_EVENT_CAP) > 0, hit_time_cap=(flags & FLAG_TIME_CAP) > 0, logs=logs,
    )
