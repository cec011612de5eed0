"""Which kernels numba's cache holds, read without compiling or loading any (``agents.arena.kernel_cache``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.arena import kernel_cache

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json
from agents.arena import kernel_cache
from nineball_env.kernels import aiming

before = kernel_cache.cache_state()
compiled_by_reading = sorted(k.name for k in before if k.cached)
aiming.unit(3.0, 4.0)  # compile (and cache) one small kernel
after = {k.name: k.cached for k in kernel_cache.cache_state()}
print(json.dumps({"kernels": len(before), "cached_before": compiled_by_reading, "cold": kernel_cache.cold(),
                  "after": {n: c for n, c in after.items() if c}, "paths": sorted({k.path for k in before})}))
"""


def test_an_empty_cache_reads_cold_and_a_compiled_kernel_reads_cached(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.splitlines()[-1])
    assert got["kernels"] > 100 and got["cached_before"] == [] and got["cold"]
    assert got["after"] == {"nineball_env.kernels.aiming.unit": 1}
    assert all(p.startswith(str(tmp_path)) for p in got["paths"])


def test_every_match_kernel_is_a_cached_kernel_and_unknown_names_are_refused():
    names = {k.name for k in kernel_cache.cache_state()}
    assert set(kernel_cache.MATCH_KERNELS) <= names
    assert {"physics.kernels.entry.run_arrays", "agents.shots.kernels.corrected_phi_batch"} <= names
    with pytest.raises(ValueError, match="names: no cached numba kernel 'physics.nope'"):
        kernel_cache.cold(["physics.nope"])


def test_every_agents_kernel_module_is_read_by_the_cache_report():
    """``nineball doctor`` lists every cached kernel: each agents module that defines one is in ``KERNEL_PACKAGES``
    (macro_kernels, round_kernels, playout_kernels and dense_kernel were missing)."""
    from pathlib import Path

    import agents
    from agents.arena import kernel_cache

    root = Path(agents.__file__).parent
    defining = {".".join(("agents", *path.relative_to(root).with_suffix("").parts))
                for path in root.rglob("*.py")
                if "@kernel" in path.read_text() or "cache=True" in path.read_text()}
    defining.discard("agents.arena.kernel_cache")  # names them in its docstrings
    assert defining and defining <= {m.__name__ for m in kernel_cache._kernel_modules()}
