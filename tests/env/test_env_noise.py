"""Execution noise: presets, custom sigmas, statistics of the draws, and legal clipped shots."""

from __future__ import annotations

import numpy as np
import pytest

import physics
from nineball_env.noise import PRESETS, NoiseConfig, make_noise, perturb

R = physics.DEFAULT_PARAMS.R


def test_presets():
    assert make_noise("none").silent and make_noise(None).silent
    icga = make_noise("icga")
    assert (icga.phi, icga.theta, icga.V0, icga.a, icga.b) == (0.125, 0.1, 0.075, 0.0005, 0.0005)
    assert PRESETS["icga"] is icga
    assert make_noise({"phi": 0.5}) == NoiseConfig(phi=0.5)


@pytest.mark.parametrize("spec, words", [("loud", "expected one of"), ({"psi": 1.0}, "unknown"),
                                         ({"V0": -1.0}, "V0"), (3, "expected a preset")])
def test_bad_noise_names_the_problem(spec, words):
    with pytest.raises(ValueError, match=words):
        make_noise(spec)


def test_silent_noise_returns_the_shot_and_draws_nothing():
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    shot = physics.Shot(V0=2.0, phi=10.0)
    assert perturb(shot, make_noise("none"), rng) is shot
    assert rng.bit_generator.state == state


def test_icga_draws_have_the_tournament_sigmas():
    rng = np.random.default_rng(1)
    shot = physics.Shot(V0=3.0, phi=45.0, theta=10.0, a=0.1, b=-0.1)
    draws = [perturb(shot, make_noise("icga"), rng) for _ in range(4000)]
    err = np.array([(d.phi - 45.0, d.V0 - 3.0, d.theta - 10.0, (d.a - 0.1) * R, (d.b + 0.1) * R) for d in draws])
    assert np.all(np.abs(err.mean(axis=0)) < [0.01, 0.006, 0.008, 4e-5, 4e-5])
    np.testing.assert_allclose(err.std(axis=0), [0.125, 0.075, 0.1, 0.0005, 0.0005], rtol=0.06)


def test_noisy_shots_stay_legal_at_the_edges():
    rng = np.random.default_rng(2)
    loud = NoiseConfig(phi=5.0, V0=5.0, theta=5.0, a=0.02, b=0.02)
    for shot in (physics.Shot(V0=0.5, phi=0.0, theta=0.0, a=0.5, b=0.5), physics.Shot(V0=12.0, phi=0.0, theta=89.0)):
        for _ in range(300):
            noisy = perturb(shot, loud, rng)  # Shot validates its own ranges
            assert 0.0 < noisy.V0 <= 12.0 and 0.0 <= noisy.theta <= 89.0 and np.hypot(noisy.a, noisy.b) <= 0.9


def test_same_generator_state_same_noise():
    shot = physics.Shot(V0=3.0, phi=45.0)
    a = perturb(shot, make_noise("icga"), np.random.default_rng(5))
    b = perturb(shot, make_noise("icga"), np.random.default_rng(5))
    assert a == b
