"""numba kernels of the env layer: the default opponent, ball-in-hand checks, shot facts and the rules on arrays.

Like ``physics.kernels``, the on-disk numba cache of these modules is dropped on import when any of
them changed (numba checks only each function's own file, and these kernels call one another).
"""

from pathlib import Path

from physics.kernels import drop_stale_numba_cache

drop_stale_numba_cache(Path(__file__).resolve().parent)
