"""Digests of every result of seeded breaks, ordinary shots and soak shots: the reference that a change meant to
make the physics faster, not different, must reproduce bit for bit (end states, event logs, air logs, flags, through
``physics.simulate`` and ``physics.simulate_batch_packed``).

``shot_digests.npz`` holds the digests of N_REFERENCE shots of each set, generated at main 5aab397 and regenerated
when the kernels' math.hypot(x, y) became math.sqrt(x * x + y * y) (issue 25: differences of an ulp or so, grown by
chaos in multi-ball breaks). Run from the repository root: ``python tests/physics/data/make_shot_digests.py``
regenerates it (only when the physics changes on purpose: explain every difference), ``--check`` compares the current
code with it and prints the shots that differ.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from benchmarks.soak import generate  # noqa: E402
from physics.samples import break_shots, ordinary_shots  # noqa: E402

REFERENCE = Path(__file__).with_name("shot_digests.npz")
N_REFERENCE = 2000  # shots of each set
SETS = ("breaks", "ordinary", "soak")
SEEDS = {"breaks": 11, "ordinary": 12, "soak": 31}
BATCH_LOG = 256  # log rows per table in the batch


def shot_set(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The first n shots of a set as packed states (n, N_BALLS, 9) and shot rows (n, 5) (V0, phi°, theta°, a, b)."""
    if name == "soak":  # the soak benchmark's generator: crowded layouts over the whole Shot range
        table, params = physics.DEFAULT_TABLE, physics.DEFAULT_PARAMS
        states, rows = np.empty((n, physics.N_BALLS, 9)), np.empty((n, 5))
        generate(SEEDS[name] * 1_000_003 + 7, n, physics.N_BALLS, table.width, table.length, params.R, table.segments,
                 table.jaws, table.pockets, physics.rack_positions(table, params), physics.shot.MAX_SPEED,
                 physics.shot.MAX_ELEVATION, physics.shot.MAX_TIP_OFFSET, states, rows)
        return states, rows
    pairs = (break_shots if name == "breaks" else ordinary_shots)(n, SEEDS[name])
    states = np.stack([s.packed() for s, _ in pairs])
    rows = np.array([[sh.V0, sh.phi, sh.theta, sh.a, sh.b] for _, sh in pairs])
    return states, rows


def _hash(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()[:16]


def digests(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per shot, the digest of ``simulate``'s result (end state, event log, air log, flags) and of
    ``simulate_batch_packed``'s (end state, the log's first BATCH_LOG rows, event count, flags): (n, 16) bytes each."""
    states, rows = shot_set(name, n)
    single = np.empty((n, 16), dtype=np.uint8)
    for k in range(n):
        s = physics.BallState.from_packed(states[k])
        shot = physics.Shot(V0=float(rows[k, 0]), phi=float(rows[k, 1]), theta=float(rows[k, 2]), a=float(rows[k, 3]),
                            b=float(rows[k, 4]))
        r = physics.simulate(s, shot)
        air = r.events.air.tobytes() if r.events.air is not None else b"-"
        flags = bytes([r.hit_event_cap, r.hit_time_cap, r.unresolved, r.in_flight])
        single[k] = np.frombuffer(_hash(r.state.packed().tobytes(), r.events.rows.tobytes(), air, flags), np.uint8)
    b = physics.simulate_batch_packed(states, rows, log_capacity=BATCH_LOG)
    batch = np.empty((n, 16), dtype=np.uint8)
    for k in range(n):
        m = min(int(b.n_events[k]), BATCH_LOG)
        flags = bytes([int(b.hit_event_cap[k]), int(b.hit_time_cap[k]), int(b.unresolved[k]), int(b.in_flight[k]),
                       int(b.airborne[k])])
        batch[k] = np.frombuffer(_hash(b.states[k].tobytes(), b.logs[k, :m].tobytes(),
                                       int(b.n_events[k]).to_bytes(8, "little"), flags), np.uint8)
    return single, batch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the stored digests instead of writing them")
    parser.add_argument("-n", type=int, default=N_REFERENCE, help=f"shots of each set (at most {N_REFERENCE})")
    args = parser.parse_args(argv)
    if args.check:
        ref = np.load(REFERENCE)
        bad = 0
        for name in SETS:
            single, batch = digests(name, args.n)
            for path, got in (("simulate", single), ("batch", batch)):
                diff = np.flatnonzero(np.any(got != ref[f"{name}_{path}"][:args.n], axis=1))
                bad += diff.size
                print(f"{name:9s} {path:9s} {args.n} shots, {diff.size} differ{': ' + str(diff[:20].tolist()) if diff.size else ''}")
        return 1 if bad else 0
    out = {}
    for name in SETS:
        out[f"{name}_simulate"], out[f"{name}_batch"] = digests(name, args.n)
    np.savez_compressed(REFERENCE, **out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
