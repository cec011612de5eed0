"""Physics soak: many random shots over the whole ``physics.Shot`` range on crowded layouts, audited.

Layouts crowd the cushions, jaws and pocket mouths and cluster balls against each other (gaps
log-uniform from 1e-12 m to 2 cm), plus nine-ball racks; shots cover speeds to 12 m/s, elevations
to 89° and tip offsets to 0.9 R. Every shot is simulated with ``physics.simulate_batch_packed``
(numba threads over tables) and audited from its event log by the physics audit (``physics.audit``,
its kernels in ``physics/kernels/audit.py``): at every event
and at random sampled times along the trajectories every ball is inside the cushions, nothing is
NaN, no two balls overlap by more than 1 µm and the total energy never rises; at rest the final
state is a legal layout (the one the next shot starts from) and no ball had to be taken off the table
(``unresolved``). Prints JSON.

``--airborne N`` adds N random shots with balls in the air (the same generator, the default model: the cue
strike, landings, 3-D contacts, cushion noses and balls leaving the table), simulated one by one with
``physics.simulate`` (a batch's logs hold no heights) and audited in 3-D by ``audit_air_shot``: no NaN, no two
balls closer than 2R − 1 µm in 3-D at every event and at AIR_SAMPLES sampled times (no tunnelling), a ball
on the cloth inside the cushions, one in the air above the cloth, over the playing area or over the rail above the
rail's top, never nearer than R (less 1 µm) to a pocket's liner (outside_sampled), to a cushion's rubber, its face or
its rounded nose edge (inside_nose), or to a jaw post, its side or its top edge (inside_jaw), never beyond the rail's
outer edge; a ball taken off the table there only, over the rail or on its outline, never over the playing area
(off_table_over_cloth, off_table_beyond_rail: the region of docs/table.md); the total
energy (in the air: vertical speed and height m·g·h included) never rising, and a legal layout at rest.

Run: python benchmarks/soak.py --shots 1000000 --seed 0 [--airborne 100000]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from physics.kernels.audit import (  # noqa: E402
    AIR_AUDIT_NAMES, AUDIT_NAMES, N_AIR_AUDIT, N_AUDIT, RUN_TOL, audit_air_shot, audit_batch, audit_shot,
)
from physics.kernels.codes import POCKETED, S_MOTION, S_POCKET, S_X, S_Y, STATIONARY  # noqa: E402
from physics.kernels.layout import OK, OVERLAP_TOL, check_layout  # noqa: E402
from physics.params import BALL_BALL_MODELS, CUSHION_MODELS  # noqa: E402
from physics.shot import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET  # noqa: E402

SAMPLES = 8  # sampled times per shot, besides every event time
LOG_CAPACITY = 256  # per table in the batch; longer shots are re-simulated alone for their full log
AIR_SAMPLES = 64  # sampled times per airborne shot, besides every event time




@njit(cache=True)
def _gap(lo_exp, hi_exp):
    """A log-uniform gap in [10^lo_exp, 10^hi_exp] m, or exactly 0 one time in eight."""
    if np.random.random() < 0.125:
        return 0.0
    return 10.0 ** (lo_exp + (hi_exp - lo_exp) * np.random.random())


@njit(cache=True)
def _candidate(i, pos, motion, W, L, R, segments, jaws, pockets, slots):
    """A candidate centre for ball i: uniform, against a rail, a jaw or a pocket mouth, or touching a placed ball."""
    mode = np.random.randint(0, 6)
    if mode == 1:  # against a rail nose
        k = np.random.randint(0, 6)
        s = np.random.random()
        d = R + _gap(-12.0, -1.7)
        x = segments[k, 0] + s * (segments[k, 2] - segments[k, 0]) + d * segments[k, 4]
        y = segments[k, 1] + s * (segments[k, 3] - segments[k, 1]) + d * segments[k, 5]
        return x, y
    if mode == 2:  # against a jaw
        k = np.random.randint(0, jaws.shape[0])
        ang = 2.0 * math.pi * np.random.random()
        d = jaws[k, 2] + R + _gap(-12.0, -1.7)
        return jaws[k, 0] + d * math.cos(ang), jaws[k, 1] + d * math.sin(ang)
    if mode == 3:  # in or near a pocket mouth
        k = np.random.randint(0, pockets.shape[0])
        ang = 2.0 * math.pi * np.random.random()
        d = pockets[k, 2] + _gap(-12.0, -1.0)
        return pockets[k, 0] + d * math.cos(ang), pockets[k, 1] + d * math.sin(ang)
    if mode == 4 and i > 0:  # touching a placed ball
        j = np.random.randint(0, i)
        if motion[j] < POCKETED:
            ang = 2.0 * math.pi * np.random.random()
            d = 2.0 * R + _gap(-12.0, -2.0)
            return pos[j, 0] + d * math.cos(ang), pos[j, 1] + d * math.sin(ang)
    return R + (W - 2.0 * R) * np.random.random(), R + (L - 2.0 * R) * np.random.random()


@njit(cache=True)
def generate(seed, B, n, W, L, R, segments, jaws, pockets, slots, max_speed, max_elev, max_tip, states, shots):
    """Fill states (B, n, 9) with legal crowded layouts and shots (B, 5) over the whole Shot range."""
    np.random.seed(seed)
    vel = np.zeros((n, 2))
    spin = np.zeros((n, 3))
    for b in range(B):
        pos = np.zeros((n, 2))
        motion = np.full(n, POCKETED, dtype=np.int64)
        rack = np.random.random() < 0.1
        if rack:  # a nine-ball rack with slots in random order, the cue ball anywhere
            for k in range(1, min(n, slots.shape[0] + 1)):
                pos[k, 0] = slots[k - 1, 0]
                pos[k, 1] = slots[k - 1, 1]
                motion[k] = STATIONARY
        n_balls = n if rack else 1 + np.random.randint(0, n)
        for i in range(n_balls if not rack else 1):
            for _ in range(40):
                x, y = _candidate(i, pos, motion, W, L, R, segments, jaws, pockets, slots)
                pos[i, 0] = x
                pos[i, 1] = y
                motion[i] = STATIONARY
                code, _, _ = check_layout(pos, vel, spin, motion, W, L, segments, jaws, pockets, R, OVERLAP_TOL)
                if code == OK:
                    break
                motion[i] = POCKETED
            if i == 0 and motion[0] == POCKETED:  # the cue ball must be placed: the middle of the head string
                pos[0, 0] = 0.5 * W
                pos[0, 1] = 0.25 * L
                motion[0] = STATIONARY
                code, _, _ = check_layout(pos, vel, spin, motion, W, L, segments, jaws, pockets, R, OVERLAP_TOL)
                if code != OK:
                    pos[0, 0] = 0.5 * W
                    pos[0, 1] = 0.1 * L
        for i in range(n):
            for c in range(9):
                states[b, i, c] = 0.0
            states[b, i, S_X] = pos[i, 0] if motion[i] < POCKETED else 0.0
            states[b, i, S_Y] = pos[i, 1] if motion[i] < POCKETED else 0.0
            states[b, i, S_MOTION] = motion[i]
            states[b, i, S_POCKET] = -1.0
        # shot: speed log-uniform half the time, aimed at a ball a third of the time, elevation often high
        u = np.random.random()
        shots[b, 0] = max_speed * (np.random.random() if u < 0.5 else 10.0 ** (-2.0 * np.random.random()))
        shots[b, 0] = max(shots[b, 0], 1e-3)
        target = 1 + np.random.randint(0, n - 1) if n > 1 else 0
        if target > 0 and motion[target] < POCKETED and np.random.random() < 0.33:
            shots[b, 1] = math.degrees(math.atan2(pos[target, 1] - pos[0, 1], pos[target, 0] - pos[0, 0]))
            shots[b, 1] += np.random.normal() * 2.0
        else:
            shots[b, 1] = 360.0 * np.random.random()
        v = np.random.random()
        shots[b, 2] = max_elev * (np.random.random() if v < 0.6 else (1.0 if v < 0.8 else 0.0))
        if v >= 0.6 and v < 0.8:
            shots[b, 2] = max_elev - 5.0 * np.random.random() ** 2
        r = max_tip * (math.sqrt(np.random.random()) if np.random.random() < 0.8 else 1.0) * (1.0 - 1e-12)
        ang = 2.0 * math.pi * np.random.random()
        shots[b, 3] = r * math.cos(ang)
        shots[b, 4] = r * math.sin(ang)




def _cloth_hops(ev: physics.EventLog) -> int:
    """BALL_AIRBORNE events that a contact between two balls on the cloth caused (the follow-shot hop): they follow
    a ball–ball contact at the same time whose two balls were not in the air before it."""
    K = physics.EventKind
    motion: dict[int, int] = {}  # each ball's motion after its last logged event
    before: list[tuple[int, int]] = []  # per event: the motion of ball_a, ball_b before it
    n = 0
    for i in range(len(ev)):
        a, b = int(ev.ball_a[i]), int(ev.ball_b[i])
        before.append((motion.get(a, 0), motion.get(b, 0)))
        if ev.kind[i] == K.BALL_AIRBORNE:
            j = i - 1
            while j >= 0 and ev.kind[j] == K.BALL_AIRBORNE and ev.time[j] == ev.time[i]:
                j -= 1
            if (j >= 0 and ev.kind[j] == K.BALL_BALL and ev.time[j] == ev.time[i]
                    and physics.Motion.AIRBORNE not in before[j]):
                n += 1
        for who, state in ((a, ev.state_a[i]), (b, ev.state_b[i])):
            if who >= 0:
                motion[who] = int(state[7])
    return n


def run_airborne(shots: int, seed: int, table_name: str = "nine",
                 params: physics.PhysicsParams = physics.DEFAULT_PARAMS) -> dict:
    """Simulate and audit ``shots`` random shots with the airborne model, in 3-D; returns the JSON report."""
    table = TABLES[table_name]()
    p = params.to_array()
    W, L, R = table.width, table.length, params.R
    slots = physics.rack_positions(table, params)
    states = np.empty((shots, physics.N_BALLS, 9))
    rows = np.empty((shots, 5))
    generate(seed * 1_000_003 + 7, shots, physics.N_BALLS, W, L, R, table.segments, table.jaws, table.pockets, slots,
             MAX_SPEED, MAX_ELEVATION, MAX_TIP_OFFSET, states, rows)
    rng = np.random.default_rng((seed, 7))
    totals = np.zeros(N_AIR_AUDIT, dtype=np.int64)
    flew = off = caps = unresolved = in_flight = hopped = handed_over = 0
    examples: list[dict] = []
    t0 = time.perf_counter()
    for k in range(shots):
        shot = physics.Shot(V0=float(rows[k, 0]), phi=float(rows[k, 1]), theta=float(rows[k, 2]), a=float(rows[k, 3]),
                            b=float(rows[k, 4]))
        r = physics.simulate(physics.BallState.from_packed(states[k]), shot, table, params)
        audit = np.zeros(N_AIR_AUDIT, dtype=np.int64)
        ev = r.events
        air = ev.air if ev.air is not None else np.zeros((len(ev), 4))
        audit_air_shot(states[k], ev.rows, air, len(ev), r.state.packed(), np.sort(rng.random(AIR_SAMPLES) * r.duration),
                       p, W, L, table.segments, table.jaws, table.pockets, table.rail, audit)
        totals += audit
        flew += int(ev.air is not None)
        if ev.air is not None:
            cloth_hops = _cloth_hops(ev)
            hopped += int(cloth_hops > 0)
            handed_over += int(cloth_hops > 0 and bool(ev.kind[1] != physics.EventKind.BALL_AIRBORNE))
        off += bool(np.any(ev.kind == physics.EventKind.BALL_OFF_TABLE))
        caps += r.hit_event_cap or r.hit_time_cap
        unresolved += r.unresolved
        in_flight += r.in_flight
        if (audit.any() or r.unresolved or r.in_flight) and len(examples) < 10:
            examples.append({"index": k, "problems": [AIR_AUDIT_NAMES[a] for a in np.flatnonzero(audit)]
                             + (["unresolved"] if r.unresolved else []) + (["in_flight"] if r.in_flight else []),
                             "shot": rows[k].tolist(),
                             "balls": {int(i): states[k, i, S_X:S_Y + 1].tolist() for i in range(physics.N_BALLS)
                                       if states[k, i, S_MOTION] < POCKETED}})
    return {"airborne_shots": shots, "with_a_ball_in_the_air": flew, "with_a_ball_off_the_table": off,
            "with_a_hop_at_a_contact_on_the_cloth": hopped, "handed_over_mid_shot": handed_over,
            **{name: int(totals[a]) for a, name in enumerate(AIR_AUDIT_NAMES)}, "unresolved": unresolved,
            "in_flight": in_flight, "caps": caps,
            "samples_per_shot": AIR_SAMPLES, "wall_s": round(time.perf_counter() - t0, 1), "examples": examples}


TABLES = {"nine": physics.Table.nine_foot, "eight": physics.Table.eight_foot, "seven": physics.Table.seven_foot}


def run(shots: int, seed: int, chunk: int = 4096, threads: int | None = None, table_name: str = "nine",
        params: physics.PhysicsParams = physics.DEFAULT_PARAMS) -> dict:
    """Simulate and audit ``shots`` random shots; returns the JSON report as a dict."""
    table = TABLES[table_name]()
    # the planar audits hold on the flat cloth (e_table = e_strike = 0 and no hop at a ball–ball contact: no ball
    # leaves it); airborne shots, the follow-shot hop included, are audited in 3-D by audit_airborne (--airborne)
    params = dataclasses.replace(params, e_table=0.0, e_strike=0.0, min_bounce_height=1.0)
    p = params.to_array()
    W, L, R = table.width, table.length, params.R
    slots = physics.rack_positions(table, params)
    totals = np.zeros(N_AUDIT, dtype=np.int64)
    caps = time_caps = events = unresolved = 0
    examples: list[dict] = []
    max_events_seen = 0
    longest: dict = {}
    t0 = time.perf_counter()
    sim_s = 0.0
    done = 0
    c = 0
    while done < shots:
        B = min(chunk, shots - done)
        states = np.empty((B, physics.N_BALLS, 9))
        rows = np.empty((B, 5))
        generate(seed * 1_000_003 + c, B, physics.N_BALLS, W, L, R, table.segments, table.jaws, table.pockets, slots,
                 MAX_SPEED, MAX_ELEVATION, MAX_TIP_OFFSET, states, rows)
        ts = time.perf_counter()
        res = physics.simulate_batch_packed(states, rows, table, params, log_capacity=LOG_CAPACITY, threads=threads)
        sim_s += time.perf_counter() - ts
        rng = np.random.default_rng((seed, c))
        durations = np.where(res.n_events <= LOG_CAPACITY,
                             res.logs[np.arange(B), np.clip(res.n_events - 1, 0, LOG_CAPACITY - 1), 0], 0.0)
        samples = np.sort(rng.random((B, SAMPLES)) * durations[:, None], axis=1)
        audits = np.zeros((B, N_AUDIT), dtype=np.int64)
        capped = res.hit_event_cap | res.hit_time_cap
        audit_batch(res.initial_states, res.logs, res.n_events, res.states, capped, samples, p, W, L,
                    table.segments, table.jaws, table.pockets, audits)
        for k in np.flatnonzero(res.n_events > LOG_CAPACITY).tolist():  # full log from a lone rerun
            full = res.result(k)
            dur = full.duration
            audit_shot(res.initial_states[k], full.events.rows, len(full.events), res.states[k], bool(capped[k]),
                       np.sort(rng.random(SAMPLES) * dur), p, W, L, table.segments, table.jaws, table.pockets, audits[k])
        totals += audits.sum(axis=0)
        bad = np.flatnonzero(audits.any(axis=1) | res.hit_event_cap | res.unresolved)
        for k in bad[: max(0, 10 - len(examples))].tolist():
            examples.append({"chunk": c, "index": k, "problems": [AUDIT_NAMES[a] for a in np.flatnonzero(audits[k])]
                             + (["event_cap"] if res.hit_event_cap[k] else [])
                             + (["unresolved"] if res.unresolved[k] else []),
                             "balls": {int(i): res.initial_states[k, i, S_X:S_Y + 1].tolist()
                                       for i in range(physics.N_BALLS) if res.initial_states[k, i, S_MOTION] < POCKETED},
                             "shot": rows[k].tolist()})
        caps += int(res.hit_event_cap.sum())
        unresolved += int(res.unresolved.sum())
        time_caps += int(res.hit_time_cap.sum())
        events += int(res.n_events.sum())
        k = int(np.argmax(res.n_events))
        if res.n_events[k] > max_events_seen:
            max_events_seen = int(res.n_events[k])
            longest = {"chunk": c, "index": k, "events": max_events_seen, "shot": rows[k].tolist(),
                       "balls": {int(i): res.initial_states[k, i, S_X:S_Y + 1].tolist()
                                 for i in range(physics.N_BALLS) if res.initial_states[k, i, S_MOTION] < POCKETED}}
        done += B
        c += 1
    wall = time.perf_counter() - t0
    report = {"shots": shots, "seed": seed, "table": table_name, "cushion_model": params.cushion_model,
              "ball_ball_model": params.ball_ball_model, **{name: int(totals[a]) for a, name in enumerate(AUDIT_NAMES)},
              "unresolved": unresolved, "event_caps": caps, "event_caps_per_1e5": round(caps * 1e5 / shots, 3), "time_caps": time_caps,
              "events_mean": round(events / shots, 2), "events_max": max_events_seen,
              "wall_s": round(wall, 1), "simulate_s": round(sim_s, 1), "shots_per_s": round(shots / sim_s, 1),
              "run_tol_m": RUN_TOL, "samples_per_shot": SAMPLES, "examples": examples,
              "longest": longest}
    return report


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shots", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=4096, help="tables per batch call")
    parser.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    parser.add_argument("--table", choices=sorted(TABLES), default="nine", help="table size (feet)")
    parser.add_argument("--cushion-model", choices=CUSHION_MODELS, default=physics.DEFAULT_PARAMS.cushion_model)
    parser.add_argument("--ball-ball-model", choices=BALL_BALL_MODELS, default=physics.DEFAULT_PARAMS.ball_ball_model)
    parser.add_argument("--json", type=str, default=None, help="also write the report to this file")
    parser.add_argument("--airborne", type=int, default=0, help="also audit this many shots with balls in the air, in 3-D")
    args = parser.parse_args(argv)
    if args.shots < 1:
        parser.error("--shots: expected a positive integer")
    params = dataclasses.replace(physics.DEFAULT_PARAMS, cushion_model=args.cushion_model,
                                 ball_ball_model=args.ball_ball_model)
    report = run(args.shots, args.seed, args.chunk, args.threads, args.table, params)
    if args.airborne > 0:
        report["airborne"] = run_airborne(args.airborne, args.seed, args.table, params)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return report


if __name__ == "__main__":
    main()
