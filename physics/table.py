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
# Layout of ``Table.rail`` (the kernels read it by index): rail width, rail height, the number of liners and of jaw
# arcs; then per pocket (in ``POCKET_NAMES`` order) LINER_STRIDE values: the liner's centre (x, y), radius, outward
# axis (x, y), the inward normals (x, y) of the two half-planes whose intersection is the liner's arc (a wedge from
# the centre), and the two cushions (indices into ``segments``) whose rails surround the pocket; then per jaw (in
# ``jaws`` order) ARC_STRIDE values: the unit bisector (x, y) of the arc of its circle that bounds the playing area
# (between the two segments tangent to it) and the cosine of half that arc's angle (docs/table.md).
RAIL_WIDTH, RAIL_HEIGHT, RAIL_N_LINERS, RAIL_N_ARCS, RAIL_LINERS = 0, 1, 2, 3, 4
LINER_STRIDE = 11
L_X, L_Y, L_R, L_AX, L_AY, L_M1X, L_M1Y, L_M2X, L_M2Y, L_K1, L_K2 = range(LINER_STRIDE)
ARC_STRIDE = 3
A_MX, A_MY, A_COS = range(ARC_STRIDE)

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

    Each pocket is a hole cut through the rail (``Table.liners``): behind the mouth its wall, the pocket's liner,
    is a vertical cylinder tangent to both facings at their back ends (so the wall runs smoothly from the facings
    round the back of the pocket), present only behind them, on the arc between the two tangent points away from
    the table; the mouth is open toward the table. Its radius follows from the jaw angle, the mouth and the facing
    length (WPA 9-ft defaults: 48.2 mm corner, 43.5 mm side; a ball is 28.6 mm). It rises from the cloth to the
    cushion nose's height (PhysicsParams.cushion_height), so its top edge, a circle, continues the facings' nose
    edges without a step; around the hole the rail's top is ``rail_height``, as beside any cushion.
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


def _liner(spec: TableSpec, segments: np.ndarray, jaws: np.ndarray, pockets: np.ndarray, k: int) -> list[float]:
    """Pocket k's liner row (``L_*``): the circle tangent to the pocket's two facings at their back ends, its arc
    the wedge between the two tangent points that holds the pocket's outward axis."""
    px, py = pockets[k, 0], pockets[k, 1]
    n_rails = 6
    # facing 6 + j starts at jaw j, which ends cushion j // 2; a pocket's two jaws are the two nearest its centre
    near = sorted(range(jaws.shape[0]), key=lambda j: math.hypot(jaws[j, 0] - px, jaws[j, 1] - py))[:2]
    (e1, n1), (e2, n2) = ((segments[n_rails + j, 2:4], segments[n_rails + j, 4:6]) for j in near)
    dn = n1 - n2
    radius = float(np.dot(e2 - e1, dn) / np.dot(dn, dn))  # e1 + r n1 = e2 + r n2 (both facings tangent)
    centre = e1 + radius * n1
    if not (radius > 0.0 and np.allclose(centre, e2 + radius * n2, atol=1e-9)):
        raise ValueError(f"facing_length: the facings of the {POCKET_NAMES[k]} pocket admit no liner tangent to both")
    axis = np.array([px, py]) - np.array([spec.width / 2.0, spec.length / 2.0])
    axis = np.where(np.abs(axis) < 1e-9, 0.0, np.sign(axis))
    axis /= np.linalg.norm(axis)  # outward: (±1, ±1)/√2 at a corner, (±1, 0) at a side pocket
    normals = []
    for n in (n1, n2):  # the tangent point is at −n from the centre; the half-plane's normal points to the axis side
        m = np.array([n[1], -n[0]])
        normals.append(m if np.dot(m, axis) >= 0.0 else -m)
    if min(np.dot(-n1, axis), np.dot(-n2, axis)) < -1e-12:
        raise ValueError(f"{'corner' if abs(axis[1]) > 0 and abs(axis[0]) > 0 else 'side'}_jaw_angle: the facings of "
                         f"the {POCKET_NAMES[k]} pocket open outward; its liner would wrap more than half a circle")
    cushions = sorted({j // 2 for j in near})
    k1, k2 = cushions[0], cushions[-1]
    for c in (k1, k2):  # the circle's farthest point behind each cushion line beside the pocket
        behind = radius - float(np.dot(segments[c, 4:6], centre - segments[c, 0:2]))
        if behind >= spec.rail_width:
            raise ValueError(f"rail_width: the {POCKET_NAMES[k]} pocket's liner ({radius:.4f} m) reaches past the "
                             f"rail's outer edge ({spec.rail_width} m behind the cushion)")
    return [centre[0], centre[1], radius, axis[0], axis[1], *normals[0], *normals[1], float(k1), float(k2)]


def jaw_arcs(segments: np.ndarray, jaws: np.ndarray) -> np.ndarray:
    """Per jaw, the arc of its circle that bounds the playing area, as (m, ARC_STRIDE) rows (bisector x, y, cos of
    the half angle): the arc between the points where segments (a cushion and a facing) end tangent to the circle.

    Found from the geometry, not from index conventions, so any ``Table`` has one; a jaw that fewer than two segments
    touch (a table built without a cushion) gets the whole circle (cos = -2: every direction is on it)."""
    rows = []
    for cx, cy, r in jaws:
        normals = []
        for x1, y1, x2, y2, nx, ny in segments:
            tx, ty = cx + r * nx, cy + r * ny  # where a segment whose normal is (nx, ny) would touch the circle
            if min(math.hypot(x1 - tx, y1 - ty), math.hypot(x2 - tx, y2 - ty)) < 1e-9:
                normals.append((nx, ny))
        if len(normals) != 2 or math.hypot(normals[0][0] + normals[1][0], normals[0][1] + normals[1][1]) < 1e-9:
            rows.append((1.0, 0.0, -2.0))
            continue
        (ax, ay), (bx, by) = normals
        mx, my = ax + bx, ay + by
        norm = math.hypot(mx, my)
        rows.append((mx / norm, my / norm, (ax * mx + ay * my) / norm))
    return np.array(rows, dtype=np.float64).reshape(-1, ARC_STRIDE)


@dataclass(frozen=True, eq=False)
class Table:
    """Generated geometry of one table, as contiguous arrays for the kernels.

    Attributes:
        spec: the parameters it was generated from.
        segments: (n, 6) float64 rows (x1, y1, x2, y2, nx, ny); n points to the playing side.
        jaws: (m, 3) float64 rows (x, y, radius) of the rounded jaw circles.
        pockets: (6, 3) float64 rows (x, y, radius) of capture circles, in ``POCKET_NAMES`` order.
        liners: (6, LINER_STRIDE) float64 rows of each pocket's liner (the ``L_*`` columns; TableSpec notes).
    """

    spec: TableSpec
    segments: np.ndarray
    jaws: np.ndarray
    pockets: np.ndarray
    liners: np.ndarray

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
        segments, jaws, pockets = as_array(segments), as_array(jaws), as_array(pockets)
        liners = as_array([_liner(spec, segments, jaws, pockets, k) for k in range(pockets.shape[0])])
        return cls(spec=spec, segments=segments, jaws=jaws, pockets=pockets, liners=liners)

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
        """(rail_width, rail_height, counts, the liners' rows, the jaw arcs' rows flattened), as the airborne kernel
        reads them (the ``RAIL_*`` layout; the flat kernel reads only the rail's height): built once per table
        (every simulate call passes it, so a new array per call would cost the flat path ~1 µs); the kernels never
        write to it."""
        arcs = jaw_arcs(self.segments, self.jaws)
        return np.ascontiguousarray(np.concatenate([
            [self.spec.rail_width, self.spec.rail_height, float(self.liners.shape[0]), float(arcs.shape[0])],
            self.liners.ravel(), arcs.ravel()]))

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
