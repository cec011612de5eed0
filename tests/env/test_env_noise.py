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


def test_perturb_rows_gives_perturbs_floats_bit_for_bit() -> None:
    """The vector env perturbs all tables' shots at once; each row must equal ``perturb`` with the same draws,
    tips pulled back onto the legal disc included."""
    from nineball_env.noise import NoiseConfig, perturb, perturb_rows
    from physics import Shot
    rng = np.random.default_rng(3)
    noise = NoiseConfig(phi=0.5, V0=0.3, theta=2.0, a=0.01, b=0.01)  # wide, so tips and speeds hit their limits
    shots = [Shot(float(rng.uniform(0.01, 12)), float(rng.uniform(-180, 180)), float(rng.uniform(0, 89)),
                  *(0.62 * np.array([np.cos(t), np.sin(t)]) * rng.uniform(0.5, 1.0)).tolist())
             for t in rng.uniform(0, 2 * np.pi, 400)]
    seeds = rng.integers(2**31, size=len(shots))
    errors = np.stack([np.random.default_rng(s).standard_normal(5) for s in seeds])
    rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots])
    fast = perturb_rows(rows, errors, noise)
    slow = [perturb(s, noise, np.random.default_rng(seed)) for s, seed in zip(shots, seeds)]
    assert np.array_equal(fast, np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in slow]))
    assert np.any(np.hypot(rows[:, 3] + 0.01 / 0.028575 * errors[:, 3], rows[:, 4] + 0.01 / 0.028575 * errors[:, 4]) > 0.9)
