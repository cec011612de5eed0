"""All of the env layer's numba, and the vocabulary it is written in (``codes``: phases, ball in hand,
declarations, rule IDs and the columns of racks, actions and observations, each with its integer code).

``ruling`` is the rules engine (``nineball_env.rules`` is its readable view), ``facts`` reads a shot's
event log for it, ``observe`` builds observations, ``round`` decodes and perturbs a round of actions,
``placement`` checks ball-in-hand spots and ``aiming`` is the default opponent. Like ``physics.kernels``,
the on-disk numba cache of these modules is dropped on import when any of them changed (numba checks
only each function's own file, and these kernels call one another and freeze the codes, the physics'
event and motion codes among them: ``physics/kernels/codes.py``, ``physics/events.py`` and ``physics/state.py`` are
watched too).
"""

from pathlib import Path

import physics.events
import physics.kernels.codes
import physics.state
from physics.kernels import drop_stale_numba_cache

drop_stale_numba_cache(Path(__file__).resolve().parent, *(Path(module.__file__).resolve() for module in (
    physics.events, physics.kernels.codes, physics.state)))
