"""The few table numbers the rules need for placing and spotting balls (R-TABLE), as plain floats."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

#: Two centres closer than 2R − TOUCH_TOL [m] overlap (a spotted 9 needs at least 2R − TOUCH_TOL).
TOUCH_TOL = 1e-9
#: Gap [m] left between a spotted 9 and the ball that blocks it, so it starts clear of that ball.
SPOT_GAP = 1e-8


@dataclass(frozen=True)
class RackGeometry:
    """Playing surface and ball size [m]: x across (0 … width), y along (head cushion y = 0, foot y = length).

    The kitchen, foot spot and long string follow from these (R-TABLE). ``head_string_y`` is the table's
    head string (``physics.Table.head_string_y``, which the env passes in); None: a quarter of the length.
    """

    width: float = 1.27
    length: float = 2.54
    ball_radius: float = 0.028575
    head_string_y: float | None = None

    def __post_init__(self) -> None:
        if self.head_string_y is None:
            object.__setattr__(self, "head_string_y", self.length / 4.0)
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{f.name}: expected a finite length > 0 m, got {value!r}")
        if self.length < self.width:
            raise ValueError(f"length: expected >= width ({self.width} m), got {self.length} m")
        if 4 * self.ball_radius >= self.width:
            raise ValueError(f"ball_radius: {self.ball_radius} m is too large for a table {self.width} m wide")

    @property
    def foot_spot(self) -> tuple[float, float]:
        """On the long centre line, a quarter of the length from the foot cushion [m]."""
        return (self.width / 2.0, 0.75 * self.length)


DEFAULT_GEOMETRY = RackGeometry()
