"""All of the env layer's numba, and the vocabulary it is written in (``codes``: phases, ball in hand,
declarations, rule IDs and the columns of racks, actions and observations, each with its integer code).

``turn`` plays a step's decisions on B tables (the compiled turn), calling: ``ruling``, the rules engine
(``nineball_env.rules`` is its readable view); ``facts``, which reads a shot's event log for it; ``observe``,
which builds observations; ``round``, which decodes and perturbs actions; ``placement``, which checks and finds
ball-in-hand spots; ``rack``, which deals, scores and spots the 9; ``draws``, which draws from the tables' own
generators; and ``aiming``, the default opponent. Like ``physics.kernels``,
the on-disk numba cache of these modules is dropped on import when any of them changed (numba checks
only each function's own file, and these kernels call one another and freeze the codes, the physics'
event and motion codes among them (``physics/kernels/codes.py``), and ``kernels.shot`` compiles the physics
itself into this package's cache: ``physics/events.py``, ``physics/state.py`` and ``physics/kernels/*.py`` are
watched too).
"""

from pathlib import Path

import physics.events
import physics.kernels
import physics.state
from physics.kernels import drop_stale_numba_cache

drop_stale_numba_cache(Path(__file__).resolve().parent,
                       *(Path(module.__file__).resolve() for module in (physics.events, physics.state)),
                       *sorted(Path(physics.kernels.__file__).resolve().parent.glob("*.py")))
