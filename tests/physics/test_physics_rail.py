"""The rail as a region (issue 29, docs/table.md): a ball in the air over the rail comes back over the playing area when
its centre crosses the inner outline, and leaves the table only over the rail: when it comes down onto the rail's top
or crosses the rail's outer edge, never over the cloth and never beyond the outline."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

import physics
from physics import EventKind as K
from physics import Motion
from physics.kernels.rail import edge_gap, edge_time, outline_gap, return_time, top_time
from physics.table import L_M1X, L_M2X, L_R, L_X, LINER_STRIDE, RAIL_LINERS

sys.path.insert(0, str(Path(__file__).parent / "data"))
from rail_reproducers import NO_ENDS, OVER_THE_CLOTH  # noqa: E402

TABLE, P = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS
SEG, JAWS, RAIL = TABLE.segments, TABLE.jaws, TABLE.rail
W, L, RW = TABLE.width, TABLE.length, TABLE.spec.rail_width


def _tangent_ends(c: np.ndarray, r: float) -> list[np.ndarray]:
    """The segment ends that touch the circle (c, r), each as the unit vector from c."""
    ends = []
    for x1, y1, x2, y2, nx, ny in SEG:
        for e in (np.array([x1, y1]), np.array([x2, y2])):
            if np.allclose(e, c + r * np.array([nx, ny]), atol=1e-9):
                ends.append((e - c) / r)
    return ends


def _arc(c: np.ndarray, r: float, u0: np.ndarray, u1: np.ndarray, inside: callable, n: int) -> np.ndarray:
    """n points of the arc of circle (c, r) from direction u0 to u1 whose middle satisfies ``inside``."""
    a0, a1 = math.atan2(u0[1], u0[0]), math.atan2(u1[1], u1[0])
    sweep = (a1 - a0) % (2 * math.pi)
    mid = a0 + sweep / 2
    if not inside(np.array([math.cos(mid), math.sin(mid)])):
        sweep -= 2 * math.pi
    a = a0 + sweep * np.linspace(0.0, 1.0, n)
    return c + r * np.stack([np.cos(a), np.sin(a)], axis=1)


def outline_polygon() -> np.ndarray:
    """The inner outline as one closed polygon, built from the table's pieces by walking their shared ends (an oracle
    independent of ``outline_gap``): the cushion and facing segments, the jaws' arcs on the table side (between the
    two segments that end tangent to each), the liners' arcs behind the mouths."""
    pieces = [np.array([[x1, y1], [x2, y2]]) for x1, y1, x2, y2, _, _ in SEG]
    for cx, cy, r in JAWS:
        c = np.array([cx, cy])
        u0, u1 = _tangent_ends(c, r)
        pieces.append(_arc(c, r, u0, u1, lambda u, u0=u0, u1=u1: u @ (u0 + u1) > 0, 200))  # the minor arc
    for k in range(6):
        row = RAIL[RAIL_LINERS + k * LINER_STRIDE:][:LINER_STRIDE]
        c, rl, m1, m2 = row[L_X:L_X + 2], row[L_R], row[L_M1X:L_M1X + 2], row[L_M2X:L_M2X + 2]
        ends = [s * np.array([m[1], -m[0]]) for m in (m1, m2) for s in (1, -1)]
        u0, u1 = [u for u in ends if u @ m1 >= -1e-9 and u @ m2 >= -1e-9]
        pieces.append(_arc(c, rl, u0, u1, lambda u, m1=m1, m2=m2: u @ m1 >= 0 and u @ m2 >= 0, 400))
    poly, rest = list(pieces[0]), pieces[1:]
    while rest:
        gaps = [min(np.hypot(*(p[0] - poly[-1])), np.hypot(*(p[-1] - poly[-1]))) for p in rest]
        i = int(np.argmin(gaps))
        assert gaps[i] < 1e-8, "the pieces do not join"
        p = rest.pop(i)
        poly.extend((p if np.hypot(*(p[0] - poly[-1])) < 1e-8 else p[::-1])[1:])
    assert np.hypot(*(poly[0] - poly[-1])) < 1e-8, "the outline does not close"
    return np.array(poly)


def _inside_polygon(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Even-odd ray casting (a ray along +x from each point)."""
    x, y = points[:, 0:1], points[:, 1:2]
    x1, y1 = poly[None, :-1, 0], poly[None, :-1, 1]
    x2, y2 = poly[None, 1:, 0], poly[None, 1:, 1]
    crosses = ((y1 > y) != (y2 > y)) & (x < x1 + (y - y1) * (x2 - x1) / np.where(y2 == y1, 1.0, y2 - y1))
    return crosses.sum(axis=1) % 2 == 1


def _distance_to_polygon(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
    a, b = poly[None, :-1], poly[None, 1:]
    ab = b - a
    s = np.clip(((points[:, None] - a) * ab).sum(-1) / (ab * ab).sum(-1), 0.0, 1.0)
    return np.hypot(*np.moveaxis(points[:, None] - (a + s[..., None] * ab), -1, 0)).min(axis=1)


def test_the_outline_region_is_the_polygon_of_its_pieces() -> None:
    """``outline_gap`` (the nearest piece's side) against ray casting on the outline's polygon, at points over the whole
    rail and crowded round the six pockets, away from the polygon's chords (within 1e-4 m of the outline the polygon is
    not the curve)."""
    poly = outline_polygon()
    rng = np.random.default_rng(0)
    points = np.concatenate([rng.uniform((-RW - 0.05, -RW - 0.05), (W + RW + 0.05, L + RW + 0.05), (6000, 2)),
                             *(TABLE.pockets[k, :2] + rng.normal(scale=0.04, size=(1500, 2)) for k in range(6))])
    gap = np.array([outline_gap(x, y, SEG, JAWS, RAIL) for x, y in points])
    far = _distance_to_polygon(points, poly) > 1e-4
    assert far.sum() > 14000
    np.testing.assert_array_equal(gap[far] > 0.0, _inside_polygon(points[far], poly))


def test_the_outline_has_no_gap_and_the_region_changes_side_across_it() -> None:
    """Every point of the outline's polygon is on it (|gap| ≤ rounding of the arcs' chords), and a step across it
    changes the region: the outline is one closed curve."""
    poly = outline_polygon()
    mids = 0.5 * (poly[:-1] + poly[1:])
    gaps = np.array([outline_gap(x, y, SEG, JAWS, RAIL) for x, y in poly])
    assert np.max(np.abs(gaps)) < 1e-12
    normal = np.stack([-(poly[1:, 1] - poly[:-1, 1]), poly[1:, 0] - poly[:-1, 0]], axis=1)
    normal /= np.hypot(*normal.T)[:, None]
    inner = _inside_polygon(mids + 1e-4 * normal, poly)
    for m, n, i in zip(mids, normal, inner):
        d = 1e-4 if i else -1e-4
        assert outline_gap(*(m + d * n), SEG, JAWS, RAIL) > 0 > outline_gap(*(m - d * n), SEG, JAWS, RAIL)


def test_known_points() -> None:
    assert outline_gap(0.6, 1.2, SEG, JAWS, RAIL) == pytest.approx(0.6)  # mid-table: nearest the side cushions
    assert outline_gap(0.6, -0.05, SEG, JAWS, RAIL) == pytest.approx(-0.05)  # behind the head cushion
    for k in range(6):  # every hole is over the playing area, and the rail behind its liner is not
        row = RAIL[RAIL_LINERS + k * LINER_STRIDE:][:LINER_STRIDE]
        axis = row[3:5]
        assert outline_gap(*row[0:2], SEG, JAWS, RAIL) > 0.0
        assert outline_gap(*(row[0:2] + (row[L_R] + 0.01) * axis), SEG, JAWS, RAIL) == pytest.approx(-0.01)
    for cx, cy, r in JAWS:  # a jaw's post is rail
        assert outline_gap(cx, cy, SEG, JAWS, RAIL) < 0.0
    assert edge_gap(0.6, 1.2, W, L, RAIL) == pytest.approx(0.6 + RW)
    assert edge_gap(-RW - 0.01, 1.2, W, L, RAIL) == pytest.approx(-0.01)


def _first_entry(x: float, y: float, vx: float, vy: float, T: float = 3.0, n: int = 30000) -> float:
    """First time the sampled straight path comes over the playing area (bisection on ``outline_gap``)."""
    ts = np.linspace(0.0, T, n)
    for lo, hi in zip(ts[:-1], ts[1:]):
        if outline_gap(x + vx * hi, y + vy * hi, SEG, JAWS, RAIL) > 0.0:
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if outline_gap(x + vx * mid, y + vy * mid, SEG, JAWS, RAIL) > 0.0 else (mid, hi)
            return hi
    return math.inf


def test_return_time_is_the_first_crossing_of_the_outline_into_the_playing_area() -> None:
    """From random points over the rail (crowded round the pockets, where the outline bends) in random directions,
    ``return_time`` is the first time the path is over the playing area, found by dense sampling: over a cushion or a
    facing, out of a jaw's post, into a pocket's hole."""
    rng = np.random.default_rng(1)
    checked = returned = 0
    while checked < 400:
        k = rng.integers(0, 6)
        x, y = TABLE.pockets[k, :2] + rng.normal(scale=0.06, size=2) if rng.random() < 0.7 else rng.uniform(
            (-RW, -RW), (W + RW, L + RW))
        if outline_gap(x, y, SEG, JAWS, RAIL) > -1e-6 or edge_gap(x, y, W, L, RAIL) < 0.0:
            continue
        angle = rng.uniform(0.0, 2 * math.pi)
        vx, vy = math.cos(angle), math.sin(angle)
        got, want = return_time(x, y, vx, vy, SEG, JAWS, RAIL), _first_entry(x, y, vx, vy)
        if math.isinf(want):
            assert math.isinf(got) or got > 3.0
        else:
            assert got == pytest.approx(want, abs=1e-9), (x, y, vx, vy)
            returned += 1
        checked += 1
    assert returned > 150


def test_edge_and_top_times() -> None:
    assert edge_time(0.6, -0.05, 0.0, -2.0, W, L, RAIL) == pytest.approx((RW - 0.05) / 2.0)
    assert edge_time(-0.05, -0.05, -1.0, -1.0, W, L, RAIL) == pytest.approx(RW - 0.05)  # round the corner: the nearer
    assert edge_time(W + 0.01, 0.3, 1.0, 3.0, W, L, RAIL) == pytest.approx(RW - 0.01)
    assert edge_time(-RW - 0.01, 0.3, -1.0, 0.0, W, L, RAIL) == 0.0  # beyond it already
    top = TABLE.spec.rail_height
    assert top_time(top + 0.01, 0.0, top, P.g) == pytest.approx(math.sqrt(2 * 0.01 / P.g))
    assert top_time(top - 1e-4, 5.0, top, P.g) == 0.0


# ---------------------------------------------------------------------------------------------
# The shots: balls taken off over the cloth (a ball flying back over the cushion line was still marked as
# over the rail) and balls taken off far beyond the table (the rail had no ends).

def _off_rows(r: physics.SimResult) -> np.ndarray:
    return np.flatnonzero(r.events.kind == K.BALL_OFF_TABLE)


def _assert_off_over_the_rail(r: physics.SimResult) -> None:
    """Every ball taken off left over the rail or on its outer edge (its centre not over the playing area, and not
    beyond the edge); one that came down onto the rail's top was at the rail's height just before."""
    for k in _off_rows(r):
        x, y = r.events.state_a[k, :2]
        assert outline_gap(x, y, SEG, JAWS, RAIL) <= 1e-9 and edge_gap(x, y, W, L, RAIL) >= -1e-9, (k, x, y)


@pytest.mark.parametrize("cue, shot, off_at, off_t", OVER_THE_CLOTH)
def test_a_ball_flying_back_over_the_cloth_lands_there(cue, shot, off_at, off_t) -> None:
    r = physics.simulate(physics.place_balls({0: cue}), physics.Shot(*shot))
    ev = r.events
    _assert_off_over_the_rail(r)
    assert not np.any((ev.time == pytest.approx(off_t, abs=1e-3)) & (ev.kind == K.BALL_OFF_TABLE))
    # it was over the playing area where 921a595 took it off, in the air: now it flies on there
    assert outline_gap(*off_at, SEG, JAWS, RAIL) > 0.04
    after = ev.time >= off_t - 0.01
    assert np.any(after & (ev.kind == K.BALL_LANDING)) or np.any(after & (ev.kind == K.BALL_OFF_TABLE)), "it flies on"
    assert not (r.hit_event_cap or r.hit_time_cap or r.unresolved or r.in_flight)


@pytest.mark.parametrize("cue, shot, off_at", NO_ENDS)
def test_a_ball_flying_along_the_rail_leaves_at_its_outer_edge(cue, shot, off_at) -> None:
    r = physics.simulate(physics.place_balls({0: cue}), physics.Shot(*shot))
    (k,) = _off_rows(r)
    x, y = r.events.state_a[k, :2]
    assert edge_gap(x, y, W, L, RAIL) == pytest.approx(0.0, abs=1e-9)  # on the outer edge, not 2 m past the table
    assert math.hypot(x - off_at[0], y - off_at[1]) > 1.0
    assert r.state.motion[0] == Motion.OFF_TABLE and not r.unresolved
