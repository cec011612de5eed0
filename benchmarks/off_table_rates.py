"""How often balls leave the table: power breaks and random elevated shots, with the airborne model.

Power breaks are the throughput benchmark's breaks (benchmarks/physics_throughput.break_shots) at power
(V0 uniform in --speed, default 9–11 m/s) with the cue elevated as players break (θ uniform in
--elevation, default 0–10°: the butt over the rail); random elevated shots are its ordinary layouts
struck at θ uniform 0–89° and V0 uniform 1–8 m/s. Prints JSON: per set, the share of shots that send
a ball off the table (cue ball, object balls), balls off per shot, shots with a ball in the air, and
the cue ball's highest hop. Run: python benchmarks/off_table_rates.py --breaks 10000 --shots 10000
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from physics.samples import break_shots, ordinary_shots  # noqa: E402

OFF = physics.EventKind.BALL_OFF_TABLE
AIR = physics.EventKind.BALL_AIRBORNE


def rates(cases, params: physics.PhysicsParams) -> dict:
    """Off-table figures of simulated (state, shot) cases."""
    shots_off = cue_off = object_off = balls_off = airborne = unresolved = 0
    apex = []
    for state, shot in cases:
        r = physics.simulate(state, shot, params=params)
        ev = r.events
        off = sorted({int(b) for b in ev.ball_a[ev.kind == OFF]})
        shots_off += bool(off)
        cue_off += 0 in off
        object_off += any(b != 0 for b in off)
        balls_off += len(off)
        airborne += bool(np.any(ev.kind == AIR))
        unresolved += r.unresolved
        if ev.air is not None:  # the cue ball's highest apex: h + vz²/2g after each of its logged events
            cue = ev.ball_a == 0
            h, vz = ev.air[cue, 0], np.maximum(ev.air[cue, 1], 0.0)
            apex.append(float(np.max(h + vz * vz / (2 * params.g), initial=0.0)))
        else:
            apex.append(0.0)
    n = len(cases)
    return dict(
        shots=n, share_with_a_ball_off=round(shots_off / n, 4), share_cue_ball_off=round(cue_off / n, 4),
        share_object_ball_off=round(object_off / n, 4), balls_off_per_shot=round(balls_off / n, 4),
        share_with_a_ball_in_the_air=round(airborne / n, 4), unresolved=unresolved,
        cue_apex_mm_median=round(1e3 * float(np.median(apex)), 2), cue_apex_mm_p90=round(1e3 * float(np.quantile(apex, 0.9)), 2),
    )


def power_breaks(n: int, seed: int, speed: tuple[float, float], elevation: tuple[float, float]):
    rng = np.random.default_rng(seed)
    return [(s, dataclasses.replace(shot, V0=float(rng.uniform(*speed)), theta=float(rng.uniform(*elevation))))
            for s, shot in break_shots(n, seed)]


def elevated_shots(n: int, seed: int):
    rng = np.random.default_rng(seed)
    return [(s, dataclasses.replace(shot, V0=float(rng.uniform(1.0, 8.0)), theta=float(rng.uniform(0.0, 89.0)),
                                    b=float(np.clip(shot.b, -0.3, 0.3))))
            for s, shot in ordinary_shots(n, seed)]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--breaks", type=int, default=1000)
    parser.add_argument("--shots", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", type=float, nargs=2, default=(9.0, 11.0), help="power-break V0 range [m/s]")
    parser.add_argument("--elevation", type=float, nargs=2, default=(0.0, 10.0), help="power-break θ range [deg]")
    args = parser.parse_args(argv)
    params = physics.DEFAULT_PARAMS
    out = dict(
        power_breaks=dict(speed=list(args.speed), elevation=list(args.elevation),
                          **rates(power_breaks(args.breaks, args.seed, tuple(args.speed), tuple(args.elevation)), params)),
        elevated_shots=rates(elevated_shots(args.shots, args.seed + 1), params),
    )
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
