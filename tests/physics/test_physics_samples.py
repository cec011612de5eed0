"""physics.samples: the seeded shot sets the throughput benchmark times and the physics tests replay."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from benchmarks import physics_throughput
from physics.samples import break_shots, ordinary_shots


@pytest.mark.parametrize("make", [break_shots, ordinary_shots])
def test_same_seed_same_shots_and_valid_layouts(make):
    a, b, other = make(12, 5), make(12, 5), make(12, 6)
    assert len(a) == 12
    for (sa, ta), (sb, tb) in zip(a, b):
        np.testing.assert_array_equal(sa.packed(), sb.packed())
        assert ta == tb
    assert any(ta != to for (_, ta), (_, to) in zip(a, other))
    for state, shot in a:
        physics.validate_state(state, physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS)
        assert shot.V0 > 0.0


def test_breaks_are_full_racks_and_ordinary_layouts_have_two_to_nine_balls():
    assert all(int(np.sum(s.motion < physics.Motion.POCKETED)) == 10 for s, _ in break_shots(5, 0))
    counts = {int(np.sum(s.motion < physics.Motion.POCKETED)) for s, _ in ordinary_shots(200, 1)}
    assert counts <= set(range(2, 10)) and len(counts) > 4


def test_benchmark_times_the_library_sets():
    assert physics_throughput.break_shots is break_shots
    assert physics_throughput.ordinary_shots is ordinary_shots
