"""A cue strike: speed, aim, elevation and tip offsets, validated."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_SPEED = 12.0  # [m/s], above a professional break (≈ 11 m/s)
MAX_ELEVATION = 89.0  # [deg]
MAX_TIP_OFFSET = 0.9  # |(a, b)| as a fraction of R; 1.0 would be a tangent hit


@dataclass(frozen=True)
class Shot:
    """Cue parameters (pooltool's units; see the notes on a and b).

    Attributes:
        V0: cue stick speed at impact [m/s], in (0, 12].
        phi: aim direction [deg], counter-clockwise from +x (0 = towards the right rail).
        theta: cue elevation above the cloth [deg], in [0, 89].
        a: side offset of the contact point from the ball centre, fraction of R
            (+ = right english; pooltool's a has the opposite sign).
        b: height of the contact point above the ball centre, fraction of R (+ = follow,
            − = draw); a² + b² ≤ 0.9². For θ > 0 this is measured vertically in the ball's frame
            (Leckie & Greenspan), not across the cue axis as in pooltool:
            b_pooltool = cos θ · b − sin θ · √(1 − a² − b²).
    """

    V0: float
    phi: float
    theta: float = 0.0
    a: float = 0.0
    b: float = 0.0

    def __post_init__(self) -> None:
        for name in ("V0", "phi", "theta", "a", "b"):
            value = getattr(self, name)
            if type(value) is not float:
                # ints and numpy reals are numbers; bools, strings, Decimal, Fraction, complex are caller bugs
                if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
                    raise ValueError(f"{name}: expected a real number (int or float), got {type(value).__name__} "
                                     f"{value!r}")
                try:
                    value = float(value)
                except OverflowError:
                    raise ValueError(f"{name}: expected a finite number, got {value!r}") from None
                object.__setattr__(self, name, value)
            if not math.isfinite(value):
                raise ValueError(f"{name}: expected a finite number, got {value!r}")
        if not 0.0 < self.V0 <= MAX_SPEED:
            raise ValueError(f"V0: expected a cue speed in (0, {MAX_SPEED}] m/s, got {self.V0!r}")
        if not 0.0 <= self.theta <= MAX_ELEVATION:
            raise ValueError(f"theta: expected a cue elevation in [0, {MAX_ELEVATION}] degrees, got {self.theta!r}")
        if math.hypot(self.a, self.b) > MAX_TIP_OFFSET:
            raise ValueError(
                f"a, b: tip offset sqrt(a²+b²) must be <= {MAX_TIP_OFFSET} (fractions of R), "
                f"got a={self.a!r}, b={self.b!r}"
            )
