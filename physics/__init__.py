"""nineball physics: an event-based, numba-compiled simulator of pool balls on a pocket table.

    import numpy as np, physics
    state = physics.nine_ball_rack(np.random.default_rng(0))
    result = physics.simulate(state, physics.Shot(V0=8.0, phi=90.0))
    result.state, result.events, result.hit_event_cap
"""

from physics.api import DEFAULT_MAX_EVENTS, DEFAULT_MAX_TIME, sample_positions, simulate
from physics.batch import BatchResult, simulate_batch, simulate_batch_packed
from physics.events import Event, EventKind, EventLog, SimResult
from physics.params import DEFAULT_PARAMS, PhysicsParams
from physics.rack import nine_ball_rack, place_balls, rack_positions
from physics.shot import Shot
from physics.state import CUE, N_BALLS, BallState, Motion
from physics.table import DEFAULT_TABLE, POCKET_NAMES, Table, TableSpec
from physics.validate import validate_state

__all__ = [
    "BallState", "BatchResult", "CUE", "DEFAULT_MAX_EVENTS", "DEFAULT_MAX_TIME", "DEFAULT_PARAMS", "DEFAULT_TABLE", "Event",
    "EventKind", "EventLog", "Motion", "N_BALLS", "POCKET_NAMES", "PhysicsParams", "SimResult", "Shot", "Table",
    "TableSpec", "nine_ball_rack", "place_balls", "rack_positions", "sample_positions", "simulate", "simulate_batch",
    "simulate_batch_packed",
    "validate_state",
]
