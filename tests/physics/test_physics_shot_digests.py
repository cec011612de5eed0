"""Seeded breaks, ordinary shots and soak shots give bit-identical results to the reference (shot_digests.npz:
main 5aab397's, regenerated for issue 25's hypot → sqrt): end
states, event logs, air logs and flags, alone (``physics.simulate``) and in a batch (``simulate_batch_packed``).

Speed-ups of the event loop (what it skips, never how it computes) must keep these; a change of the physics on purpose
regenerates the file (tests/physics/data/make_shot_digests.py) and explains every difference.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "data"))
from make_shot_digests import N_REFERENCE, REFERENCE, SETS, digests  # noqa: E402


@pytest.mark.parametrize("name", SETS)
def test_results_are_bit_identical_to_the_reference(name: str) -> None:
    ref = np.load(REFERENCE)
    single, batch = digests(name, N_REFERENCE)
    for path, got in (("simulate", single), ("batch", batch)):
        differ = np.flatnonzero(np.any(got != ref[f"{name}_{path}"], axis=1))
        assert differ.size == 0, f"{name} via {path}: shots {differ[:20].tolist()} differ from the reference"
