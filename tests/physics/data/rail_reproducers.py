"""The shots of issue 29 whose balls over the rail 921a595 took off wrongly, and their logs at 921a595.

``OVER_THE_CLOTH``: a jumping ball meets a jaw, facing or liner, its centre passes over a jaw post or a facing's line
(so it was marked as over that rail), it flies back over the table, and 921a595 took it off there, over the cloth,
when its bottom came down to the rail's height. ``NO_ENDS``: a ball flying along the rail was taken off only a rail's
width behind the one line it had cleared, up to 2.3 m past the table. Each row: the cue ball's position, the shot
(V0, phi, theta, a, b), where 921a595 took it off.

``rail_reproducers_921a595.npz`` holds their logs at 921a595 (the audit of benchmarks/soak.py must flag them). Rebuild
it from a checkout of 921a595: PYTHONPATH=<that checkout> python tests/physics/data/rail_reproducers.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import physics  # run as a script: the checkout on PYTHONPATH

OVER_THE_CLOTH = [
    ((1.1516224490493316, 0.5650630788720773), (8.582298322822318, 80.47947474609357, 45.15077342084069, 0.0, 0.0),
     (1.18755, 1.71861), 0.882),
    ((1.240597326801464, 1.2705761015248922), (11.990896073255735, 3.4233693945415578, 22.46225433844627, 0.0, 0.0),
     (1.21248, 1.04056), 0.075),
    ((0.7707057546425643, 0.4574299143590146), (5.274706578864226, 22.39052824856373, 23.227408191380928, 0.0, 0.0),
     (0.07707, 1.12253), 0.782),
]
NO_ENDS = [
    ((1.130255036018329, 2.25497785050205),
     (8.281634810874348, 303.84538642548785, 26.488008801425043, -0.3501932416126887, 0.13632541883470106),
     (1.42, -2.41)),
    ((0.17942852759180342, 1.6791764532804805), (10.23039795309476, 236.60311092704995, 20.760174237669347, 0.0, 0.0),
     (-0.15, -1.64)),
]
BASE_LOGS = Path(__file__).resolve().parent / "rail_reproducers_921a595.npz"


def main() -> None:
    out = {}
    for k, (cue, shot, *_) in enumerate(OVER_THE_CLOTH + NO_ENDS):
        r = physics.simulate(physics.place_balls({0: cue}), physics.Shot(*shot))
        out.update({f"init_{k}": r.initial.packed(), f"rows_{k}": r.events.rows, f"air_{k}": r.events.air,
                    f"final_{k}": r.state.packed()})
    np.savez(BASE_LOGS, **out)


if __name__ == "__main__":
    main()
