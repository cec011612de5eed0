"""The kernels draw from a table's own generator exactly as numpy would (``kernels.draws``): the same values, and
the generator left in the same state, for every bit generator numpy ships."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from nineball_env import rules
from nineball_env.kernels.draws import GEN_W, bounded_int, generator_row, random_interval, standard_normals

BIT_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)


def _twins(bit_generator, seed: int) -> tuple[np.random.Generator, np.random.Generator, np.ndarray]:
    """Two generators in the same state, and the kernel row of the second."""
    mine = np.random.Generator(bit_generator(seed))
    row = np.empty(GEN_W, dtype=np.int64)
    generator_row(mine, row)
    return np.random.Generator(bit_generator(seed)), mine, row


def _same_state(a: np.random.Generator, b: np.random.Generator) -> bool:
    def same(x, y) -> bool:
        if isinstance(x, dict):
            return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
        return bool(np.array_equal(x, y))

    return same(a.bit_generator.state, b.bit_generator.state)


@njit
def _shuffled(gen, x):
    for i in range(x.shape[0] - 1, 0, -1):
        j = random_interval(gen, i)
        x[i], x[j] = x[j], x[i]


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_standard_normals_equal_numpys(bit_generator) -> None:
    """200 000 draws per generator reach the ziggurat's wedges and its tail (|x| > 3.654, about 50 of them)."""
    numpy_rng, mine, row = _twins(bit_generator, 7)
    got = np.empty(200_000)
    standard_normals(row, got)
    want = numpy_rng.standard_normal(200_000)
    assert np.array_equal(got, want) and (np.abs(want) > 3.6541528853610088).sum() > 10
    assert _same_state(numpy_rng, mine)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_integers_and_shuffles_interleaved_with_normals_equal_numpys(bit_generator) -> None:
    """A game's draws in a game's order (the opponent's seed, the breaker, a rack, noise, the next rack): the 32-bit
    draws share the bit generator's buffer with numpy's, so the interleaving must match too."""
    for seed in range(50):
        numpy_rng, mine, row = _twins(bit_generator, seed)
        assert bounded_int(row, 2**31) == numpy_rng.integers(2**31)
        assert bounded_int(row, 2) == numpy_rng.integers(2)
        for _ in range(2):
            x = np.arange(2, 9)
            _shuffled(row, x)
            assert np.array_equal(x, numpy_rng.permutation(np.arange(2, 9)))
            noise = np.empty(5)
            standard_normals(row, noise)
            assert np.array_equal(noise, numpy_rng.standard_normal(5))
        assert bounded_int(row, 7) == numpy_rng.integers(7)  # a range whose Lemire draw can be rejected
        assert _same_state(numpy_rng, mine)


def test_rack_order_is_numpys_permutation_of_the_diamond() -> None:
    """``rules.rack_order`` (the kernel) draws the rack as ``Generator.permutation(np.arange(2, 9))`` would (R-RACK)."""
    for seed in range(100):
        others = np.random.default_rng(seed).permutation(np.arange(2, 9)).tolist()
        assert rules.rack_order(np.random.default_rng(seed)) == (1, *others[:3], 9, *others[3:])


def test_generator_row_refuses_what_is_not_a_generator() -> None:
    with pytest.raises(ValueError, match="rng"):
        generator_row(np.random.RandomState(0), np.empty(GEN_W, dtype=np.int64))
