"""benchmarks/soak.py: its audit catches each kind of problem, and a short soak over the full Shot range is clean."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import physics
from benchmarks import soak

TABLE, P = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS


def _audit(result: physics.SimResult, final: np.ndarray | None = None, rows: np.ndarray | None = None) -> dict:
    audit = np.zeros(soak.N_AUDIT, dtype=np.int64)
    rows = result.events.rows if rows is None else rows
    soak.audit_shot(result.initial.packed(), rows, len(rows), result.state.packed() if final is None else final,
                    False, np.linspace(0.0, result.duration, 16), P.to_array(), TABLE.width, TABLE.length,
                    TABLE.segments, TABLE.jaws, TABLE.pockets, audit)
    return {name: int(audit[k]) for k, name in enumerate(soak.AUDIT_NAMES)}


def test_audit_flags_each_kind_of_problem() -> None:
    state = physics.place_balls({0: (0.6, 0.6), 1: (0.6, 1.6), 2: (1.0, 2.0)})
    result = physics.simulate(state, physics.Shot(4.0, 90.0, 0.0, 0.0, 0.3))
    assert not any(_audit(result).values())
    final = result.state.packed()
    final[0, 0:2] = (3.83, 1.13)  # the escaped cue ball
    assert _audit(result, final=final)["outside_at_rest"] == 1
    final = result.state.packed()
    final[2, 0:2] = final[1, 0:2] + (2 * P.R - 1e-5, 0.0)
    assert _audit(result, final=final)["overlap_at_rest"] == 1
    final = result.state.packed()
    final[1, 2] = np.nan
    assert _audit(result, final=final)["nan"] == 1
    rows = result.events.rows.copy()
    rows[1, 7] = 5.3  # the cue ball keeps its speed after giving the 1 ball nearly all of it
    assert _audit(result, rows=rows)["energy_rises"] == 1
    rows = result.events.rows.copy()
    rows[1, 5] = -0.5  # logged outside the cushions
    assert _audit(result, rows=rows)["outside_sampled"] == 1
    final = result.state.packed()
    final[2, 7] = float(physics.Motion.SLIDING)
    assert _audit(result, final=final)["not_at_rest_uncapped"] == 1


def test_short_soak_over_the_full_shot_range_is_clean(capsys) -> None:
    report = soak.main(["--shots", "3000", "--seed", "11", "--chunk", "1000"])
    assert json.loads(capsys.readouterr().out)["shots"] == 3000
    assert {name: report[name] for name in soak.AUDIT_NAMES} == dict.fromkeys(soak.AUDIT_NAMES, 0)
    assert report["event_caps"] == 0 and report["time_caps"] == 0 and report["unresolved"] == 0
    assert report["events_max"] > 50  # the layouts and shots do reach the hard cases


@pytest.mark.slow
def test_soak_of_200_000_shots_is_clean() -> None:
    report = soak.run(200_000, seed=12)
    assert {name: report[name] for name in soak.AUDIT_NAMES} == dict.fromkeys(soak.AUDIT_NAMES, 0)
    assert report["event_caps"] <= 2 and report["unresolved"] == 0


def _air_audit(result: physics.SimResult, air: np.ndarray | None = None) -> dict:
    audit = np.zeros(soak.N_AUDIT, dtype=np.int64)
    ev = result.events
    soak.audit_air_shot(result.initial.packed(), ev.rows, ev.air if air is None else air, len(ev), result.state.packed(),
                        np.linspace(0.0, result.duration, 64), P.to_array(), TABLE.width, TABLE.length, TABLE.segments,
                        TABLE.jaws, TABLE.pockets, TABLE.rail, audit)
    return {name: int(audit[k]) for k, name in enumerate(soak.AUDIT_NAMES)}


def test_airborne_audit_flags_overlap_in_3d_and_energy_from_height() -> None:
    """A jump over a ball is clean in 3-D; the same log with the cue ball's heights zeroed overlaps the ball it
    passed over, and a landing logged higher than it was gains energy m·g·h."""
    state = physics.place_balls({0: (0.6, 0.5), 1: (0.6, 0.8), 2: (0.6, 1.3)})
    jump = physics.simulate(state, physics.Shot(V0=4.5, phi=90.0, theta=45.0, b=0.707))
    assert jump.events.air is not None and not any(_air_audit(jump).values())
    flat_air = jump.events.air.copy()
    flat_air[:, :] = 0.0
    flat_air[:, 1] = jump.events.air[:, 1]  # the vertical speeds kept, the heights lost: it flies through ball 1
    assert _air_audit(jump, flat_air)["overlap_sampled"] == 1
    higher = jump.events.air.copy()
    land = int(np.flatnonzero(jump.events.kind == physics.EventKind.BALL_LANDING)[0])
    higher[land, 0] = 0.2  # landed 20 cm up
    assert _air_audit(jump, higher)["energy_rises"] == 1


def test_airborne_audit_flags_a_ball_in_a_pocket_liner() -> None:
    """A low hop into the corner pocket meets its liner and is clean; the same log with the contact moved 5 mm
    farther back (into the liner's wall) is flagged."""
    c, rl, axis = TABLE.liners[0, 0:2], TABLE.liners[0, 2], TABLE.liners[0, 3:5]
    start = c - 0.4 * axis
    shot = physics.Shot(V0=5.0, phi=math.degrees(math.atan2(axis[1], axis[0])), theta=10.0, b=math.sin(math.radians(10)))
    r = physics.simulate(physics.place_balls({0: tuple(start)}), shot)
    assert not any(_air_audit(r).values())
    ev = r.events
    k = int(np.flatnonzero(ev.kind == physics.EventKind.BALL_JAW)[0])
    assert math.hypot(*(ev.state_a[k, :2] - c)) == pytest.approx(rl - P.R, abs=1e-9)
    rows = ev.rows.copy()
    rows[k, 5:7] += 0.005 * axis
    audit = np.zeros(soak.N_AUDIT, dtype=np.int64)
    soak.audit_air_shot(r.initial.packed(), rows, ev.air, len(ev), r.state.packed(), np.linspace(0.0, r.duration, 64),
                        P.to_array(), TABLE.width, TABLE.length, TABLE.segments, TABLE.jaws, TABLE.pockets, TABLE.rail,
                        audit)
    assert audit[soak.AUDIT_NAMES.index("outside_sampled")] == 1


def test_a_short_airborne_soak_is_clean() -> None:
    report = soak.run_airborne(300, seed=0)
    assert report["with_a_ball_in_the_air"] > 100 and report["with_a_ball_off_the_table"] > 5
    assert not any(report[name] for name in soak.AUDIT_NAMES), report["examples"]
    assert report["unresolved"] == 0 and report["caps"] == 0
