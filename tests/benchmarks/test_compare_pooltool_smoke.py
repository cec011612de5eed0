"""Smoke tests of benchmarks/compare_pooltool.py.

The comparison itself needs pooltool, which CI does not install: those tests skip without
it. The "pooltool missing" path and the pooltool-free helpers run everywhere.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "compare_pooltool.py"
NO_POOLTOOL = ("needs pooltool, which no extra of nineball installs (nor CI): python benchmarks/compare_pooltool.py "
               "says how to install it")


@pytest.fixture(scope="module")
def cp() -> ModuleType:
    """The benchmark script, imported as a module."""
    spec = importlib.util.spec_from_file_location("compare_pooltool", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["compare_pooltool"] = module
    spec.loader.exec_module(module)
    return module


def test_skips_cleanly_without_pooltool(cp, monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "pooltool", None)  # makes `import pooltool` raise ImportError
    out = tmp_path / "report.json"
    assert cp.main(["--shots", "1", "--repeats", "1", "--json", str(out), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"skipped": "pooltool not importable"}
    assert json.loads(out.read_text()) == {"skipped": "pooltool not importable"}
    assert "pip install --no-deps pooltool-billiards==0.6.0" in captured.err


def test_shot_sets_are_seeded_and_legal(cp):
    import numpy as np
    from physics.params import PhysicsParams
    from physics.table import Table
    from physics.validate import validate_state

    table, params = Table.nine_foot(), PhysicsParams()
    a = cp.random_shots(np.random.default_rng(3), 12, table, params)
    b = cp.random_shots(np.random.default_rng(3), 12, table, params)
    assert [c.positions for c in a] == [c.positions for c in b]
    assert [c.shot for c in a] == [c.shot for c in b]
    cases = cp.named_shots(table, params) + a + cp.break_shots(np.random.default_rng(4), 2, table, params)
    assert {c.name for c in cases if c.group == "named"} == {
        "stun", "follow", "draw", "cut_corner", "cut_side", "one_rail_kick"}
    for case in cases:
        validate_state(cp.place_balls(case.positions), table, params)
        assert 0.5 <= case.shot.V0 <= 9.0
    assert all(1.0 <= c.shot.V0 <= 4.0 for c in a)


def test_ghost_ball_aim_points_at_the_contact_position(cp):
    R = 0.028575
    cue, obj, target = (0.2, 0.2), (0.6, 0.9), (0.0, 2.54)
    phi = math.radians(cp.ghost_ball_phi(cue, obj, target, R))
    # the aim line passes through the ghost ball, 2R behind the object ball on the target line
    ux, uy = target[0] - obj[0], target[1] - obj[1]
    n = math.hypot(ux, uy)
    ghost = (obj[0] - 2 * R * ux / n, obj[1] - 2 * R * uy / n)
    cross = math.cos(phi) * (ghost[1] - cue[1]) - math.sin(phi) * (ghost[0] - cue[0])
    assert abs(cross) < 1e-12


def test_tip_offset_conversion_to_pooltool(cp):
    from physics.shot import Shot

    assert cp.pooltool_tip_offset(Shot(V0=2.0, phi=0.0, a=0.2, b=-0.3)) == pytest.approx((-0.2, -0.3))
    shot = Shot(V0=2.0, phi=0.0, theta=25.0, a=0.1, b=0.4)
    a_pt, b_pt = cp.pooltool_tip_offset(shot)
    # pooltool turns its cue-frame offset into the contact point's height by rotating by theta
    t = math.radians(shot.theta)
    height = math.sin(t) * math.sqrt(1 - a_pt**2 - b_pt**2) + math.cos(t) * b_pt
    assert (-a_pt, height) == pytest.approx((shot.a, shot.b))


def test_compare_outcomes_flags_each_criterion(cp):
    base = cp.Outcome(1, {1: 4}, {0: (0.5, 0.5)}, 7)
    assert cp.compare_outcomes(base, base, 10.0)["agree"]
    moved = cp.Outcome(1, {1: 4}, {0: (0.5, 0.52)}, 7)
    c = cp.compare_outcomes(base, moved, 10.0)
    assert not c["agree"] and c["max_final_pos_diff_mm"] == pytest.approx(20.0)
    other_pocket = cp.Outcome(1, {1: 5}, {0: (0.5, 0.5)}, 7)
    assert not cp.compare_outcomes(base, other_pocket, 10.0)["pocketed"]["agree"]
    other_ball = cp.Outcome(2, {1: 4}, {0: (0.5, 0.5)}, 7)
    assert not cp.compare_outcomes(base, other_ball, 10.0)["first_contact"]["agree"]


def test_random_report_compares_on_the_cloth_only_shots_both_simulate(cp):
    """A shot where nineball flies a ball (pooltool 0.6.0 keeps balls on the cloth) is listed but kept out of the
    ``on_the_cloth`` agreement; a disagreement on the cloth counts there."""
    from physics.shot import Shot

    def record(name, nb_pos, air):
        case = cp.ShotCase(name, "random", {0: (0.5, 0.5)}, Shot(V0=2.0, phi=0.0))
        nb = cp.Outcome(1, {}, {0: nb_pos}, 5, {"BALL_AIRBORNE": 1} if air else {})
        return cp.ShotRecord(case, 1e-3, cp.Outcome(1, {}, {0: (0.5, 0.5)}, 5), 1e-5, nb)

    agree, flown, moved = record("a", (0.5, 0.5), False), record("b", (0.9, 0.5), True), record("c", (0.5, 0.6), False)
    report = cp.random_report([agree, flown], 10.0)
    assert report["shots_in_the_air"] == 1 and report["n_disagreements"] == 1
    assert report["disagreements"][0]["name"] == "b" and report["disagreements"][0]["in_the_air"]
    assert report["on_the_cloth"] == {**cp.agreement_rates([cp.compare_outcomes(agree.nb, agree.pt, 10.0)], 10.0),
                                      "n_disagreements": 0}
    report = cp.random_report([agree, flown, moved], 10.0)
    assert report["on_the_cloth"]["n"] == 2 and report["on_the_cloth"]["n_disagreements"] == 1
    assert not report["disagreements"][1]["in_the_air"]


def test_pooltool_table_matches_nineball_geometry(cp):
    pytest.importorskip("pooltool", reason=NO_POOLTOOL)
    import numpy as np
    import pooltool as pt
    from physics.params import PhysicsParams
    from physics.table import Table

    table, params = Table.nine_foot(), PhysicsParams()
    ptable = cp.pooltool_table(pt, table.spec, params)

    def off_line(p, seg):  # distance of point p from the line through nineball segment seg
        (x1, y1, x2, y2) = seg[:4]
        return abs((x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)) / math.hypot(x2 - x1, y2 - y1)

    for cushion in ptable.cushion_segments.linear.values():  # noses and facings on the same lines
        assert min(off_line(cushion.p1, s) + off_line(cushion.p2, s) for s in table.segments) < 1e-9
    for jaw in ptable.cushion_segments.circular.values():  # same jaw circles
        d = np.hypot(table.jaws[:, 0] - jaw.center[0], table.jaws[:, 1] - jaw.center[1])
        assert d.min() < 1e-9 and jaw.radius == pytest.approx(table.spec.jaw_radius)
    for pocket in ptable.pockets.values():  # same capture circles
        d = np.hypot(table.pockets[:, 0] - pocket.a, table.pockets[:, 1] - pocket.b)
        assert d.min() < 1e-9 and pocket.radius == pytest.approx(table.pockets[d.argmin(), 2])


def test_small_comparison_runs_and_agrees(cp, capsys, tmp_path):
    pytest.importorskip("pooltool", reason=NO_POOLTOOL)
    out = tmp_path / "report.json"
    args = ["--shots", "3", "--repeats", "1", "--breaks", "1", "--seed", "1", "--json", str(out), "--no-progress"]
    assert cp.main(args) == 0
    report = json.loads(out.read_text())
    assert json.loads(capsys.readouterr().out) == report
    assert report["timing"]["ordinary"]["n"] == 6 + 3
    assert report["timing"]["breaks"]["n"] == 1
    assert report["named_agreement"] == {"agree": 6, "n": 6}
    for entry in report["named"].values():
        assert entry["first_contact"]["agree"] and entry["pocketed"]["agree"]
    assert report["conventions"].get("sidespin_sign_agreement", 1.0) == 1.0


def test_pooltool_default_models_comparison_runs_and_agrees(cp, capsys, tmp_path):
    """--models pooltool-defaults: pooltool's default resolver against nineball's stronge cushions with
    pooltool's friction bound and jaw contact, plus the Han 2005 timing of the same shots."""
    pytest.importorskip("pooltool", reason=NO_POOLTOOL)
    out = tmp_path / "report.json"
    args = ["--models", "pooltool-defaults", "--shots", "2", "--repeats", "1", "--breaks", "0", "--seed", "1",
            "--json", str(out), "--no-progress"]
    assert cp.main(args) == 0
    capsys.readouterr()
    report = json.loads(out.read_text())
    assert report["config"]["models"] == "pooltool-defaults"
    assert report["config"]["nineball_models"] == {"cushion_model": "stronge", "omega_ratio": 1.8,
                                                   "ball_ball_model": "alciatore", "throw_limit": "pooltool",
                                                   "jaw_normal": "pooltool"}
    assert report["named_agreement"] == {"agree": 6, "n": 6}
    timing = report["timing"]["ordinary"]
    assert timing["nineball_han2005_ms_median"] > 0 and timing["cushion_model_cost_median"] > 0
    assert "cushion_model_cost_met" in report["target"]


def test_pooltool_spacer_is_validated(cp, capsys):
    """--pooltool-spacer must be a gap in (0, 1e-3] m: 0 or a negative gap would let pooltool re-detect the
    contact it just resolved."""
    for bad in ("0", "-1e-6", "0.01"):
        with pytest.raises(SystemExit):
            cp.parse_args(["--pooltool-spacer", bad])
        assert "--pooltool-spacer" in capsys.readouterr().err
    assert cp.parse_args(["--pooltool-spacer", "1e-9"]).pooltool_spacer == 1e-9


def test_impact_check_and_spacer_diagnostic(cp, capsys, tmp_path):
    """Regression for the seed-0 pooltool-defaults disagreements: every pooltool impact, re-resolved by
    nineball's kernels from pooltool's own input, agrees to rounding (the models and parameters are
    pooltool's), and with pooltool's 1 µm make_kiss spacer shrunk to 1 nm the random shots on the cloth that
    disagreed (random_000 among the first five) agree; the spacer is restored after the run. Only shots on the
    cloth are compared: random_004 jumps a ball in nineball, which pooltool 0.6.0 cannot (its balls stay on the
    cloth)."""
    pytest.importorskip("pooltool", reason=NO_POOLTOOL)
    import pooltool.constants as const

    before = const.MIN_DIST
    reports = {}
    for spacer in (None, 1e-9):
        out = tmp_path / f"report_{spacer}.json"
        args = ["--models", "pooltool-defaults", "--shots", "5", "--repeats", "1", "--breaks", "0", "--seed", "0",
                "--json", str(out), "--no-progress"] + ([] if spacer is None else ["--pooltool-spacer", str(spacer)])
        assert cp.main(args) == 0
        capsys.readouterr()
        assert const.MIN_DIST == before
        reports[spacer] = json.loads(out.read_text())
    for report in reports.values():
        check = report["impact_check"]
        assert set(check) == {"BALL_BALL", "BALL_CUSHION", "BALL_JAW"}
        assert all(entry["max_rel_diff"] < 1e-12 for entry in check.values()), check
    assert reports[None]["config"]["pooltool_spacer_m"] == 1e-6
    assert reports[1e-9]["config"]["pooltool_spacer_m"] == 1e-9
    listed = {d["name"]: d["in_the_air"] for d in reports[None]["random"]["disagreements"]}
    assert listed.get("random_000") is False  # disagrees on the cloth by pooltool's nudge alone
    assert listed.get("random_004") is True
    flat = reports[1e-9]["random"]["on_the_cloth"]
    assert flat["n"] == 5 - reports[1e-9]["random"]["shots_in_the_air"] >= 4
    assert flat["n_disagreements"] == 0 and flat["agreement_rate"] == 1.0
    assert reports[1e-9]["named_agreement"] == {"agree": 6, "n": 6}
