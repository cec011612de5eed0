"""Many tables at once: the single-shot kernel run in parallel over tables (numba ``prange``).

Both paths go through the same ``_check_and_simulate`` kernel, so a table simulated in a batch
ends exactly as it would alone (a test checks this bit for bit). ``simulate_batch`` takes
BallStates and Shots; ``simulate_batch_packed`` takes (B, n, 9) and (B, 5) arrays and skips the
per-table Python work, for throughput.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numba
import numpy as np

from physics.api import (
    DEFAULT_MAX_EVENTS, DEFAULT_MAX_TIME, MAX_EVENTS_LIMIT, check_caps, check_types, params_array, simulate,
)
from physics.events import EventLog, SimResult
from physics.kernels.codes import (
    FLAG_AIRBORNE, FLAG_EVENT_CAP, FLAG_IN_FLIGHT, FLAG_TIME_CAP, FLAG_UNRESOLVED, LOG_W, S_MOTION, S_POCKET, S_VX,
    S_WX, S_X, STATE_W,
)
from physics.kernels.entry import run_batch
from physics.kernels.layout import (BAD_MOTION, BAD_POCKET, OK, RAIL_BELOW_NOSE, SHOT_ELEVATION, SHOT_NOT_FINITE, SHOT_SPEED, SHOT_TIP,
                                     check_shot_rows)
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.shot import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, Shot
from physics.state import BallState
from physics.table import DEFAULT_TABLE, Table
from physics.validate import OVERLAP_TOL, raise_layout_error

MAX_LOG_ROWS = 1 << 23  # event-log rows one batch call may allocate (8.4 M rows, 1.3 GiB)


@dataclass(frozen=True, eq=False)
class BatchResult:
    """Outcome of ``simulate_batch``: every table's final state packed in one array, event counts, flags.

    Attributes:
        states: (B, n, 9) final states (x, y, vx, vy, wx, wy, wz, motion, pocket) — see ``state(k)``.
        n_events: (B,) events each table took (its log keeps the first ``log_capacity``).
        hit_event_cap, hit_time_cap, unresolved, in_flight: (B,) flags (see ``SimResult``).
        airborne: (B,) a ball left the cloth: the log has no heights, ``result(k)`` simulates that table alone.
    """

    initial_states: np.ndarray  # (B, n, 9) packed starting states; ``initial(k)`` unpacks one
    shot_rows: np.ndarray  # (B, 5) (V0, phi°, theta°, a, b); a NaN row: no strike
    table: Table
    params: PhysicsParams
    max_events: int
    max_time: float
    states: np.ndarray
    n_events: np.ndarray
    hit_event_cap: np.ndarray
    hit_time_cap: np.ndarray
    logs: np.ndarray
    unresolved: np.ndarray | None = None  # (B,) flags: a ball taken off the table (see SimResult.unresolved)
    in_flight: np.ndarray | None = None  # (B,) flags: a cap stopped the shot with a ball in the air (SimResult.in_flight)
    airborne: np.ndarray | None = None  # (B,) flags: a ball left the cloth (its heights are not in ``logs``)

    def __len__(self) -> int:
        return self.states.shape[0]

    @property
    def pos(self) -> np.ndarray:
        """(B, n, 2) final ball centres."""
        return self.states[:, :, S_X:S_X + 2]

    @property
    def motion(self) -> np.ndarray:
        """(B, n) final motion codes."""
        return self.states[:, :, S_MOTION].astype(np.int64)

    @property
    def pocket(self) -> np.ndarray:
        """(B, n) pocket of each pocketed ball, -1 otherwise."""
        return self.states[:, :, S_POCKET].astype(np.int64)

    def initial(self, k: int) -> BallState:
        """Starting state of table k."""
        return BallState.from_packed(self.initial_states[k])

    def shot(self, k: int) -> Shot | None:
        """The shot of table k (None when the table was evolved without a strike)."""
        row = self.shot_rows[k]
        return None if np.isnan(row[0]) else Shot(*(float(v) for v in row))

    def state(self, k: int) -> BallState:
        """Final state of table k."""
        return BallState.from_packed(self.states[k])

    def result(self, k: int) -> SimResult:
        """Table k as a ``SimResult`` with its full event log, heights included (re-simulated alone, the same
        kernel bit for bit, when the batch log was truncated or a ball left the cloth)."""
        if self.n_events[k] > self.logs.shape[1] or (self.airborne is not None and self.airborne[k]):
            return simulate(self.initial(k), self.shot(k), self.table, self.params,
                            max_events=self.max_events, max_time=self.max_time)
        log = EventLog(self.logs[k, : int(self.n_events[k])].copy())
        return SimResult(self.initial_states[k].copy(), self.state(k), log, bool(self.hit_event_cap[k]),
                         bool(self.hit_time_cap[k]), self.unresolved is not None and bool(self.unresolved[k]),
                         self.in_flight is not None and bool(self.in_flight[k]))


def _check_each(states, shots, table, params) -> None:
    """Per-table type and shape checks, raising ValueError naming the first bad index."""
    check_types(states[0], shots[0], table, params)
    for k, (state, shot) in enumerate(zip(states, shots)):
        try:
            check_types(state, shot, table, params)
        except ValueError as err:
            raise ValueError(f"states[{k}]/shots[{k}]: {err}") from None
        if state.n_balls != states[0].n_balls:
            raise ValueError(f"states[{k}]: expected {states[0].n_balls} balls like states[0], got {state.n_balls}")


def _pack_states(states, shots, table, params) -> np.ndarray:
    """(B, n, 9) packed states, one stack per field; any type or shape problem gets the per-table checks."""
    check_types(states[0], shots[0], table, params)
    if all(type(s) is BallState for s in states) and all(s is None or type(s) is Shot for s in shots):
        try:
            fields = [np.stack([getattr(s, name) for s in states]) for name in ("pos", "vel", "spin", "motion", "pocket")]
        except ValueError:  # shapes differ between tables
            fields = None
        if fields is not None and all(f.dtype.kind in "fi" for f in fields[:3]) and all(
                f.dtype.kind in "iu" for f in fields[3:]) and fields[0].shape[1:] == (states[0].n_balls, 2):
            packed = np.empty((len(states), states[0].n_balls, STATE_W))
            packed[:, :, S_X:S_X + 2], packed[:, :, S_VX:S_VX + 2], packed[:, :, S_WX:S_WX + 3] = fields[0], fields[1], fields[2]
            packed[:, :, S_MOTION], packed[:, :, S_POCKET] = fields[3], fields[4]
            return packed
    _check_each(states, shots, table, params)
    raise ValueError("states: inconsistent array types or shapes across tables")


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
    packed = _pack_states(states, shots, table, params)  # the remaining arguments are checked by the packed path
    rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) if s is not None else (np.nan,) * 5 for s in shots],
                    dtype=np.float64).reshape(len(shots), 5)
    return simulate_batch_packed(packed, rows, table, params, max_events=max_events, max_time=max_time,
                                 log_capacity=log_capacity, threads=threads)


def _check_shot_rows(shots: np.ndarray, B: int) -> None:
    """``Shot`` validation of (B, 5) rows in one compiled pass; a row of NaN means no strike."""
    if not isinstance(shots, np.ndarray) or shots.shape != (B, 5) or shots.dtype.kind not in "fi":
        raise ValueError(f"shots: expected a float array of shape ({B}, 5), got {getattr(shots, 'shape', shots)!r}")
    k, code = check_shot_rows(np.ascontiguousarray(shots, dtype=np.float64), MAX_SPEED, MAX_ELEVATION, MAX_TIP_OFFSET)
    if k >= 0:
        message = {SHOT_NOT_FINITE: "not finite", SHOT_SPEED: f"V0 must be in (0, {MAX_SPEED}] m/s",
                   SHOT_ELEVATION: f"theta must be in [0, {MAX_ELEVATION}] degrees",
                   SHOT_TIP: f"tip offset sqrt(a²+b²) must be <= {MAX_TIP_OFFSET}"}[code]
        raise ValueError(f"shots[{k}]: {message}, got {shots[k].tolist()}")


def simulate_batch_packed(
    states: np.ndarray,
    shots: np.ndarray,
    table: Table = DEFAULT_TABLE,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
    max_time: float = DEFAULT_MAX_TIME,
    log_capacity: int = 64,
    threads: int | None = None,
) -> BatchResult:
    """``simulate_batch`` on arrays: states (B, n, 9) as ``BallState.packed()``, shots (B, 5) rows
    (V0, phi°, theta°, a, b) with a NaN row for no strike. The fast path for throughput users.
    """
    if (not isinstance(states, np.ndarray) or states.ndim != 3 or states.shape[2] != STATE_W or states.shape[0] < 1
            or states.shape[1] < 1):
        raise ValueError(f"states: expected a float array of shape (B, n_balls, 9), got {getattr(states, 'shape', states)!r}")
    if states.dtype.kind not in "fiu":
        raise ValueError(f"states: expected a real (float) array, got dtype {states.dtype}")
    B = states.shape[0]
    _check_shot_rows(shots, B)
    check_caps(max_events, max_time)
    if (isinstance(log_capacity, (bool, np.bool_)) or not isinstance(log_capacity, (int, np.integer))
            or not 1 <= log_capacity <= MAX_EVENTS_LIMIT):
        raise ValueError(f"log_capacity: expected an integer in 1..{MAX_EVENTS_LIMIT}, got {log_capacity!r}")
    rows = B * min(int(log_capacity), int(max_events))
    if rows > MAX_LOG_ROWS:
        raise ValueError(f"log_capacity: B × min(log_capacity, max_events) = {rows} log rows, more than the "
                         f"{MAX_LOG_ROWS} ({MAX_LOG_ROWS * LOG_W * 8 / 2**30:.1f} GiB) a batch may hold; "
                         f"lower log_capacity or split the batch")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, (int, np.integer))
                                or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS):
        raise ValueError(f"threads: expected 1..{numba.config.NUMBA_NUM_THREADS}, got {threads!r}")
    if not isinstance(table, Table) or not isinstance(params, PhysicsParams):
        raise ValueError("table, params: expected a physics.Table and a physics.PhysicsParams")
    initial = np.ascontiguousarray(states, dtype=np.float64)
    work = initial.copy()
    strike = ~np.isnan(shots[:, 0])
    shot_arr = np.where(strike[:, None], shots, 0.0).astype(np.float64)
    shot_arr[:, 1:3] = np.radians(shot_arr[:, 1:3])
    logs = np.empty((B, min(int(log_capacity), int(max_events)), LOG_W))
    out = np.zeros((B, 5), dtype=np.int64)
    previous = numba.get_num_threads() if threads is not None else None
    if previous is not None:
        numba.set_num_threads(int(threads))
    try:
        run_batch(work, shot_arr, strike, table.segments, table.jaws, table.pockets, params_array(params),
                  table.spec.width, table.spec.length, table.rail, OVERLAP_TOL, int(max_events), float(max_time), logs,
                  out)
    finally:
        if previous is not None:
            numba.set_num_threads(previous)
    for k in np.flatnonzero(out[:, 2] != OK).tolist():
        code, i = int(out[k, 2]), int(out[k, 3])
        if code == RAIL_BELOW_NOSE:  # the table and the params, not this state
            raise_layout_error(code, -1, -1, BallState.empty(), table, params)
        column = S_MOTION if code == BAD_MOTION else S_POCKET
        value = float(initial[k, i, column])
        if code == BAD_MOTION or (code == BAD_POCKET and not (-1 <= value < table.pockets.shape[0]
                                                              and value == int(value))):
            what = "a whole motion code 0..6" if code == BAD_MOTION else (
                f"-1 (none) or a whole pocket number 0..{table.pockets.shape[0] - 1}")
            raise ValueError(f"states[{k}][{i}, {column}]: expected {what}, got {value!r}")  # the packed value itself
        try:
            raise_layout_error(int(out[k, 2]), int(out[k, 3]), int(out[k, 4]), BallState.from_packed(initial[k]),
                               table, params)
        except ValueError as err:
            raise ValueError(f"states[{k}]: {err}") from None
    flags = out[:, 1]
    return BatchResult(
        initial_states=initial, shot_rows=shots.astype(np.float64), table=table, params=params,
        max_events=int(max_events), max_time=float(max_time), states=work, n_events=out[:, 0].copy(),
        hit_event_cap=(flags & FLAG_EVENT_CAP) > 0, hit_time_cap=(flags & FLAG_TIME_CAP) > 0, logs=logs,
        unresolved=(flags & FLAG_UNRESOLVED) > 0, in_flight=(flags & FLAG_IN_FLIGHT) > 0,
        airborne=(flags & FLAG_AIRBORNE) > 0,
    )
