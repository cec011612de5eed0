"""Ball state as struct-of-arrays, indexed by ball number (0 = cue ball, 1–9 object balls).

Pocketed balls keep their slot; their motion code says where they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from physics.kernels.codes import S_MOTION, S_POCKET, S_VX, S_WX, S_X, STATE_W, Motion

N_BALLS = 10
CUE = 0
_POS, _VEL, _SPIN = slice(S_X, S_X + 2), slice(S_VX, S_VX + 2), slice(S_WX, S_WX + 3)  # packed columns


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
        """One (n, STATE_W) float64 array: x, y, vx, vy, wx, wy, wz, motion, pocket (the kernels' layout, the S_*
        columns of ``kernels.codes``)."""
        out = np.empty((self.pos.shape[0], STATE_W))
        out[:, _POS] = self.pos
        out[:, _VEL] = self.vel
        out[:, _SPIN] = self.spin
        out[:, S_MOTION] = self.motion
        out[:, S_POCKET] = self.pocket
        return out

    @classmethod
    def from_packed(cls, arr: np.ndarray) -> "BallState":
        """Inverse of ``packed`` (copies)."""
        return cls(arr[:, _POS].copy(), arr[:, _VEL].copy(), arr[:, _SPIN].copy(),
                   arr[:, S_MOTION].astype(np.int64), arr[:, S_POCKET].astype(np.int64))

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
