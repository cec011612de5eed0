"""Execution noise: Gaussian errors on (phi, V0, theta, a, b), drawn from the env's generator.

The ``icga`` preset is the noise of the Computational Pool tournaments (ICGA 2005–2008):
σφ = 0.125°, σθ = 0.1°, σV = 0.075 m/s, σa = σb = 0.5 mm.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from physics import DEFAULT_PARAMS, PhysicsParams, Shot
from physics.checks import check_numbers, from_spec
from nineball_env.kernels.round import perturbed
from physics.shot import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET

MIN_SPEED = 0.01  # [m/s] a noisy speed never drops to zero (Shot needs V0 > 0)
TIP_LIMIT = MAX_TIP_OFFSET * (1.0 - 1e-9)  # a noisy tip offset is pulled back inside the legal disc
#: (min speed, max speed, max elevation, max tip offset): what keeps a noisy shot legal (``kernels.round.perturbed``)
LIMITS = np.array([MIN_SPEED, MAX_SPEED, MAX_ELEVATION, TIP_LIMIT])


@dataclass(frozen=True)
class NoiseConfig:
    """Standard deviations of the execution error (degrees, m/s, metres of tip offset)."""

    phi: float = 0.0
    V0: float = 0.0
    theta: float = 0.0
    a: float = 0.0
    b: float = 0.0

    def __post_init__(self) -> None:
        check_numbers(self, label="noise sigma {}", minimum=0.0)

    @property
    def sigmas(self) -> np.ndarray:
        """The sigmas as the noise kernel reads them: (phi, V0, theta, a, b)."""
        return np.array([self.phi, self.V0, self.theta, self.a, self.b], dtype=np.float64)

    @property
    def silent(self) -> bool:
        """No noise at all (no draws are made)."""
        return not (self.phi or self.V0 or self.theta or self.a or self.b)


PRESETS: dict[str, NoiseConfig] = {
    "none": NoiseConfig(),
    "icga": NoiseConfig(phi=0.125, V0=0.075, theta=0.1, a=0.0005, b=0.0005),
}


def make_noise(spec: str | Mapping[str, float] | NoiseConfig | None) -> NoiseConfig:
    """A NoiseConfig from a preset name ("none", "icga"), a dict of sigmas, a NoiseConfig or None (no noise)."""
    return from_spec(NoiseConfig, spec, "noise", PRESETS)


def perturb(shot: Shot, noise: NoiseConfig, rng: np.random.Generator,
            params: PhysicsParams = DEFAULT_PARAMS) -> Shot:
    """``shot`` with Gaussian errors added, clipped to the legal Shot ranges; unchanged if the noise is silent."""
    if noise.silent:
        return shot
    V0, phi, theta, a, b = perturbed(float(shot.V0), float(shot.phi), float(shot.theta), float(shot.a), float(shot.b),
                                     rng.standard_normal(5), noise.sigmas, float(params.R), LIMITS)
    return Shot(V0=V0, phi=phi, theta=theta, a=a, b=b)
