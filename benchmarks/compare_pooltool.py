#!/usr/bin/env python3
"""Side-by-side benchmark of nineball's physics against pooltool.

Runs the same shots in both simulators: same ball positions, cue parameters, table
geometry and ball parameters, and the same models where pooltool has them (Han 2005
cushion, frictional ball–ball collisions with Alciatore's friction curve, the
instantaneous-point cue strike with squirt). Reports, as JSON:

* the per-shot time ratio pooltool / nineball (median of K warm repeats per shot, both
  timed in the same run and interleaved), summarised as the median over ordinary shots
  and over breaks;
* events per shot in each simulator;
* outcome agreement per named shot (first ball contacted, balls pocketed and their
  pockets, largest final-position difference) and agreement rates over random shots.

pooltool is optional: without it the script says how to install it and prints
``{"skipped": "pooltool not importable"}`` (exit 0). See benchmarks/pooltool_setup.md.

Usage::

    python3 benchmarks/compare_pooltool.py --shots 100 --repeats 5 --seed 0 --json out.json
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Sequence

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import physics  # noqa: E402
from physics.events import EventKind  # noqa: E402
from physics.params import PhysicsParams  # noqa: E402
from physics.rack import nine_ball_rack, place_balls  # noqa: E402
from physics.shot import Shot  # noqa: E402
from physics.table import POCKET_NAMES, Table, TableSpec  # noqa: E402

SKIPPED = {"skipped": "pooltool not importable"}
INSTALL_HINT = """\
pooltool is not importable, so there is nothing to compare against.
Install it into this interpreter (its PyPI metadata pins a panda3d dev build that PyPI
does not serve, hence --no-deps and the explicit requirement list):

    pip install --no-deps pooltool-billiards==0.6.0
    pip install 'panda3d>=1.10.13,<1.11' 'panda3d-gltf>=1.2.0' 'panda3d-simplepbr>=0.12.0' \\
        'cattrs>=22.1.0' 'msgpack>=1.0.0' 'msgpack-numpy>=0.4.8' 'h5py>=3.10' 'h11>=0.16.0' \\
        'rich>=14.0.0,<15.0.0' 'numpy-quaternion>=2024.0.12' 'attrs>=21.3.0' 'pyyaml>=5.2' \\
        'click>=8.0.0' 'pillow>=6.2.0' 'scipy>=1.12.0'

See benchmarks/pooltool_setup.md."""

TARGET_RATIO = 150.0  # ordinary shots must run at least this many times faster than pooltool
TARGET_CUSHION_COST = 1.10  # the default cushion model's ordinary-shot median within 10 % of Han 2005's
CUE_ID = "cue"  # pooltool's id for ball 0
A_SIGN = -1.0  # pooltool's a > 0 is *left* english (a = +1 is the leftmost side); nineball's is right
MAX_EVENTS = 4000  # same cap as physics.simulate's default
GAP_TOL = 1e-3  # [m] a ball–ball event whose centres are not 2R ± this apart is an anomaly
POOLTOOL_MIN_DIST = 1e-6  # [m] pooltool 0.6.0's make_kiss spacer (pooltool.constants.MIN_DIST)

# pooltool event type name -> nineball EventKind name
PT_KIND_NAMES = {
    "stick_ball": "STICK_BALL",
    "ball_ball": "BALL_BALL",
    "ball_linear_cushion": "BALL_CUSHION",
    "ball_circular_cushion": "BALL_JAW",
    "ball_pocket": "BALL_POCKET",
    "sliding_rolling": "SLIDING_ROLLING",
    "rolling_spinning": "ROLLING_SPINNING",
    "rolling_stationary": "ROLLING_STATIONARY",
    "spinning_stationary": "SPINNING_STATIONARY",
}


# --------------------------------------------------------------------------- shots


@dataclass(frozen=True)
class ShotCase:
    """One shot to run in both simulators.

    Attributes:
        name: unique label.
        group: "named", "random" or "break".
        positions: ball number -> (x, y) centre [m], nineball table coordinates.
        shot: the cue parameters, in nineball's conventions.
    """

    name: str
    group: str
    positions: dict[int, tuple[float, float]]
    shot: Shot


def ghost_ball_phi(cue: tuple[float, float], obj: tuple[float, float], target: tuple[float, float], R: float) -> float:
    """Aim [deg] that sends ``obj`` towards ``target`` (ghost-ball aim, throw ignored)."""
    ux, uy = target[0] - obj[0], target[1] - obj[1]
    norm = math.hypot(ux, uy)
    gx, gy = obj[0] - 2.0 * R * ux / norm, obj[1] - 2.0 * R * uy / norm
    return math.degrees(math.atan2(gy - cue[1], gx - cue[0]))


def direct_phi(src: tuple[float, float], dst: tuple[float, float]) -> float:
    """Direction [deg] from ``src`` to ``dst``, counter-clockwise from +x."""
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0]))


def named_shots(table: Table, params: PhysicsParams) -> list[ShotCase]:
    """The simple shots whose outcomes must agree: stun, follow, draw, two cuts, a one-rail kick.

    Stun and draw are straight-in shots into the right side pocket (the object ball drops
    and never rolls back along the cue ball's line); follow is a 10° cut into the same
    pocket, so the two balls never roll in parallel (see ``PooltoolRunner.outcome`` on why
    pooltool mishandles that).
    """
    W, L, R = table.width, table.length, params.R
    cue, one = (W - 0.95, L / 2), (W - 0.45, L / 2)
    side_pocket = (W + 0.05, L / 2)
    cut = math.radians(10.0)  # the follow shot is a slight cut, so the balls never roll in parallel
    follow_cue = (one[0] - 2 * R - 0.5 * math.cos(cut), one[1] - 0.5 * math.sin(cut))
    corner_obj, corner_cue = (0.30, 2.20), (0.75, 1.75)
    side_obj, side_cue = (1.10, 1.36), (0.70, 1.55)
    kick_cue, kick_obj, blocker = (0.30, 0.40), (0.30, 1.00), (0.30, 0.70)
    mirror = (2.0 * (W - R) - kick_obj[0], kick_obj[1])  # image of the object ball in the right rail
    return [
        ShotCase("stun", "named", {0: cue, 1: one}, Shot(V0=1.5, phi=0.0, b=-0.25)),
        ShotCase("follow", "named", {0: follow_cue, 1: one},
                 Shot(V0=0.8, phi=ghost_ball_phi(follow_cue, one, side_pocket, R), b=0.4)),
        ShotCase("draw", "named", {0: cue, 1: one}, Shot(V0=2.0, phi=0.0, b=-0.6)),
        ShotCase("cut_corner", "named", {0: corner_cue, 1: corner_obj},
                 Shot(V0=2.0, phi=ghost_ball_phi(corner_cue, corner_obj, (0.0, L), R))),
        ShotCase("cut_side", "named", {0: side_cue, 1: side_obj},
                 Shot(V0=1.8, phi=ghost_ball_phi(side_cue, side_obj, side_pocket, R))),
        ShotCase("one_rail_kick", "named", {0: kick_cue, 1: kick_obj, 9: blocker},
                 Shot(V0=2.0, phi=direct_phi(kick_cue, mirror))),
    ]


def random_layout(rng: np.random.Generator, n_balls: int, table: Table, R: float, gap: float = 0.01) -> dict[int, tuple[float, float]]:
    """Cue ball plus ``n_balls - 1`` random object balls, all clear of the cushions and of each other."""
    ids = [0, *sorted(int(i) for i in rng.choice(np.arange(1, 10), n_balls - 1, replace=False))]
    lo, hi = R + gap, np.array([table.width, table.length]) - R - gap
    placed: dict[int, tuple[float, float]] = {}
    for ball in ids:
        while True:
            xy = rng.uniform(lo, hi)
            if all(math.hypot(xy[0] - x, xy[1] - y) >= 2 * R + gap for x, y in placed.values()):
                placed[ball] = (float(xy[0]), float(xy[1]))
                break
    return placed


def random_shots(rng: np.random.Generator, n: int, table: Table, params: PhysicsParams) -> list[ShotCase]:
    """Ordinary shots: 2–5 balls, V0 in [1, 4] m/s aimed at an object ball (any cut), small spin,
    cue elevation up to 10°."""
    cases = []
    for i in range(n):
        positions = random_layout(rng, int(rng.integers(2, 6)), table, params.R)
        target = int(rng.choice([b for b in positions if b != 0]))
        cue, obj = positions[0], positions[target]
        dist = math.hypot(obj[0] - cue[0], obj[1] - cue[1])
        max_cut = math.degrees(math.asin(min(1.0, 2 * params.R / dist)))
        phi = direct_phi(cue, obj) + float(rng.uniform(-0.8, 0.8)) * max_cut
        shot = Shot(V0=float(rng.uniform(1.0, 4.0)), phi=phi % 360.0, theta=float(rng.uniform(0.0, 10.0)),
                    a=float(rng.uniform(-0.2, 0.2)), b=float(rng.uniform(-0.3, 0.3)))
        cases.append(ShotCase(f"random_{i:03d}", "random", positions, shot))
    return cases


def break_shots(rng: np.random.Generator, n: int, table: Table, params: PhysicsParams) -> list[ShotCase]:
    """Nine-ball breaks from the head string at 7–9 m/s, aimed at the 1-ball."""
    cases = []
    for i in range(n):
        cue_xy = (table.width / 2 + float(rng.uniform(-0.15, 0.15)), table.head_string_y)
        state = nine_ball_rack(rng, table, params, cue_position=cue_xy)
        positions = {int(b): (float(state.pos[b, 0]), float(state.pos[b, 1])) for b in state.balls_on_table()}
        phi = direct_phi(positions[0], positions[1]) + float(rng.uniform(-0.3, 0.3))
        shot = Shot(V0=float(rng.uniform(7.0, 9.0)), phi=phi, b=float(rng.uniform(-0.2, 0.1)))
        cases.append(ShotCase(f"break_{i}", "break", positions, shot))
    return cases


# --------------------------------------------------------------------------- outcomes


@dataclass
class Outcome:
    """What one simulator says a shot did, in nineball numbering.

    Attributes:
        first_contact: first object ball the cue ball touched, or None.
        pocketed: ball -> pocket index (``POCKET_NAMES`` order).
        final_pos: ball -> final (x, y) for balls still on the table.
        n_events: events logged (pooltool's NONE markers excluded; the strike included).
        kinds: event count per kind (nineball ``EventKind`` names).
        sidespin: z-spin of the cue ball just after the strike [rad/s].
        gap_violations: ball–ball events resolved while the centres were not 2R (± GAP_TOL) apart.
        impact_diffs: pooltool only: event kind -> largest relative difference between pooltool's post-impact
            velocities and spins and nineball's kernels applied to the same pre-impact state (``impact_check``).
    """

    first_contact: int | None
    pocketed: dict[int, int]
    final_pos: dict[int, tuple[float, float]]
    n_events: int
    kinds: dict[str, int] = field(default_factory=dict)
    sidespin: float = 0.0
    gap_violations: int = 0
    impact_diffs: dict[str, float] = field(default_factory=dict)

    @property
    def in_the_air(self) -> bool:
        """A ball left the cloth (a ``BALL_AIRBORNE`` event): only nineball flies balls; pooltool 0.6.0 keeps them
        on the cloth, so such a shot is not the same shot in both simulators."""
        return self.kinds.get("BALL_AIRBORNE", 0) > 0


def compare_outcomes(nb: Outcome, pt: Outcome, pos_tol_mm: float) -> dict[str, Any]:
    """First contact, pocketed balls with pockets, and final positions of the balls left in both."""
    common = sorted(set(nb.final_pos) & set(pt.final_pos))
    diffs = [math.hypot(nb.final_pos[b][0] - pt.final_pos[b][0], nb.final_pos[b][1] - pt.final_pos[b][1]) for b in common]
    max_diff_mm = 1000.0 * max(diffs) if diffs else 0.0
    fc = nb.first_contact == pt.first_contact
    pk = nb.pocketed == pt.pocketed
    return {
        "first_contact": {"nineball": nb.first_contact, "pooltool": pt.first_contact, "agree": fc},
        "pocketed": {
            "nineball": {str(b): POCKET_NAMES[p] for b, p in sorted(nb.pocketed.items())},
            "pooltool": {str(b): POCKET_NAMES[p] for b, p in sorted(pt.pocketed.items())},
            "agree": pk,
        },
        "max_final_pos_diff_mm": round(max_diff_mm, 3),
        "agree": fc and pk and max_diff_mm <= pos_tol_mm,
    }


# --------------------------------------------------------------------------- nineball side


class NineballRunner:
    """Runs shots through ``physics.simulate``."""

    def __init__(self, table: Table, params: PhysicsParams) -> None:
        self.table = table
        self.params = params
        self.simulate = physics.simulate

    def prepare(self, case: ShotCase) -> Any:
        """The initial BallState (simulate does not modify it, so it is reused across repeats)."""
        return place_balls(case.positions)

    def run(self, state: Any, case: ShotCase) -> Any:
        return self.simulate(state, case.shot, self.table, self.params)

    def outcome(self, result: Any) -> Outcome:
        """Read first contact, pockets, final positions and event counts from a SimResult."""
        first = None
        kinds: dict[str, int] = {}
        sidespin = 0.0
        gaps = 0
        log = result.events
        for i, ev in enumerate(log):
            kinds[ev.kind.name] = kinds.get(ev.kind.name, 0) + 1
            if ev.kind == EventKind.STICK_BALL:
                sidespin = float(log.state_a[i, 6])
            elif ev.kind == EventKind.BALL_BALL:
                gap = math.hypot(*(log.state_a[i, :2] - log.state_b[i, :2]))
                gaps += abs(gap - 2 * self.params.R) > GAP_TOL
                if first is None and 0 in (ev.ball_a, ev.ball_b):
                    first = ev.ball_b if ev.ball_a == 0 else ev.ball_a
        final = result.state
        on = final.on_table()
        pocketed = {int(b): int(final.pocket[b]) for b in range(final.n_balls) if final.pocket[b] >= 0}
        pos = {int(b): (float(final.pos[b, 0]), float(final.pos[b, 1])) for b in np.flatnonzero(on)}
        return Outcome(first, pocketed, pos, len(log), kinds, sidespin, int(gaps))


# --------------------------------------------------------------------------- pooltool side


def import_pooltool() -> ModuleType | None:
    """pooltool, or None when it cannot be imported."""
    try:
        import pooltool
    except Exception:  # ImportError, or a broken install (e.g. a missing panda3d)
        return None
    return pooltool


def pooltool_table_specs(spec: TableSpec, params: PhysicsParams) -> Any:
    """pooltool ``PocketTableSpecs`` with the same cushions, jaws and capture circles as ``spec``.

    pooltool's "pocket width" is the distance between the points where the cushion nose
    lines meet the facing lines; nineball's mouth is between the tangent points of its jaw
    circles. Matching the jaw circles (centre and radius) makes the noses, jaws and facings
    coincide, except pooltool's side facings (see ``straighten_side_facings``).
    """
    from pooltool.objects.table.specs import PocketTableSpecs

    corner_angle = spec.corner_jaw_angle - 135.0  # pooltool: facing tilt beyond 45°
    side_angle = spec.side_jaw_angle - 90.0  # pooltool: facing tilt from the rail normal
    ca = math.radians(corner_angle + 45.0)
    sa = math.radians(side_angle)
    r = spec.jaw_radius
    dc = r / math.tan((math.pi / 2 + ca) / 2)  # nose vertex -> jaw tangent point
    ds = r / math.tan((math.pi / 2 + sa) / 2)
    return PocketTableSpecs(
        l=spec.length,
        w=spec.width,
        # pooltool's facings end where they reach cushion_width behind the nose line: make
        # both kinds at least as long as nineball's (their far ends lie inside the capture circles)
        cushion_width=max((spec.facing_length + dc) * math.cos(ca), (spec.facing_length + ds) * math.cos(sa)),
        cushion_height=params.cushion_height,
        corner_pocket_width=spec.corner_mouth - math.sqrt(2.0) * dc,
        corner_pocket_angle=corner_angle,
        corner_pocket_depth=spec.corner_pocket_radius + spec.corner_capture_depth - spec.corner_mouth / 2,
        corner_pocket_radius=spec.corner_pocket_radius,
        corner_jaw_radius=r,
        side_pocket_width=spec.side_mouth - 2.0 * ds,
        side_pocket_angle=side_angle,
        side_pocket_depth=spec.side_pocket_radius + spec.side_capture_depth,
        side_pocket_radius=spec.side_pocket_radius,
        side_jaw_radius=r,
    )


SIDE_FACING_IDS = ("4", "5", "13", "14")  # pooltool 0.6.0's side-pocket facing segments


def straighten_side_facings(ptable: Any, side_angle: float) -> Any:
    """A copy of pooltool table ``ptable`` whose side-pocket facings run at ``side_angle`` [deg].

    pooltool 0.6.0 puts the outer end of each side facing at ``cushion_width·sin(angle)``
    along the rail where the straight facing needs ``cushion_width·tan(angle)``: a 14°
    facing comes out at ≈ 13.5°, which turns balls rebounding off it by ≈ 1°. This keeps
    each facing's jaw tangent point and moves its outer end onto the exact line.
    """
    import attrs
    from pooltool.objects.table.components import CushionSegments, LinearCushionSegment

    tan_a = math.tan(math.radians(side_angle))
    linear = dict(ptable.cushion_segments.linear)
    for key in SIDE_FACING_IDS:
        seg = linear[key]
        outer, tangent = np.array(seg.p1), np.array(seg.p2)
        run = abs(outer[0] - tangent[0])
        outer[1] = tangent[1] + math.copysign(run * tan_a, outer[1] - tangent[1])
        linear[key] = LinearCushionSegment(key, p1=outer, p2=tangent.copy(), direction=seg.direction)
    segments = CushionSegments(linear=linear, circular=dict(ptable.cushion_segments.circular))
    return attrs.evolve(ptable, cushion_segments=segments)


def pooltool_table(pt: ModuleType, spec: TableSpec, params: PhysicsParams) -> Any:
    """The pooltool Table with nineball's geometry: noses, jaws, facings and capture circles."""
    ptable = pt.Table.from_table_specs(pooltool_table_specs(spec, params))
    return straighten_side_facings(ptable, spec.side_jaw_angle - 90.0)


def pooltool_engine(params: PhysicsParams, match_throw: bool = False, defaults: bool = False) -> Any:
    """A pooltool engine with nineball's models (Han 2005 cushions, Alciatore ball–ball friction), or
    with pooltool 0.6.0's default resolver when ``defaults`` (Stronge compliant cushions and jaws).

    pooltool's frictional-inelastic ball–ball model limits the tangential velocity change
    to µ·e_b·v_n (µ times the post-impact separation speed); nineball bounds the friction
    impulse by µ times the normal impulse, i.e. µ·(1 + e_b)/2·v_n per unit mass. With
    ``match_throw`` pooltool's friction curve is scaled by (1 + e_b)/(2·e_b) (≈ 1.026 for
    e_b = 0.95) so both apply the same friction impulse, µ(v)·J_n.
    """
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.ball_ball.friction import AlciatoreBallBallFriction
    from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic
    from pooltool.physics.resolve.ball_cushion.han_2005.model import Han2005Circular, Han2005Linear
    from pooltool.physics.resolve.ball_pocket import CanonicalBallPocket
    from pooltool.physics.resolve.resolver import Resolver, default_resolver
    from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
    from pooltool.physics.resolve.transition import CanonicalTransition

    if defaults:
        return PhysicsEngine(resolver=default_resolver())
    if params.cushion_model != "han2005":
        raise ValueError(f"matched models compare the han2005 cushion model only, got {params.cushion_model!r}")
    scale = (1.0 + params.e_b) / (2.0 * params.e_b) if match_throw else 1.0
    friction = AlciatoreBallBallFriction(a=scale * params.throw_a, b=scale * params.throw_b, c=params.throw_c)
    resolver = Resolver(
        ball_ball=FrictionalInelastic(friction=friction),
        ball_linear_cushion=Han2005Linear(),
        ball_circular_cushion=Han2005Circular(),
        ball_pocket=CanonicalBallPocket(),
        stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=1.0 if params.cue_end_mass > 0 else 0.0),
        transition=CanonicalTransition(),
    )
    return PhysicsEngine(resolver=resolver)


def set_pooltool_spacer(spacer: float) -> float:
    """Diagnostic: set the gap pooltool 0.6.0 leaves before resolving a collision (``make_kiss`` moves
    colliding balls to 2R + spacer apart, and a ball to R + spacer off a cushion or jaw, which also tilts
    the compliant cushion's contact direction); returns the previous value. nineball resolves at contact.
    Shrinking it shows which disagreements come from that nudge alone: the headline figures keep
    pooltool's own 1 µm."""
    import pooltool.constants as const

    if not (isinstance(spacer, float) and 0.0 < spacer <= 1e-3):
        raise ValueError(f"pooltool spacer: expected a float in (0, 1e-3] m, got {spacer!r}")
    previous = float(const.MIN_DIST)
    const.MIN_DIST = spacer
    return previous


def pooltool_default_params(params: PhysicsParams) -> PhysicsParams:
    """nineball parameters with pooltool 0.6.0's default models: its default resolver's Stronge
    compliant cushions (its omega_ratio; jaw contacts towards the jaw circle's centre, as pooltool's) and
    its ball–ball friction bound µ·e_b·v_n."""
    from pooltool.physics.resolve.resolver import default_resolver

    resolver = default_resolver()
    for part in ("ball_linear_cushion", "ball_circular_cushion"):
        if type(getattr(resolver, part)).__name__ not in ("StrongeCompliantLinear", "StrongeCompliantCircular"):
            raise RuntimeError(f"pooltool's default {part} is {getattr(resolver, part)!r}, not Stronge's model")
    if type(resolver.ball_ball).__name__ != "FrictionalInelastic":
        raise RuntimeError(f"pooltool's default ball_ball is {resolver.ball_ball!r}, not FrictionalInelastic")
    return replace(params, cushion_model="stronge", omega_ratio=float(resolver.ball_linear_cushion.omega_ratio),
                   throw_limit="pooltool", jaw_normal="pooltool")


def pooltool_tip_offset(shot: Shot) -> tuple[float, float]:
    """pooltool's (a, b) for nineball's ``shot``.

    nineball's a and b locate the contact point on the ball in the table frame (b is its
    height above the centre); pooltool measures them in the plane perpendicular to the cue,
    which is tilted by theta. Rotating the contact point back by theta:
    b_pt = cos(theta)·b − sin(theta)·sqrt(1 − a² − b²). pooltool's a is mirrored (A_SIGN).
    Identical for theta = 0.
    """
    t = math.radians(shot.theta)
    depth = math.sqrt(max(1.0 - shot.a * shot.a - shot.b * shot.b, 0.0))
    return A_SIGN * shot.a, math.cos(t) * shot.b - math.sin(t) * depth


def ball_key(ball: int) -> str:
    """pooltool ball id of nineball ball ``ball``."""
    return CUE_ID if ball == 0 else str(ball)


def ball_number(key: str) -> int:
    """nineball ball number of pooltool ball id ``key``."""
    return 0 if key == CUE_ID else int(key)


def _rel_diff(ours: Sequence[float], theirs: np.ndarray) -> float:
    """Largest component difference relative to the largest component of ``theirs``."""
    theirs = np.asarray(theirs, dtype=np.float64)
    return float(np.max(np.abs(np.asarray(ours, dtype=np.float64) - theirs)) / max(float(np.max(np.abs(theirs))), 1e-12))


def impact_check(event: Any, params: PhysicsParams) -> tuple[str, float] | None:
    """Re-resolve one pooltool impact with nineball's kernels: (event kind, relative difference).

    The input is pooltool's own pre-impact velocities and spins at the positions it resolved them at
    (after ``make_kiss`` moved the balls 1 µm apart); for Stronge's model the contact direction is the
    one pooltool takes there, from the centre to the nose line (or the jaw circle's centre) at the
    cushion height, which the 1 µm gap tilts by ~1e-5 rad against nineball's contact at touching. A
    difference near 1e-15 says both run the same model with the same parameters, so any disagreement
    in outcome comes from the inputs (the nudge) and the dynamics, not the models.
    """
    from physics.kernels.cushion_models import stronge_cushion
    from physics.kernels.resolve import ball_ball, ball_cushion, ball_jaw

    kind = PT_KIND_NAMES.get(str(event.event_type))
    if kind not in ("BALL_BALL", "BALL_CUSHION", "BALL_JAW"):
        return None
    p = params.to_array()
    balls = [agent for agent in event.agents if agent.agent_type.value == "ball"]
    if kind == "BALL_BALL":
        (a0, a1), (b0, b1) = ((g.initial.state.rvw, g.final.state.rvw) for g in balls)
        ours = ball_ball(a1[0][0], a1[0][1], a0[1][0], a0[1][1], *a0[2], b1[0][0], b1[0][1], b0[1][0], b0[1][1],
                         *b0[2], params.e_b, p)
        return kind, _rel_diff(ours[:10], np.r_[a1[1][:2], a1[2], b1[1][:2], b1[2]])
    rail = next(agent for agent in event.agents if agent.agent_type.value != "ball").initial
    r0, r1 = balls[0].initial.state.rvw, balls[0].final.state.rvw
    xy = r1[0][:2]
    if kind == "BALL_CUSHION":
        p1, p2 = np.asarray(rail.p1, dtype=np.float64), np.asarray(rail.p2, dtype=np.float64)
        ux, uy = (p2[:2] - p1[:2]) / math.hypot(*(p2[:2] - p1[:2]))
        n = np.array([-uy, ux])
        dist = float(np.dot(xy - p1[:2], n))
        n, dist, nose_z = (n, dist, p1[2]) if dist > 0 else (-n, -dist, p1[2])
    else:
        centre = np.asarray(rail.center, dtype=np.float64)
        n = xy - centre[:2]
        dist = math.hypot(*n)
        n, nose_z = n / dist, centre[2]
    if params.cushion_model == "stronge":
        rise = nose_z - r1[0][2]
        ours = stronge_cushion(r0[1][0], r0[1][1], *r0[2], n[0], n[1], rise / math.hypot(dist, rise), p)
    elif kind == "BALL_CUSHION":
        ours = ball_cushion(r0[1][0], r0[1][1], *r0[2], n[0], n[1], p)
    else:
        ours = ball_jaw(r0[1][0], r0[1][1], *r0[2], n[0], n[1], float(rail.radius), p)
    return kind, _rel_diff(ours, np.r_[r1[1][:2], r1[2]])


class PooltoolRunner:
    """Runs shots through ``pooltool.simulate`` with nineball's table, parameters and models."""

    def __init__(self, pt: ModuleType, table: Table, params: PhysicsParams, match_throw: bool = False,
                 defaults: bool = False, check_params: PhysicsParams | None = None) -> None:
        from pooltool.objects.ball.params import BallParams
        from pooltool.objects.cue.datatypes import CueSpecs

        self.pt = pt
        self.table = pooltool_table(pt, table.spec, params)
        self.engine = pooltool_engine(params, match_throw, defaults)
        self.ball_params = BallParams(
            m=params.m, R=params.R, u_s=params.u_s, u_r=params.u_r, u_sp_proportionality=params.u_sp_factor,
            e_b=params.e_b, e_c=params.e_c, f_c=params.f_c, g=params.g,
        )
        end_mass = params.cue_end_mass if params.cue_end_mass > 0 else CueSpecs().end_mass
        self.cue_specs = CueSpecs(M=params.cue_mass, end_mass=end_mass)
        self.pocket_index = self._map_pockets(table)
        self.check_params = check_params  # nineball's parameters for ``impact_check`` (None: no check)

    def _map_pockets(self, table: Table) -> dict[str, int]:
        """pooltool pocket id -> nineball pocket index, by nearest capture-circle centre."""
        mapping = {}
        for key, pocket in self.table.pockets.items():
            d = np.hypot(table.pockets[:, 0] - pocket.a, table.pockets[:, 1] - pocket.b)
            mapping[key] = int(np.argmin(d))
        if sorted(mapping.values()) != list(range(len(POCKET_NAMES))):
            raise RuntimeError(f"pooltool pockets do not map one-to-one onto nineball's: {mapping}")
        return mapping

    def prepare(self, case: ShotCase) -> Any:
        """A fresh, unsimulated pooltool System for ``case``."""
        pt = self.pt
        balls = {}
        for ball, xy in case.positions.items():
            b = pt.Ball(id=ball_key(ball), params=self.ball_params)
            b.state.rvw[0] = [xy[0], xy[1], self.ball_params.R]
            balls[b.id] = b
        s = case.shot
        a, b = pooltool_tip_offset(s)
        cue = pt.Cue(cue_ball_id=CUE_ID, V0=s.V0, phi=s.phi, theta=s.theta, a=a, b=b, specs=self.cue_specs)
        return pt.System(cue=cue, table=self.table.copy(), balls=balls)

    def run(self, system: Any, case: ShotCase) -> Any:
        """Simulate ``system`` in place (prepare a new one per run)."""
        return self.pt.simulate(system, engine=self.engine, inplace=True, max_events=MAX_EVENTS)

    def outcome(self, system: Any) -> Outcome:
        """Read first contact, pockets, final positions and event counts from a simulated System.

        pooltool 0.6.0 can report a ball–ball collision between balls far apart: when two
        rolling balls move in the same direction their collision quartic degenerates (the
        t⁴ and t³ coefficients vanish) and its solver returns t = 0; the resolver then snaps
        the balls into contact (``make_kiss`` fallback). Such events are counted in
        ``gap_violations`` (measured on the pre-event positions).
        """
        first = None
        kinds: dict[str, int] = {}
        pocketed: dict[int, int] = {}
        sidespin = 0.0
        gaps = 0
        n = 0
        diffs: dict[str, float] = {}
        for ev in system.events:
            name = PT_KIND_NAMES.get(str(ev.event_type))
            if name is None:  # NONE markers at start and end
                continue
            n += 1
            kinds[name] = kinds.get(name, 0) + 1
            ids = ev.ids
            if name == "STICK_BALL":
                sidespin = float(ev.agents[1].final.state.rvw[2][2])
            elif name == "BALL_BALL":
                r1, r2 = (agent.initial.state.rvw[0] for agent in ev.agents)
                gaps += abs(math.hypot(r1[0] - r2[0], r1[1] - r2[1]) - 2 * self.ball_params.R) > GAP_TOL
                if first is None and CUE_ID in ids:
                    first = ball_number(ids[1] if ids[0] == CUE_ID else ids[0])
            elif name == "BALL_POCKET":
                pocketed[ball_number(ids[0])] = self.pocket_index[ids[1]]
            if self.check_params is not None and name in ("BALL_BALL", "BALL_CUSHION", "BALL_JAW"):
                diffs[name] = max(diffs.get(name, 0.0), impact_check(ev, self.check_params)[1])
        pos = {
            ball_number(k): (float(b.state.rvw[0][0]), float(b.state.rvw[0][1]))
            for k, b in system.balls.items()
            if b.state.s != 4  # pooltool's "pocketed" motion state
        }
        return Outcome(first, pocketed, pos, n, kinds, sidespin, int(gaps), diffs)


# --------------------------------------------------------------------------- timing


@dataclass
class ShotRecord:
    """Timings and outcomes of one shot in both simulators."""

    case: ShotCase
    pt_seconds: float
    pt: Outcome
    nb_seconds: float | None = None
    nb: Outcome | None = None
    han_seconds: float | None = None  # nineball with Han 2005 cushions (pooltool-defaults runs only)

    @property
    def ratio(self) -> float | None:
        return self.pt_seconds / self.nb_seconds if self.nb_seconds else None


def time_runs(runner: Any, case: ShotCase, repeats: int) -> tuple[float, Any]:
    """Median wall time [s] of ``repeats`` runs of ``case`` (setup outside the timer), and the last result."""
    times = []
    result = None
    for _ in range(repeats):
        prepared = runner.prepare(case)
        t0 = time.perf_counter()
        result = runner.run(prepared, case)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def run_case(case: ShotCase, pt_runner: PooltoolRunner, nb_runner: NineballRunner | None, repeats: int,
             han_runner: NineballRunner | None = None) -> ShotRecord:
    """Time one shot in both simulators (interleaved, so both see the same machine state); with
    ``han_runner`` also nineball with Han 2005 cushions, for the cost of the cushion model: after an
    untimed run of each, the two nineball variants alternate run by run, so neither gets the caches warm
    from the other's runs or cold from pooltool's."""
    pt_t, pt_res = time_runs(pt_runner, case, repeats)
    record = ShotRecord(case, pt_t, pt_runner.outcome(pt_res))
    if nb_runner is None:
        return record
    if han_runner is None:
        nb_t, nb_res = time_runs(nb_runner, case, repeats)
        record.nb_seconds, record.nb = nb_t, nb_runner.outcome(nb_res)
        return record
    nb_times, han_times = [], []
    for runner in (nb_runner, han_runner):
        runner.run(runner.prepare(case), case)
    for k in range(repeats):
        order = ((nb_runner, nb_times), (han_runner, han_times))
        for runner, times in order if k % 2 == 0 else order[::-1]:
            t, result = time_runs(runner, case, 1)
            times.append(t)
            if runner is nb_runner:
                nb_res = result
    record.nb_seconds, record.nb = statistics.median(nb_times), nb_runner.outcome(nb_res)
    record.han_seconds = statistics.median(han_times)
    return record


def warm_up(cases: Sequence[ShotCase], runners: Iterable[Any]) -> None:
    """Run each case once in each simulator so numba compilation stays out of the timings."""
    for runner in runners:
        for case in cases:
            runner.run(runner.prepare(case), case)


def progress(items: Sequence[ShotCase], enabled: bool) -> Iterable[ShotCase]:
    """tqdm over ``items`` when installed and enabled, else the items themselves."""
    if not enabled:
        return items
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(items, desc="shots", unit="shot", file=sys.stderr)


# --------------------------------------------------------------------------- report


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def _mean(values: Sequence[float]) -> float | None:
    return float(statistics.fmean(values)) if values else None


def _round(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def group_summary(records: Sequence[ShotRecord]) -> dict[str, Any]:
    """Timing and event counts over one group of shots."""
    out: dict[str, Any] = {
        "n": len(records),
        "pooltool_ms_median": _round(_median([1e3 * r.pt_seconds for r in records])),
        "pooltool_events_mean": _round(_mean([r.pt.n_events for r in records]), 2),
    }
    if records and records[0].nb is not None:
        ratios = [r.ratio for r in records if r.ratio is not None]
        out.update({
            "nineball_ms_median": _round(_median([1e3 * r.nb_seconds for r in records if r.nb_seconds]), 4),
            "nineball_events_mean": _round(_mean([r.nb.n_events for r in records if r.nb]), 2),
            "ratio_median": _round(_median(ratios), 1),
            "ratio_min": _round(min(ratios), 1) if ratios else None,
            "ratio_max": _round(max(ratios), 1) if ratios else None,
        })
    han = [r for r in records if r.han_seconds and r.nb_seconds]
    if han:
        out.update({
            "nineball_han2005_ms_median": _round(_median([1e3 * r.han_seconds for r in han]), 4),
            "cushion_model_cost_median": _round(_median([r.nb_seconds / r.han_seconds for r in han]), 3),
            "cushion_model_cost_of_medians": _round(_median([r.nb_seconds for r in han])
                                                    / _median([r.han_seconds for r in han]), 3),
        })
    return out


def named_report(records: Sequence[ShotRecord], pos_tol_mm: float) -> dict[str, Any]:
    """Per named shot: cue parameters, timings, event counts and outcome agreement."""
    report = {}
    for r in records:
        s = r.case.shot
        entry: dict[str, Any] = {
            "shot": {"V0": round(s.V0, 4), "phi": round(s.phi, 4), "theta": s.theta, "a": s.a, "b": s.b},
            "pooltool_ms": _round(1e3 * r.pt_seconds),
            "events": {"pooltool": r.pt.n_events},
        }
        if r.nb is not None:
            entry["nineball_ms"] = _round(1e3 * r.nb_seconds, 4)
            entry["ratio"] = _round(r.ratio, 1)
            entry["events"]["nineball"] = r.nb.n_events
            entry["event_kinds"] = {"nineball": r.nb.kinds, "pooltool": r.pt.kinds}
            entry["gap_violations"] = {"nineball": r.nb.gap_violations, "pooltool": r.pt.gap_violations}
            entry.update(compare_outcomes(r.nb, r.pt, pos_tol_mm))
        else:
            entry["pooltool_first_contact"] = r.pt.first_contact
            entry["pooltool_pocketed"] = {str(b): POCKET_NAMES[p] for b, p in sorted(r.pt.pocketed.items())}
            entry["event_kinds"] = {"pooltool": r.pt.kinds}
        report[r.case.name] = entry
    return report


def agreement_rates(comps: Sequence[dict[str, Any]], pos_tol_mm: float) -> dict[str, Any]:
    """Fractions of compared shots that agree, overall and per criterion."""
    n = len(comps)
    if n == 0:
        return {"n": 0}
    rate = lambda pred: round(sum(1 for c in comps if pred(c)) / n, 4)  # noqa: E731
    return {
        "n": n,
        "agreement_rate": rate(lambda c: c["agree"]),
        "first_contact_agreement": rate(lambda c: c["first_contact"]["agree"]),
        "pocketed_agreement": rate(lambda c: c["pocketed"]["agree"]),
        "final_pos_within_tol_rate": rate(lambda c: c["max_final_pos_diff_mm"] <= pos_tol_mm),
        "final_pos_diff_mm_median": _round(_median([c["max_final_pos_diff_mm"] for c in comps]), 3),
    }


def random_report(records: Sequence[ShotRecord], pos_tol_mm: float, max_listed: int = 10) -> dict[str, Any]:
    """Agreement over the random shots: all of them, those where neither simulator had a ball–ball gap violation,
    and those where no ball left the cloth (the shots both simulators can simulate: ``Outcome.in_the_air``); the
    first few disagreements are listed."""
    if not records or records[0].nb is None:
        return {}
    comps = [compare_outcomes(r.nb, r.pt, pos_tol_mm) for r in records]
    clean = [c for r, c in zip(records, comps) if r.nb.gap_violations == 0 and r.pt.gap_violations == 0]
    flat = [c for r, c in zip(records, comps) if not (r.nb.in_the_air or r.pt.in_the_air)]
    listed = [
        {"name": r.case.name, **{k: c[k] for k in ("first_contact", "pocketed", "max_final_pos_diff_mm")},
         "gap_violations": {"nineball": r.nb.gap_violations, "pooltool": r.pt.gap_violations},
         "in_the_air": r.nb.in_the_air or r.pt.in_the_air}
        for r, c in zip(records, comps) if not c["agree"]
    ]
    return {
        **agreement_rates(comps, pos_tol_mm),
        "without_gap_violations": agreement_rates(clean, pos_tol_mm),
        "on_the_cloth": {**agreement_rates(flat, pos_tol_mm), "n_disagreements": sum(not c["agree"] for c in flat)},
        "shots_in_the_air": len(comps) - len(flat),
        "shots_with_gap_violations": {
            "nineball": sum(1 for r in records if r.nb.gap_violations),
            "pooltool": sum(1 for r in records if r.pt.gap_violations),
        },
        "n_disagreements": len(listed),
        "disagreements": listed[:max_listed],
    }


def convention_check(records: Sequence[ShotRecord]) -> dict[str, Any]:
    """Sidespin sign right after the strike in both simulators, for the random shots with |a| > 0.05."""
    pairs = [(r.nb.sidespin, r.pt.sidespin) for r in records
             if r.nb is not None and r.case.group == "random" and abs(r.case.shot.a) > 0.05]
    if not pairs:
        return {}
    same = sum(1 for nb, pt in pairs if (nb > 0) == (pt > 0))
    rel = [abs(nb - pt) / max(abs(nb), abs(pt), 1e-12) for nb, pt in pairs]
    return {
        "a_sign_applied_for_pooltool": A_SIGN,
        "sidespin_sign_agreement": round(same / len(pairs), 4),
        "sidespin_rel_diff_median": _round(_median(rel), 5),
    }


def impact_report(records: Sequence[ShotRecord]) -> dict[str, Any]:
    """Per impact kind over the compared (named and random) shots: impacts re-resolved by nineball's kernels
    from pooltool's inputs, and the largest relative difference to pooltool's result (``impact_check``)."""
    out: dict[str, Any] = {}
    for r in records:
        if r.case.group == "break" or r.nb is None:
            continue
        for kind, diff in r.pt.impact_diffs.items():
            entry = out.setdefault(kind, {"shots": 0, "max_rel_diff": 0.0})
            entry["shots"] += 1
            entry["max_rel_diff"] = max(entry["max_rel_diff"], diff)
    return {k: {"shots": v["shots"], "max_rel_diff": float(f"{v['max_rel_diff']:.3g}")} for k, v in sorted(out.items())}


def break_entry(r: ShotRecord) -> dict[str, Any]:
    """Pocketed balls and event counts of one break (break outcomes are chaotic: not compared)."""
    sims = {"pooltool": r.pt, **({"nineball": r.nb} if r.nb is not None else {})}
    return {
        "name": r.case.name,
        "pocketed": {k: sorted(o.pocketed) for k, o in sims.items()},
        "events": {k: o.n_events for k, o in sims.items()},
        "event_kinds": {k: o.kinds for k, o in sims.items()},
        "gap_violations": {k: o.gap_violations for k, o in sims.items()},
    }


def build_report(records: Sequence[ShotRecord], args: argparse.Namespace, nineball_note: str | None,
                 nineball_models: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON document."""
    groups = {g: [r for r in records if r.case.group == g] for g in ("named", "random", "break")}
    ordinary = groups["named"] + groups["random"]
    report: dict[str, Any] = {
        "benchmark": "compare_pooltool",
        "pooltool_version": importlib.metadata.version("pooltool-billiards"),
        "config": {"shots": args.shots, "repeats": args.repeats, "seed": args.seed, "breaks": args.breaks,
                   "pos_tol_mm": args.pos_tol_mm, "throw": args.throw, "models": args.models,
                   "pooltool_spacer_m": args.pooltool_spacer if args.pooltool_spacer is not None else POOLTOOL_MIN_DIST,
                   "table": "nine_foot", "nineball_models": nineball_models},
        "timing": {"ordinary": group_summary(ordinary), "breaks": group_summary(groups["break"])},
        "named": named_report(groups["named"], args.pos_tol_mm),
        "random": random_report(groups["random"], args.pos_tol_mm),
        "breaks": [break_entry(r) for r in groups["break"]],
    }
    if nineball_note:
        report["nineball"] = nineball_note
    else:
        ratio = report["timing"]["ordinary"].get("ratio_median")
        report["target"] = {"ordinary_ratio_min": TARGET_RATIO, "met": ratio is not None and ratio >= TARGET_RATIO}
        cost = report["timing"]["ordinary"].get("cushion_model_cost_of_medians")
        if cost is not None:
            report["target"]["cushion_model_cost_max"] = TARGET_CUSHION_COST
            report["target"]["cushion_model_cost_met"] = cost <= TARGET_CUSHION_COST
        named = report["named"].values()
        report["named_agreement"] = {"agree": sum(1 for e in named if e.get("agree")), "n": len(named)}
        report["conventions"] = convention_check(records)
        report["impact_check"] = impact_report(records)
    return report


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shots", type=int, default=50, help="random ordinary shots (default 50)")
    p.add_argument("--repeats", type=int, default=5, help="timed runs per shot and simulator; the median is kept")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--breaks", type=int, default=3, help="break shots (default 3)")
    p.add_argument("--pos-tol-mm", type=float, default=10.0, help="final-position tolerance for agreement")
    p.add_argument("--json", type=Path, default=None, help="also write the JSON report here")
    p.add_argument("--throw", choices=("matched", "pooltool"), default="matched",
                   help="ball-ball friction impulse: 'matched' scales pooltool's friction curve so it applies "
                        "mu*J_n like nineball (default); 'pooltool' keeps pooltool's mu*e_b*v_n")
    p.add_argument("--models", choices=("matched-han", "pooltool-defaults"), default="matched-han",
                   help="'matched-han': both simulators with Han 2005 cushions and Alciatore friction (default); "
                        "'pooltool-defaults': pooltool's default resolver (Stronge compliant cushions) against "
                        "nineball's stronge model with pooltool's friction bound, plus nineball's Han 2005 timing")
    p.add_argument("--pooltool-spacer", type=float, default=None, metavar="METRES",
                   help="diagnostic only: the gap pooltool leaves before resolving a collision (its "
                        f"make_kiss spacer, default {POOLTOOL_MIN_DIST:g} m); shrinking it (e.g. 1e-9) shows "
                        "which disagreements that 1 µm nudge causes. Not pooltool's defaults: never for the "
                        "headline figures")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.shots < 0 or args.repeats < 1 or args.breaks < 0:
        p.error("--shots and --breaks must be >= 0 and --repeats >= 1")
    if args.pooltool_spacer is not None and not 0.0 < args.pooltool_spacer <= 1e-3:
        p.error(f"--pooltool-spacer: expected a gap in (0, 1e-3] m, got {args.pooltool_spacer!r}")
    return args


def emit(report: dict[str, Any], path: Path | None) -> None:
    """Print the report as JSON, and write it to ``path`` when given."""
    text = json.dumps(report, indent=2)
    print(text)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")


def matched_params() -> PhysicsParams:
    """nineball's defaults with the models pooltool's matched resolver runs (Han 2005, Alciatore, Coulomb)."""
    return replace(PhysicsParams(), cushion_model="han2005", ball_ball_model="alciatore", throw_limit="coulomb")


def nineball_setup(args: argparse.Namespace) -> tuple[PhysicsParams, str | None, dict[str, Any]]:
    """nineball's parameters for ``args.models``, the note when physics.simulate is missing, and the
    model fields reported."""
    params = pooltool_default_params(matched_params()) if args.models == "pooltool-defaults" else matched_params()
    note = None if callable(getattr(physics, "simulate", None)) else "physics.simulate not available: pooltool side only"
    models = {k: getattr(params, k) for k in ("cushion_model", "omega_ratio", "ball_ball_model", "throw_limit",
                                              "jaw_normal")}
    return params, note, models


def run_all(pt: ModuleType, args: argparse.Namespace) -> list[ShotRecord]:
    """Build the runners and run every shot (named, random, breaks) in both simulators."""
    table = Table.nine_foot()
    defaults = args.models == "pooltool-defaults"
    params, note, _ = nineball_setup(args)
    # --throw pooltool keeps pooltool's friction bound, which nineball's matched-Han parameters do not apply
    check = params if defaults or args.throw == "matched" else None
    pt_runner = PooltoolRunner(pt, table, matched_params(), match_throw=args.throw == "matched", defaults=defaults,
                               check_params=check)
    nb_runner, han_runner = None, None
    if note is None:
        nb_runner = NineballRunner(table, params)
        if defaults:
            han_runner = NineballRunner(table, replace(params, cushion_model="han2005"))
    else:
        print(note, file=sys.stderr)
    rng = np.random.default_rng(args.seed)
    cases = named_shots(table, params) + random_shots(rng, args.shots, table, params)
    cases += break_shots(rng, args.breaks, table, params)
    runners = [pt_runner] + [r for r in (nb_runner, han_runner) if r is not None]
    warm_up([c for c in cases if c.group == "named"] + [c for c in cases if c.group == "break"][:1], runners)
    return [run_case(c, pt_runner, nb_runner, args.repeats, han_runner) for c in progress(cases, not args.no_progress)]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    pt = import_pooltool()
    if pt is None:
        print(INSTALL_HINT, file=sys.stderr)
        emit(SKIPPED, args.json)
        return 0
    previous_spacer = set_pooltool_spacer(args.pooltool_spacer) if args.pooltool_spacer is not None else None
    try:
        emit(build_report(run_all(pt, args), args, *nineball_setup(args)[1:]), args.json)
    finally:
        if previous_spacer is not None:
            set_pooltool_spacer(previous_spacer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
