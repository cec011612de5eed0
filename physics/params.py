"""Ball, cloth, cushion and cue parameters, as one frozen dataclass.

Defaults of the constants are the values pooltool uses, so results can be compared with it; the
default impact models are chosen by evidence (README, Physics): Stronge's compliant cushion,
Alciatore's ball–ball friction with Coulomb's bound.
Derived constants (spinning friction, moment of inertia) are properties, never stored.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from physics.checks import check_numbers

# Index of each value in the float64 vector handed to the numba kernels.
P_R, P_M, P_US, P_UR, P_USP, P_EB, P_EC, P_FC, P_G = range(9)
P_CUE_MASS, P_END_MASS, P_THROW_A, P_THROW_B, P_THROW_C, P_CUSHION_H, P_CUSHION_MODEL = range(9, 16)
P_OMEGA_RATIO, P_MATHAVAN_STEPS, P_BALL_BALL_MODEL, P_THROW_LIMIT, P_BALL_BALL_STEPS, P_JAW_NORMAL = range(16, 22)
P_E_TABLE, P_U_TABLE, P_MIN_BOUNCE, P_E_STRIKE, P_E_LINER = range(22, 27)
N_PARAMS = 27

# Names accepted by PhysicsParams; a model's code in the params vector is its index here.
CUSHION_MODELS = ("han2005", "stronge", "mathavan2010", "impulse")
BALL_BALL_MODELS = ("alciatore", "mathavan2014")
THROW_LIMITS = ("coulomb", "pooltool")
JAW_NORMALS = ("rim", "pooltool")


_CHOICES = ("cushion_model", "ball_ball_model", "throw_limit", "jaw_normal")


@dataclass(frozen=True)
class PhysicsParams:
    """Physical constants of balls, cloth and cue (SI units).

    Attributes:
        R: ball radius [m].
        m: ball mass [kg].
        u_s: sliding friction coefficient, ball–cloth.
        u_r: rolling resistance coefficient, ball–cloth.
        u_sp_factor: spinning friction as a multiple of R (u_sp = u_sp_factor·R [m]), pooltool's convention.
        e_b: ball–ball coefficient of restitution.
        e_c: ball–cushion coefficient of restitution.
        f_c: ball–cushion friction coefficient.
        g: gravitational acceleration [m/s²].
        cue_mass: cue stick mass [kg] for the instantaneous-point strike.
        cue_end_mass: effective end mass of the cue tip [kg], drives squirt (Alciatore TP A-31).
        throw_a, throw_b, throw_c: ball–ball friction µ(v) = a + b·exp(−c·v) (Alciatore TP A-14).
        cushion_model: ball–cushion and ball–jaw impact model (physics/kernels/cushion_models.py):
            "han2005" (one Coulomb impulse at the cushion nose, Han 2005), "stronge" (Stronge's
            compliant impact with tangential compliance), "mathavan2010" (Mathavan, Jackson &
            Parkin 2010, integrated over the impulse, cushion and cloth friction) or "impulse"
            (one Coulomb impulse at the ball's equator).
        cushion_height_factor: cushion nose height as a multiple of 2R (WPA: 63.5 % of the ball diameter).
        omega_ratio: "stronge" only: tangential/normal contact frequency ratio ω_t/ω_n, in (1, 2)
            (pooltool 0.6.0's default 1.8; higher is a stiffer cushion in shear).
        jaw_normal: "stronge" only: the contact direction at a pocket jaw: "rim" (towards the jaw's nose at
            the contact, tilted like a straight cushion's) or "pooltool" (towards the jaw circle's centre at
            nose height, a flatter tilt, as pooltool 0.6.0's compliant jaws do).
        mathavan_steps: "mathavan2010" only: impulse steps over the whole impact (the paper's ΔP).
        ball_ball_model: "alciatore" (one impulse with Alciatore's speed-dependent friction, TP A-14)
            or "mathavan2014" (Mathavan, Jackson & Parkin 2014: integrated over the impulse, with
            ball–ball and ball–cloth friction, so spin is transferred and the cloth acts during the impact).
        throw_limit: "alciatore" only: bound of the friction impulse: "coulomb" µ·J_n = µ·m·(1 + e_b)/2·v_n
            (Coulomb's law on the impulses), or "pooltool" µ·m·e_b·v_n (pooltool 0.6.0's bound, to match it).
        ball_ball_steps: "mathavan2014" only: impulse steps over the compression phase.
        e_table: ball–slate (through the cloth) coefficient of restitution of a landing or a ball driven into
            the slate (Alciatore's jump-shot analyses use ≈ 0.5).
        u_table: ball–cloth friction coefficient during a bounce on the slate (sliding or no-slip, whichever
            takes the smaller impulse).
        min_bounce_height: a bounce that would rise less than this [m] is absorbed by the cloth: the ball
            settles (its vertical velocity is dropped, as the flat model always did). 1 mm: about the cloth's
            own compression under a ball, below which a "bounce" never leaves the nap.
        e_strike: the slate's effective restitution for the cue's strike into it (physics/kernels/flight.py
            "Calibration"): the tip is still on the ball while it compresses the cloth, so the rebound is
            smaller than a free ball's e_table.
        e_liner: restitution of an airborne ball against a pocket's liner (the wall of the hole through the rail
            behind the mouth, and its top edge; physics/kernels/flight.py): leather over the rail's wood, a "dead"
            back, far below the rubber cushion's e_c. An assumption (no measurement found): 0.3, the low end of
            0.3–0.5; a ball that meets the back near nose height faster than about 8 m/s still rattles out onto the
            mouth's cloth (it comes back over the capture circle before it has dropped below the cloth).
    """

    R: float = 0.028575
    m: float = 0.170097
    u_s: float = 0.2
    u_r: float = 0.01
    u_sp_factor: float = 10.0 * 2.0 / 5.0 / 9.0
    e_b: float = 0.95
    e_c: float = 0.85
    f_c: float = 0.2
    g: float = 9.81
    cue_mass: float = 0.567
    cue_end_mass: float = 0.0085
    throw_a: float = 9.951e-3
    throw_b: float = 0.108
    throw_c: float = 1.088
    cushion_model: str = "stronge"
    cushion_height_factor: float = 0.635
    omega_ratio: float = 1.8
    mathavan_steps: int = 1000
    ball_ball_model: str = "alciatore"
    throw_limit: str = "coulomb"
    ball_ball_steps: int = 1000
    jaw_normal: str = "rim"
    e_table: float = 0.5
    u_table: float = 0.2
    min_bounce_height: float = 0.001
    e_strike: float = 0.25
    e_liner: float = 0.3

    def __post_init__(self) -> None:
        for name, allowed in (("cushion_model", CUSHION_MODELS), ("ball_ball_model", BALL_BALL_MODELS),
                              ("throw_limit", THROW_LIMITS), ("jaw_normal", JAW_NORMALS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name}: expected one of {allowed}, got {getattr(self, name)!r}")
        check_numbers(self, (f.name for f in fields(self) if f.name not in _CHOICES))
        if not 1.0 < self.omega_ratio < 2.0:
            raise ValueError(f"omega_ratio: expected in (1, 2) (Stronge's ω_t/ω_n), got {self.omega_ratio!r}")
        for name in ("mathavan_steps", "ball_ball_steps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not float(value).is_integer() or not 10 <= value <= 1_000_000:
                raise ValueError(f"{name}: expected an integer in [10, 1000000], got {value!r}")
        positive = ("R", "m", "u_s", "u_r", "u_sp_factor", "g", "cue_mass")
        for name in positive:
            if getattr(self, name) <= 0:
                raise ValueError(f"{name}: expected > 0, got {getattr(self, name)!r}")
        for name in ("e_b", "e_c", "e_table", "e_strike", "e_liner"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name}: expected a restitution in [0, 1], got {getattr(self, name)!r}")
        for name in ("u_table", "min_bounce_height", "f_c", "cue_end_mass", "throw_a", "throw_b", "throw_c"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name}: expected >= 0, got {getattr(self, name)!r}")
        if not 0.5 < self.cushion_height_factor < 1.0:
            raise ValueError(
                f"cushion_height_factor: expected in (0.5, 1) so the nose is above the ball centre, "
                f"got {self.cushion_height_factor!r}"
            )

    @property
    def u_sp(self) -> float:
        """Spinning friction length [m] (pooltool's u_sp = u_sp_factor·R)."""
        return self.u_sp_factor * self.R

    @property
    def cushion_height(self) -> float:
        """Height of the cushion nose above the cloth [m]."""
        return self.cushion_height_factor * 2.0 * self.R

    @property
    def inertia(self) -> float:
        """Moment of inertia of a solid ball [kg·m²]."""
        return 0.4 * self.m * self.R * self.R

    def to_array(self) -> np.ndarray:
        """Pack into the float64 vector the kernels read (indices P_*)."""
        out = np.empty(N_PARAMS, dtype=np.float64)
        out[P_R], out[P_M], out[P_US], out[P_UR] = self.R, self.m, self.u_s, self.u_r
        out[P_USP], out[P_EB], out[P_EC], out[P_FC], out[P_G] = self.u_sp, self.e_b, self.e_c, self.f_c, self.g
        out[P_CUE_MASS], out[P_END_MASS] = self.cue_mass, self.cue_end_mass
        out[P_THROW_A], out[P_THROW_B], out[P_THROW_C] = self.throw_a, self.throw_b, self.throw_c
        out[P_CUSHION_H] = self.cushion_height
        out[P_CUSHION_MODEL] = float(CUSHION_MODELS.index(self.cushion_model))
        out[P_OMEGA_RATIO] = self.omega_ratio
        out[P_MATHAVAN_STEPS] = float(self.mathavan_steps)
        out[P_BALL_BALL_MODEL] = float(BALL_BALL_MODELS.index(self.ball_ball_model))
        out[P_THROW_LIMIT] = float(THROW_LIMITS.index(self.throw_limit))
        out[P_BALL_BALL_STEPS] = float(self.ball_ball_steps)
        out[P_JAW_NORMAL] = float(JAW_NORMALS.index(self.jaw_normal))
        out[P_E_TABLE], out[P_U_TABLE], out[P_MIN_BOUNCE] = self.e_table, self.u_table, self.min_bounce_height
        out[P_E_STRIKE] = self.e_strike
        out[P_E_LINER] = self.e_liner
        return out


DEFAULT_PARAMS = PhysicsParams()
