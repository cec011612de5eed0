"""Regenerate flat_reference.npz: final states and event logs of flat shots (θ = 0), the reference that the
airborne model must reproduce bit for bit. Generated at main 843c733 (the flat-only simulator; its file is
byte-identical to the one generated at 3843136: the default models' flat results did not change in between), and
regenerated when the kernels' math.hypot(x, y) became math.sqrt(x * x + y * y) (issue 25) with 843c733's flat-only
simulator given the same substitution (in motion, detect, resolve, ball_models and loop); its shots in which no ball
leaves the cloth are the current code's bit for bit, and its hopped breaks are up to the hop's contact.

Run from the repository root: python tests/physics/data/make_flat_reference.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import physics  # noqa: E402
from physics.samples import break_shots, ordinary_shots  # noqa: E402

LOG_COLS = 21  # time, kind, ball_a, ball_b, target, state_a (8), state_b (8): the columns of the flat log


def reference_shots() -> list[tuple[physics.BallState, physics.Shot]]:
    return break_shots(60, seed=101) + ordinary_shots(240, seed=202)


def main() -> None:
    finals, logs, counts = [], [], []
    for state, shot in reference_shots():
        r = physics.simulate(state, shot)
        finals.append(r.state.packed())
        logs.append(r.events.rows[:, :LOG_COLS])
        counts.append(len(r.events))
    np.savez_compressed(Path(__file__).with_name("flat_reference.npz"), finals=np.stack(finals),
                        logs=np.concatenate(logs), counts=np.array(counts))


if __name__ == "__main__":
    main()
