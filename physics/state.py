"""Ball state as struct-of-arrays, indexed by ball number (0 = cue ball, 1–9 object balls).

Pocketed balls keep their slot; their motion code says where they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

N_BALLS = 10
CUE = 0


class Motion(IntEnum):
    """Motion-state code of one ball (the kernels use the integer values)."""

    STATIONARY = 0
    SPINNING = 1
    SLIDING = 2
    ROLLING = 3
    POCKETED = 4
    AIRBORNE = 5  # in the air (only during a shot: every shot ends with its balls on the cloth or off it)
    OFF_TABLE = 6  # left the table without being pocketed (jumped off, or taken off by the safety net)


@dataclass(eq=False)
class BallState:
    """Positions [m], velocities [m/s], angular velocities [rad/s] and motion codes of all balls.

    Attributes:
        pos: (N, 2) ball centres.
        vel: (N, 2) centre velocities.
        spin: (N, 3) angular velocities (x, y, z).
        motion: (N,) int64 ``Motion`` codes.
        pocket: (N,) int64 pocket index of pocketed balls, -1 otherwise.
    """

    pos: np.ndarray
    vel: np.ndarray
    spin: np.ndarray
    motion: np.ndarray
    pocket: np.ndarray

    @classmethod
    def empty(cls, n_balls: int = N_BALLS) -> "BallState":
        """All balls pocketed-out (off the table) and at rest; place balls with ``place``."""
        return cls(
            pos=np.zeros((n_balls, 2)),
            vel=np.zeros((n_balls, 2)),
            spin=np.zeros((n_balls, 3)),
            motion=np.full(n_balls, int(Motion.POCKETED), dtype=np.int64),
            pocket=np.full(n_balls, -1, dtype=np.int64),
        )

    def packed(self) -> np.ndarray:
        """One (n, 9) float64 array: x, y, vx, vy, wx, wy, wz, motion, pocket (the kernels' layout)."""
        out = np.empty((self.pos.shape[0], 9))
        out[:, 0:2] = self.pos
        out[:, 2:4] = self.vel
        out[:, 4:7] = self.spin
        out[:, 7] = self.motion
        out[:, 8] = self.pocket
        return out

    @classmethod
    def from_packed(cls, arr: np.ndarray) -> "BallState":
        """Inverse of ``packed`` (copies)."""
        return cls(arr[:, 0:2].copy(), arr[:, 2:4].copy(), arr[:, 4:7].copy(),
                   arr[:, 7].astype(np.int64), arr[:, 8].astype(np.int64))

    @property
    def n_balls(self) -> int:
        return self.pos.shape[0]

    def copy(self) -> "BallState":
        return BallState(self.pos.copy(), self.vel.copy(), self.spin.copy(), self.motion.copy(), self.pocket.copy())

    def on_table(self) -> np.ndarray:
        """Boolean mask of balls on the playing surface."""
        return self.motion <= int(Motion.ROLLING)

    def balls_on_table(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.on_table())]

    def at_rest(self) -> bool:
        """True when no ball on the table moves or spins."""
        on = self.on_table()
        return bool(np.all(self.motion[on] == int(Motion.STATIONARY)))

    def place(self, ball: int, x: float, y: float) -> None:
        """Put ``ball`` at rest at (x, y) (no validation: ``physics.validate_state`` checks layouts)."""
        if not 0 <= ball < self.n_balls:
            raise ValueError(f"ball: expected 0..{self.n_balls - 1}, got {ball}")
        self.pos[ball] = (x, y)
        self.vel[ball] = 0.0
        self.spin[ball] = 0.0
        self.motion[ball] = int(Motion.STATIONARY)
        self.pocket[ball] = -1

    def remove(self, ball: int) -> None:
        """Take ``ball`` off the table (marked pocketed, no pocket)."""
        self.vel[ball] = 0.0
        self.spin[ball] = 0.0
        self.motion[ball] = int(Motion.POCKETED)
        self.pocket[ball] = -1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BallState):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, name), getattr(other, name))
            for name in ("pos", "vel", "spin", "motion", "pocket")
        )
