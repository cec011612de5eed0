"""Shot geometry and valuation, shared by every player and the macro layer; no agent lives here.

``aim`` (directions, ghost ball, clear paths, throw-corrected aims), ``pots`` (pocket windows, pot options, ball-in-hand
spots, pot speed), ``jumps`` (jump shots over blocking balls), ``candidates`` (safeties, spots, thinning),
``outcome`` (the rules' ruling on a simulated shot), ``leaves`` (noise-free shot values) and ``kernels`` (their
compiled core, one implementation for one row and for many); ``playout`` (many shots simulated and ruled at once, and
the positions they leave described for a value network; ``playout_kernels`` its compiled core).
"""

from pathlib import Path

import agents.protocol_kernels
import nineball_env.kernels
import physics.events
import physics.kernels
import physics.params
import physics.state
from physics.kernels import drop_stale_numba_cache


def _files(*modules) -> list[Path]:
    """The ``*.py`` files of packages, and the files of plain modules."""
    out: list[Path] = []
    for m in modules:
        path = Path(m.__file__).resolve()
        out.extend(sorted(path.parent.glob("*.py")) if path.name == "__init__.py" else [path])
    return out


#: Files whose code or codes the shot kernels compile into their own machine code (``kernels`` calls the physics'
#: ``run_shot`` and the env's rules kernels, ``round_kernels.decide_round`` reads observations with
#: ``agents.protocol_kernels``): numba's cache checks only this room's files, so a change to any of these drops the
#: room's cache on import, as ``physics.kernels`` and ``nineball_env.kernels`` do for theirs.
KERNEL_SOURCES = tuple(_files(physics.kernels, nineball_env.kernels, physics.events, physics.params, physics.state,
                              agents.protocol_kernels))
drop_stale_numba_cache(Path(__file__).resolve().parent, *KERNEL_SOURCES)
