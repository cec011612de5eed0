"""numba kernels of the physics core (floats and contiguous arrays only; no Python objects).

numba's on-disk cache checks only the source file of each cached function, not the kernels it
calls in other files, so an edit to one kernel module can leave another module's cached machine
code stale. On import we compare a hash of all kernel sources with the one stored beside the
cache and drop the cache when they differ.
"""

import hashlib
from pathlib import Path


def drop_stale_numba_cache(here: Path, *also: Path) -> None:
    """Drop numba's cache files under ``here/__pycache__`` when any ``*.py`` in ``here`` (or any file ``also``, whose
    values the kernels freeze) changed since it was written."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in [*sorted(here.glob("*.py")), *also])).hexdigest()
    cache = here / "__pycache__"
    stamp = cache / "nineball-kernels.sha256"
    try:
        if stamp.is_file() and stamp.read_text() == digest:
            return
        cache.mkdir(exist_ok=True)
        for pattern in ("*.nbi", "*.nbc"):
            for path in cache.glob(pattern):
                path.unlink()
        stamp.write_text(digest)
    except OSError:  # read-only install: numba falls back to its own cache directory
        pass


drop_stale_numba_cache(Path(__file__).resolve().parent)
