"""Many tables at once: the single-shot kernel run in parallel over tables (numba ``prange``).

Both paths call the same ``simulate_kernel``, so a table simulated in a batch ends exactly
as it would alone (a test checks this bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numba
import numpy as np

from physics.api import DEFAULT_MAX_EVENTS, DEFAULT_MAX_TIME, _check_caps, _check_types, shot_array, simulate
from physics.events import STATE_COLS, EventLog, SimResult
from physics.kernels.loop import FLAG_EVENT_CAP, FLAG_TIME_CAP, simulate_batch_kernel
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.shot import Shot
from physics.state import BallState
from physics.table import DEFAULT_TABLE, Table
from physics.validate import validate_state


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Outcome of ``simulate_batch``: final states as (B, …) arrays, event counts, flags, truncated logs.

    Attributes:
        pos, vel, spin, motion, pocket: final state of every table, leading axis = table.
        n_events: (B,) events each table took (its log keeps the first ``log_capacity``).
        hit_event_cap, hit_time_cap: (B,) flags.
    """

    initial: tuple[BallState, ...]
    shots: tuple[Shot | None, ...]
    table: Table
    params: PhysicsParams
    max_events: int
    max_time: float
    pos: np.ndarray
    vel: np.ndarray
    spin: np.ndarray
    motion: np.ndarray
    pocket: np.ndarray
    n_events: np.ndarray
    hit_event_cap: np.ndarray
    hit_time_cap: np.ndarray
    _log: tuple[np.ndarray, ...]

    def __len__(self) -> int:
        return self.pos.shape[0]

    def state(self, k: int) -> BallState:
        """Final state of table k."""
        return BallState(self.pos[k].copy(), self.vel[k].copy(), self.spin[k].copy(),
                         self.motion[k].copy(), self.pocket[k].copy())

    def result(self, k: int) -> SimResult:
        """Table k as a ``SimResult`` with its full event log (re-simulated alone if the batch log was truncated)."""
        if self.n_events[k] > self._log[0].shape[1]:
            return simulate(self.initial[k], self.shots[k], self.table, self.params,
                            max_events=self.max_events, max_time=self.max_time)
        c = int(self.n_events[k])
        log = EventLog(*(arr[k, :c].copy() for arr in self._log))
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

    Every state and shot is validated first (ValueError naming the index and field). Logs keep the
    first ``log_capacity`` events per table; ``BatchResult.result(k)`` recovers a full log.
    ``threads`` limits numba's worker threads for this call.
    """
    if len(states) != len(shots):
        raise ValueError(f"shots: expected one shot per state ({len(states)}), got {len(shots)}")
    if len(states) == 0:
        raise ValueError("states: expected at least one table")
    if isinstance(log_capacity, bool) or not isinstance(log_capacity, (int, np.integer)) or log_capacity < 1:
        raise ValueError(f"log_capacity: expected a positive integer, got {log_capacity!r}")
    _check_caps(max_events, max_time)
    n_balls = None
    for k, (state, shot) in enumerate(zip(states, shots)):
        try:
            _check_types(shot, table, params)
            validate_state(state, table, params)
        except ValueError as err:
            raise ValueError(f"states[{k}]/shots[{k}]: {err}") from None
        if shot is not None and not state.on_table()[0]:
            raise ValueError(f"states[{k}]: the cue ball (ball 0) must be on the table to take a shot")
        if n_balls is None:
            n_balls = state.n_balls
        elif state.n_balls != n_balls:
            raise ValueError(f"states[{k}]: expected {n_balls} balls like states[0], got {state.n_balls}")
    B = len(states)
    pos = np.ascontiguousarray(np.stack([s.pos for s in states]), dtype=np.float64)
    vel = np.ascontiguousarray(np.stack([s.vel for s in states]), dtype=np.float64)
    spin = np.ascontiguousarray(np.stack([s.spin for s in states]), dtype=np.float64)
    motion = np.ascontiguousarray(np.stack([s.motion for s in states]), dtype=np.int64)
    pocket = np.ascontiguousarray(np.stack([s.pocket for s in states]), dtype=np.int64)
    shot_arr = np.zeros((B, 5))
    strike = np.zeros(B, dtype=np.bool_)
    for k, shot in enumerate(shots):
        if shot is not None:
            shot_arr[k] = shot_array(shot)
            strike[k] = True
    cap = min(int(log_capacity), int(max_events))
    log = (np.empty((B, cap)), np.empty((B, cap), dtype=np.int64), np.empty((B, cap), dtype=np.int64),
           np.empty((B, cap), dtype=np.int64), np.empty((B, cap), dtype=np.int64),
           np.empty((B, cap, STATE_COLS)), np.empty((B, cap, STATE_COLS)))
    counts = np.zeros(B, dtype=np.int64)
    flags = np.zeros(B, dtype=np.int64)
    previous = numba.get_num_threads()
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"threads: expected 1..{numba.config.NUMBA_NUM_THREADS}, got {threads!r}")
        numba.set_num_threads(int(threads))
    try:
        simulate_batch_kernel(pos, vel, spin, motion, pocket, shot_arr, strike, table.segments, table.jaws,
                              table.pockets, params.to_array(), int(max_events), float(max_time), *log, counts, flags)
    finally:
        numba.set_num_threads(previous)
    return BatchResult(
        initial=tuple(s.copy() for s in states), shots=tuple(shots), table=table, params=params,
        max_events=int(max_events), max_time=float(max_time), pos=pos, vel=vel, spin=spin, motion=motion,
        pocket=pocket, n_events=counts, hit_event_cap=(flags & FLAG_EVENT_CAP) > 0,
        hit_time_cap=(flags & FLAG_TIME_CAP) > 0, _log=log,
    )
