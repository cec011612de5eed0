"""Table geometry: straight cushion segments, round pocket jaws and pocket circles.

Coordinates: x runs across the table (0 … width), y along it (0 … length). The head cushion
is at y = 0 (the kitchen is next to it), the foot cushion at y = length. The cushion *noses*
bound the playing surface. Everything is generated from a few parameters of ``TableSpec``.
"""

from __future__ import annotations

import math
from functools import cached_property
from dataclasses import dataclass

import numpy as np

from physics.checks import check_numbers

INCH = 0.0254

POCKET_NAMES = (
    "head-left corner",
    "head-right corner",
    "left side",
    "right side",
    "foot-left corner",
    "foot-right corner",
)


@dataclass(frozen=True)
class TableSpec:
    """The parameters a table is generated from (SI units, angles in degrees).

    Attributes:
        length, width: playing surface between cushion noses [m].
        corner_mouth, side_mouth: distance between the jaw points of a pocket [m].
        corner_jaw_angle, side_jaw_angle: angle between cushion nose and pocket facing [deg]
            (WPA: 142° corner, 104° side); facings turn 180° − angle away from the rail.
        jaw_radius: radius of the rounded jaw at each jaw point [m].
        facing_length: length of the straight facing from the jaw into the pocket [m].
        corner_pocket_radius, side_pocket_radius: radius of the capture circle [m].
        corner_capture_depth, side_capture_depth: how far past the mouth line a ball's centre
            must travel before it is captured [m].
        rail_width: width of each rail from the cushion nose outwards, cushion included [m] (WPA: 4–7.5 in).
        rail_height: height of the rail's top above the cloth [m]: the cap, flush with the cushion's top,
            a little above the nose (1.43 in for the WPA nose at 63.5 % of the ball's diameter).
            A ball in the air that clears a cushion flies over the rail: it leaves the table when it comes
            down onto the rail's top or passes the rail's outer edge, whichever comes first.
    """

    length: float = 100 * INCH
    width: float = 50 * INCH
    corner_mouth: float = 4.5 * INCH
    side_mouth: float = 5.0 * INCH
    corner_jaw_angle: float = 142.0
    side_jaw_angle: float = 104.0
    jaw_radius: float = 0.007
    facing_length: float = 0.06
    corner_pocket_radius: float = 0.062
    side_pocket_radius: float = 0.065
    corner_capture_depth: float = 0.015
    side_capture_depth: float = 0.01
    rail_width: float = 6.0 * INCH
    rail_height: float = 1.5 * INCH

    def __post_init__(self) -> None:
        check_numbers(self, minimum=0.0, exclusive=True)
        if self.length < self.width:
            raise ValueError(f"length: expected >= width ({self.width}), got {self.length}")
        if self.corner_mouth / math.sqrt(2) * 2 >= self.width:
            raise ValueError(f"corner_mouth: too wide for a table {self.width} m wide")
        if self.side_mouth + 2 * self.corner_mouth >= self.length:
            raise ValueError("side_mouth: pockets overlap along the long rail")
        for name in ("corner_jaw_angle", "side_jaw_angle"):
            if not 90.0 <= getattr(self, name) < 180.0:
                raise ValueError(f"{name}: expected an angle in [90, 180) degrees, got {getattr(self, name)}")
        for kind in ("corner", "side"):
            r = getattr(self, f"{kind}_pocket_radius")
            half_mouth = getattr(self, f"{kind}_mouth") / 2
            if r <= getattr(self, f"{kind}_capture_depth") or r < half_mouth * 0.5:
                raise ValueError(f"{kind}_pocket_radius: too small for the {kind} mouth")

    @classmethod
    def nine_foot(cls) -> "TableSpec":
        """WPA 9-ft table: 100 × 50 in surface (the default)."""
        return cls()

    @classmethod
    def eight_foot(cls) -> "TableSpec":
        """8-ft table: 88 × 44 in surface."""
        return cls(length=88 * INCH, width=44 * INCH)

    @classmethod
    def seven_foot(cls) -> "TableSpec":
        """7-ft (bar) table: 78 × 39 in surface."""
        return cls(length=78 * INCH, width=39 * INCH)


def _rotate(v: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


@dataclass(frozen=True, eq=False)
class Table:
    """Generated geometry of one table, as contiguous arrays for the kernels.

    Attributes:
        spec: the parameters it was generated from.
        segments: (n, 6) float64 rows (x1, y1, x2, y2, nx, ny); n points to the playing side.
        jaws: (m, 3) float64 rows (x, y, radius) of the rounded jaw circles.
        pockets: (6, 3) float64 rows (x, y, radius) of capture circles, in ``POCKET_NAMES`` order.
    """

    spec: TableSpec
    segments: np.ndarray
    jaws: np.ndarray
    pockets: np.ndarray

    @classmethod
    def from_spec(cls, spec: TableSpec | None = None) -> "Table":
        """Build the cushions, jaws and pockets of ``spec`` (default: 9-ft WPA)."""
        spec = spec or TableSpec()
        W, L = spec.width, spec.length
        dc = spec.corner_mouth / math.sqrt(2.0)
        hs = spec.side_mouth / 2.0
        # Rails: (start, end, inward normal); each end that meets a pocket gets a jaw.
        rails = [
            ((dc, 0.0), (W - dc, 0.0), (0.0, 1.0), "corner", "corner"),
            ((dc, L), (W - dc, L), (0.0, -1.0), "corner", "corner"),
            ((0.0, dc), (0.0, L / 2 - hs), (1.0, 0.0), "corner", "side"),
            ((0.0, L / 2 + hs), (0.0, L - dc), (1.0, 0.0), "side", "corner"),
            ((W, dc), (W, L / 2 - hs), (-1.0, 0.0), "corner", "side"),
            ((W, L / 2 + hs), (W, L - dc), (-1.0, 0.0), "side", "corner"),
        ]
        segments, jaws = [], []
        for p, q, n, kind_p, kind_q in rails:
            segments.append((*p, *q, *n))
        for p, q, n, kind_p, kind_q in rails:
            p, q, n = np.array(p), np.array(q), np.array(n)
            along = (q - p) / np.linalg.norm(q - p)
            for point, d, kind in ((p, -along, kind_p), (q, along, kind_q)):
                jaw_angle = spec.corner_jaw_angle if kind == "corner" else spec.side_jaw_angle
                turn = math.radians(180.0 - jaw_angle)
                cross = d[0] * n[1] - d[1] * n[0]
                angle = -math.copysign(turn, cross)  # rotate d away from the table
                r = spec.jaw_radius
                centre = point - n * r
                facing_dir = _rotate(d, angle)
                facing_normal = _rotate(n, angle)
                start = centre + facing_normal * r
                end = start + facing_dir * spec.facing_length
                jaws.append((centre[0], centre[1], r))
                segments.append((*start, *end, *facing_normal))
        pockets = []
        for (cx, cy), kind in (((0.0, 0.0), "corner"), ((W, 0.0), "corner"), ((0.0, L / 2), "side"),
                               ((W, L / 2), "side"), ((0.0, L), "corner"), ((W, L), "corner")):
            if kind == "corner":
                axis = np.array([-1.0 if cx == 0.0 else 1.0, -1.0 if cy == 0.0 else 1.0]) / math.sqrt(2.0)
                mouth_mid = np.array([cx, cy]) - axis * (spec.corner_mouth / 2.0)
                r = spec.corner_pocket_radius
                centre = mouth_mid + axis * (spec.corner_capture_depth + r)
            else:
                axis = np.array([-1.0 if cx == 0.0 else 1.0, 0.0])
                r = spec.side_pocket_radius
                centre = np.array([cx, cy]) + axis * (spec.side_capture_depth + r)
            pockets.append((centre[0], centre[1], r))
        as_array = lambda rows: np.ascontiguousarray(np.array(rows, dtype=np.float64))  # noqa: E731
        return cls(spec=spec, segments=as_array(segments), jaws=as_array(jaws), pockets=as_array(pockets))

    @classmethod
    def nine_foot(cls) -> "Table":
        return cls.from_spec(TableSpec.nine_foot())

    @classmethod
    def eight_foot(cls) -> "Table":
        return cls.from_spec(TableSpec.eight_foot())

    @classmethod
    def seven_foot(cls) -> "Table":
        return cls.from_spec(TableSpec.seven_foot())

    @cached_property
    def rail(self) -> np.ndarray:
        """(rail_width, rail_height) [m], as the kernels read them: built once per table (every simulate call passes
        it, so a new array per call would cost the flat path ~1 µs); the kernels never write to it."""
        return np.array([self.spec.rail_width, self.spec.rail_height])

    @property
    def width(self) -> float:
        return self.spec.width

    @property
    def length(self) -> float:
        return self.spec.length

    @property
    def head_string_y(self) -> float:
        """The head string: a quarter of the length from the head cushion (R-TABLE)."""
        return self.spec.length / 4.0

    @property
    def foot_spot(self) -> tuple[float, float]:
        """The foot spot: on the long centre line, a quarter of the length from the foot cushion."""
        return (self.spec.width / 2.0, 0.75 * self.spec.length)

    @property
    def long_string(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The long string: from the foot spot to the foot cushion along the centre line."""
        return (self.foot_spot, (self.spec.width / 2.0, self.spec.length))

    def in_kitchen(self, x: float, y: float) -> bool:
        """Whether a ball centre at (x, y) is on or behind the head string (R-BREAK-POS)."""
        return 0.0 <= x <= self.spec.width and 0.0 <= y <= self.head_string_y

    def inside_surface(self, x: float, y: float, radius: float) -> bool:
        """Whether a ball of ``radius`` centred at (x, y) lies on the playing surface, clear of every cushion."""
        return (radius <= x <= self.spec.width - radius) and (radius <= y <= self.spec.length - radius)


DEFAULT_TABLE = Table.nine_foot()
