"""The physics audit (physics.audit, physics/kernels/audit.py): it flags each kind of problem in a log changed by
hand, and passes the simulator's own logs."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

import physics
from physics.audit import audit
from physics.kernels.audit import N_AUDIT, audit_air_shot
from physics.kernels.codes import LOG_STATE_A, LOG_TIME, S_VX

sys.path.insert(0, str(Path(__file__).parent / "data"))
from rail_reproducers import BASE_LOGS, NO_ENDS, OVER_THE_CLOTH  # noqa: E402

TABLE, P = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS


def _audit(result: physics.SimResult, final: np.ndarray | None = None, rows: np.ndarray | None = None) -> dict:
    return audit(result, 16, rows=rows, final=final)


def _air_audit(result: physics.SimResult, air: np.ndarray | None = None, rows: np.ndarray | None = None,
               samples: int = 64) -> dict:
    return audit(result, samples, rows=rows, air=air)


def _logged(init: np.ndarray, rows: np.ndarray, air: np.ndarray, final: np.ndarray) -> physics.SimResult:
    """A result made of a recorded log (its rows, heights, starting and final packed states)."""
    return physics.SimResult(init, physics.BallState.from_packed(final), physics.EventLog(rows, air), False, False)


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
    assert _air_audit(r, rows=rows)["outside_sampled"] == 1


def _without_row(r: physics.SimResult, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The shot's log and air log with event k taken out: the ball flies on through that contact as if it missed it."""
    keep = np.arange(len(r.events)) != k
    return r.events.rows[keep], r.events.air[keep]


def test_airborne_audit_flags_a_ball_through_a_cushion_nose() -> None:
    """Soak seed 10, shot 99686: a jump falls onto the nose of the head-left corner's facing and is clean; its log with
    that nose contact taken out (the bug that let it through unseen) has the ball in the nose's rubber, and only
    inside_nose names it (no jaw is near)."""
    balls = {0: (0.16222266321570808, 0.38884600668381625), 1: (0.29286029700238536, 0.12643201820058772),
             2: (0.7138617617751416, 1.8411028086225765), 3: (0.028575000001198347, 1.146931985697688),
             4: (0.31305109331025427, 2.511401268060668), 5: (1.120426018348963, 1.8744439908076485)}
    r = physics.simulate(physics.place_balls(balls), physics.Shot(8.599360751798171, 10.610087262130406,
                                                                  88.6651878856041, 0.5927513906866944,
                                                                  0.5983555876601244))
    assert not any(_air_audit(r, samples=4000).values())
    ev = r.events
    k = int(np.flatnonzero((ev.kind == physics.EventKind.BALL_CUSHION) & (ev.target == 10))[0])
    rows, air = _without_row(r, k)
    bad = _air_audit(r, air=air, rows=rows, samples=4000)
    assert bad["inside_nose"] == 1 and bad["inside_jaw"] == 0


def test_airborne_audit_flags_a_ball_through_a_jaw() -> None:
    """Soak run_airborne(3000, 0) shot 1189: the cue ball meets jaw 5's rounded top edge and is clean; its log with
    that contact taken out has the ball through the jaw's top, and inside_jaw names it."""
    balls = {0: (0.3722409366491092, 2.181158979842704), 1: (1.229025758562195, 2.5254298883413853),
             2: (0.1881834245924212, 2.1257548092756307), 3: (1.2589062981040986, 1.30286997262975),
             4: (0.02857500000175549, 1.3921356398924556), 5: (0.14482486023926563, 2.0695022160878747),
             6: (0.30808616413710516, 0.62876848778793), 7: (0.42799853442383196, 2.193697432314689),
             8: (0.8495593963417746, 1.6259893071658729)}
    r = physics.simulate(physics.place_balls(balls), physics.Shot(7.3295931013963, -152.19481968238634,
                                                                  19.144179461137465, -0.4001129959867478,
                                                                  -0.04438070243296598))
    assert not any(_air_audit(r, samples=4000).values())
    ev = r.events
    k = int(np.flatnonzero((ev.kind == physics.EventKind.BALL_JAW) & (ev.target == 5) & (ev.ball_a == 0))[0])
    assert ev.state_a[k, 7] == physics.Motion.AIRBORNE
    rows, air = _without_row(r, k)
    assert _air_audit(r, air=air, rows=rows, samples=4000)["inside_jaw"] == 1


def test_the_airborne_audit_refuses_a_short_counter_array() -> None:
    r = physics.simulate(physics.place_balls({0: (0.6, 0.5)}), physics.Shot(V0=4.5, phi=90.0, theta=45.0, b=0.707))
    ev = r.events
    with pytest.raises(ValueError, match="N_AIR_AUDIT"):
        audit_air_shot(r.initial.packed(), ev.rows, ev.air, len(ev), r.state.packed(), np.linspace(0, 1, 4),
                       P.to_array(), TABLE.width, TABLE.length, TABLE.segments, TABLE.jaws, TABLE.pockets, TABLE.rail,
                       np.zeros(N_AUDIT, dtype=np.int64))


def test_the_airborne_audit_flags_balls_taken_off_over_the_cloth_or_beyond_the_rail_at_921a595() -> None:
    """Issue 29: the logs 921a595 gave the issue's shots (recorded there) are flagged, the first three as a ball taken
    off over the cloth and the last two as one taken off beyond the rail's outline (flying along the rail with no
    ends); the same shots today are clean."""
    base = np.load(BASE_LOGS)
    for k, (cue, shot, *_) in enumerate(OVER_THE_CLOTH + NO_ENDS):
        flagged = audit(_logged(base[f"init_{k}"], base[f"rows_{k}"], base[f"air_{k}"], base[f"final_{k}"]), 400)
        expected = "off_table_over_cloth" if k < len(OVER_THE_CLOTH) else "off_table_beyond_rail"
        assert {name for name, v in flagged.items() if v} == {expected}, (k, flagged)
        r = physics.simulate(physics.place_balls({0: cue}), physics.Shot(*shot))
        assert not any(audit(r, 400).values()), k


def test_the_airborne_audit_flags_a_ball_over_the_rail_below_its_top_or_beyond_its_edge() -> None:
    """A ball that clears a cushion high and leaves at the rail's outer edge is clean; audited against a rail 1 m
    high, its flight over the rail is inside the rail (outside_sampled); its log with the ball taken off 0.1 s later
    (it flew on past the outer edge while still on the table) is flagged off_table_beyond_rail."""
    cue, shot, _ = NO_ENDS[1]
    r = physics.simulate(physics.place_balls({0: cue}), physics.Shot(*shot))
    ev = r.events
    assert not any(audit(r, 400).values())
    tall = physics.Table.from_spec(physics.TableSpec(rail_height=1.0))  # the ball flies at most 0.9 m high over it
    flagged = audit(r, 400, tall)
    assert {name for name, v in flagged.items() if v} == {"outside_sampled"}
    off = int(np.flatnonzero(ev.kind == physics.EventKind.BALL_OFF_TABLE)[0])
    far = ev.rows.copy()
    far[off, LOG_TIME] += 0.1
    far[off, LOG_STATE_A:LOG_STATE_A + 2] += 0.1 * ev.state_a[off - 1, S_VX:S_VX + 2]
    assert audit(r, 400, rows=far)["off_table_beyond_rail"] == 1
