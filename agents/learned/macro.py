"""Macro actions for learning agents: choose a ranked pot (target ball and pocket) or a safety, then refine it.

Plain RL on the raw cue parameters is known to fail at pool: almost every random shot is a foul.
Here the policy picks one of ``N_SLOTS`` slots — the three easiest pots of the lowest ball
(``agents.shots.pots.pot_options``, combinations on the 9 included) and a safety — and refines the
ghost-ball shot of that slot: aim offset, speed, draw/follow and side. Breaks follow ``GhostBallAgent``;
ball-in-hand placement and the safety shot do too by default, and a ``MacroStyle`` may take them from
the candidates ``SearchAgent`` searches instead (``agents.shots.candidates``: the ball-in-hand spot whose slots
leave the best position, the best of the safety candidates). The observation gains
``SLOT_FEATURES`` numbers per slot, so the policy sees what each slot offers. With ``leaves=True`` it
gains ``LEAVE_FEATURES`` more: for each pot slot, the noise-free value (``agents.shots.leaves.shot_value``:
pot and position) of the slot's shot at each speed × draw/follow point of ``LEAVE_GRID``, and that of
the safety — one look ahead at where each candidate leaves the cue ball, which the policy may refine.
``MacroPlanner.rerank`` lets a player check the policy's choice against those candidates under the game's
noise before playing it (the shipped agent ``learned`` does, with 6 samples).

The pot options, throw-corrected aims and shot values come from the compiled ``agents.shots.kernels``, for one
table (``features``, ``action``) or for every table of a vector env in one call each (``features_batch``,
``actions_batch``, which ``agents.learned.macro_vector`` uses): one implementation for both paths. GhostBall's part
(its pot speed and safety refined by the macro components, its breaks and ball-in-hand spots) comes from its array entry
points (``round_kernels.refined_rows``, ``GhostBallAgent.decide_observations``, ``GhostBallAgent.place_layouts``), and
what the planner derives from each observation is kept in a slot table of arrays, which the compiled
``agents.learned.macro_kernels`` look up, fill, and read the features and the decoded shots from (a few calls per
batch, no Python per table): the default style builds no ``TableView`` per table (the leave features and Search's
safeties still simulate from views).

========  ======================================================================================
index     macro action component (each in [-1, 1])
========  ======================================================================================
0         slot: ⌊(u+1)/2 · N_SLOTS⌋ — pots 0, 1, 2 (easiest first), 3 = safety
1         aim offset: u · AIM_RANGE degrees added to the throw-corrected ghost-ball aim
2         speed: the slot's ghost-ball speed × 2^(SPEED_OCTAVES · u)
3         vertical tip offset b = TIP_B · u (draw < 0 < follow)
4         side tip offset a = TIP_A · u
5         flag: u > 0 declares a push-out when one is allowed; after the opponent's push-out, passes back
========  ======================================================================================
"""

from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.learned import macro_kernels
from agents.players.ghost_ball import GHOST_MAX_SPEED, GHOST_MIN_SPEED, GhostBallAgent
from agents.protocol import TableView
from agents.shots import kernels as SK
from agents.shots.aim import corrected_phi_rows
from agents.shots.candidates import diverse_spots, safety_candidates
from agents.shots.leaves import shot_row, shot_values
from agents.shots.pots import PotOption, aim_sigma, cue_spots, physics_row, pocket_geometry
from nineball_env import actions, observation
from nineball_env.noise import make_noise, perturb
from nineball_env.observation import OBS_SIZE
from nineball_env.kernels.codes import N_BALLS, BallInHandCode
from nineball_env.rules import BallInHand, Phase
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, PhysicsParams, Shot, Table

N_POTS = 3
N_SLOTS = N_POTS + 1
SAFETY = N_POTS
MACRO_DIM = 6
SLOT_FEATURES = 6  # valid, ease, cut/90, cue distance/length, object distance/length, combination
MACRO_OBS_SIZE = OBS_SIZE + N_SLOTS * SLOT_FEATURES
AIM_RANGE = 1.0  # [deg]
SPEED_OCTAVES = 1.3
TIP_B, TIP_A = 0.5, 0.3
#: (speed u, vertical tip u) macro components at which each pot slot's shot is simulated for the leave features.
LEAVE_GRID = tuple((speed, tip) for speed in (-0.6, 0.0, 0.6) for tip in (-1.0, 0.0, 1.0))
LEAVE_FEATURES = N_POTS * len(LEAVE_GRID) + 1


#: Ball-in-hand spots (Search's, at most two per pocket) compared by ``MacroStyle(placement="leave")``.
PLACEMENT_SPOTS = 4
#: Safety candidates (Search's hits and kicks) valued without noise, and the best few of them sampled under noise
#: (SAFETY_SAMPLES each, seeded by the observation), by ``MacroStyle(safety="search")``.
SAFETY_BUDGET, SAFETY_FINALISTS, SAFETY_SAMPLES = 24, 3, 4
_PHASE, _IN_HAND = observation.LAYOUT["phase"], observation.LAYOUT["in_hand"]
_PHASES, _IN_HAND_CODES = tuple(Phase), tuple(BallInHand)  # by the observation's one-hot index
_BREAK, _CHOICE, _PUSH_ALLOWED = (_PHASES.index(p) for p in (Phase.BREAK, Phase.PUSH_OUT_CHOICE, Phase.PUSH_OUT_ALLOWED))
#: By phase index (-1, once the rack is over, the last entry): a shot to decide (neither a break nor a push-out choice)
_DECIDING = np.array([k not in (_BREAK, _CHOICE) for k in range(len(_PHASES))] + [False])
_NO_HAND = _IN_HAND_CODES.index(BallInHand.NONE)
_HAND_CODES = np.array([int(BallInHandCode[h.name]) for h in _IN_HAND_CODES])  # the kernels' codes, by one-hot index
#: The refinement of GhostBall's shots by the macro components (``round_kernels.refined_rows``' ``F_*`` columns): speed
#: octaves, tip offsets per unit, the speed factor's base 2, and the pots' arrival speed [m/s].
_REFINE = np.array([SPEED_OCTAVES, TIP_A, TIP_B, 2.0, 0.6])
_REFINE.setflags(write=False)


@dataclass(frozen=True)
class MacroStyle:
    """Who decides what the policy does not: the ball-in-hand spot and the safety shot (the break is always
    GhostBall's: Search's break book, tried here, cut the shipped policy's break-and-runs from 17 % to 3 %).

    Attributes:
        placement: "ghost" (``GhostBallAgent.place``) or "leave": among Search's ball-in-hand spots and
            GhostBall's, the one whose best pot-slot leave value (``leave_values``) is highest.
        safety: "ghost" (``GhostBallAgent.safety``, refined by the macro components) or "search": the best of
            Search's safety candidates (noise-free values, then the finalists sampled under noise with a seed
            drawn from the observation), played as found (the macro refinements do not apply to it).
    """

    placement: str = "ghost"
    safety: str = "ghost"

    def __post_init__(self) -> None:
        for name, allowed in (("placement", ("ghost", "leave")), ("safety", ("ghost", "search"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name}: expected one of {', '.join(allowed)}, got {getattr(self, name)!r}")

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def parse(cls, spec: str) -> "MacroStyle":
        """A style from ``key=value,...`` (e.g. ``placement=leave,safety=search``); "" is the default."""
        fields: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, sep, value = part.partition("=")
            if not sep or key not in cls.__dataclass_fields__:
                raise ValueError(f"macro style: expected key=value with key one of "
                                 f"{', '.join(cls.__dataclass_fields__)}, got {part!r}")
            fields[key] = value
        return cls(**fields)


def macro_obs_size(leaves: bool = False) -> int:
    """Length of the macro observation: the env's, the slot features, and the leave features when ``leaves``."""
    return MACRO_OBS_SIZE + (LEAVE_FEATURES if leaves else 0)


class _Slots:
    """What the planner derives from one position, readable (a slot-table row, ``_SlotTable``, or a view): the phase
    (None once the rack is over), the ball in hand, the balls' centres and on-table mask, the lowest ball, the cue-ball
    spot chosen in hand (else None), the pot slots as option rows (``agents.shots.kernels`` ``O_*`` columns, the first
    ``n_pots`` valid), and, once computed, the leave values and the Search-style safety. The ``TableView`` and the
    ``PotOption`` records are built on first use (``view``, ``pots``). The features and decodes of the default style
    read the slot table's arrays and build none of these; the leave values and Search's safeties use them."""

    __slots__ = ("phase", "in_hand", "pos", "on", "lowest", "spot", "rows", "n_pots", "seed", "leaves", "safety",
                 "_view", "_obs", "_planner", "_pots")

    def __init__(self, view: TableView | None, spot: np.ndarray | None, pots: list[PotOption | None], seed: int,
                 ) -> None:
        """The slots of a view with its pots given (the readable form the leave and safety helpers use)."""
        self._view, self._obs, self._planner = view, None, None
        self.phase = view.rack.phase if view is not None else None
        self.in_hand = view.rack.ball_in_hand if view is not None else BallInHand.NONE
        self.pos = view.balls.pos if view is not None else None
        self.on = view.on if view is not None else None
        self.lowest = view.rack.lowest if view is not None else 0
        self.spot, self.seed, self.leaves, self.safety = spot, seed, None, None
        self.rows, self.n_pots = None, sum(p is not None for p in pots)
        self._pots: list[PotOption | None] | None = pots

    @classmethod
    def observed(cls, planner: "MacroPlanner", obs: np.ndarray, phase: Phase | None, in_hand: BallInHand,
                 pos: np.ndarray, on: np.ndarray, lowest: int, seed: int) -> "_Slots":
        """The slots of an observation row, read off the arrays (its view built from ``obs`` when first asked)."""
        s = cls.__new__(cls)
        s._view, s._obs, s._planner, s._pots = None, obs, planner, None
        s.phase, s.in_hand, s.pos, s.on, s.lowest = phase, in_hand, pos, on, lowest
        s.spot, s.seed, s.leaves, s.safety, s.rows, s.n_pots = None, seed, None, None, None, 0
        return s

    @property
    def view(self) -> TableView | None:
        """The position as a ``TableView`` (None once the rack is over), rebuilt from the observation on first use."""
        if self._view is None and self.phase is not None and self._planner is not None:
            self._planner._views([self])
        return self._view

    @property
    def pots(self) -> list[PotOption | None]:
        """The pot of each pot slot (None for an empty slot)."""
        if self._pots is None:
            self._pots = [PotOption.from_row(self.rows[i]) if i < self.n_pots else None  # type: ignore[index]
                          for i in range(N_POTS)]
        return self._pots

    @pots.setter
    def pots(self, pots: list[PotOption | None]) -> None:
        self._pots, self.rows, self.n_pots = pots, None, sum(p is not None for p in pots)

    @property
    def deciding(self) -> bool:
        """A shot to decide: neither a break nor a push-out choice, and the rack not over."""
        return self.phase is not None and self.phase is not Phase.BREAK and self.phase is not Phase.PUSH_OUT_CHOICE

    @property
    def cue(self) -> np.ndarray:
        assert self.pos is not None
        return self.spot if self.spot is not None else self.pos[0]

    def state(self) -> BallState:
        """The view's balls with the cue ball at ``cue`` (placed when in hand)."""
        assert self.view is not None
        state = self.view.balls.copy()
        state.place(0, float(self.cue[0]), float(self.cue[1]))
        return state


class _SlotTable:
    """What the planner derives from observations, one row per distinct observation, as arrays (a first-in first-out
    cache of ``capacity`` rows, kept by ``agents.learned.macro_kernels``): the observation (``keys``: its bytes as
    uint32 words) and how far its row is derived (``stage``, ``macro_kernels.S_*``; ``gen`` counts the row's reuses),
    the phase (``_PHASES`` index, -1 once the rack is over) and ball in hand (``_IN_HAND_CODES`` index), the balls'
    centres and on-table mask, the lowest ball, the cue-ball spot chosen in hand (``placed``), the pot slots as option
    rows (0 past ``n_pots``), the leave values once computed, and each row's readable ``_Slots`` record once asked for
    (``MacroPlanner._record``, with the ``gen`` it was made for)."""

    def __init__(self, capacity: int) -> None:
        C = capacity
        self.capacity = C
        self.next = np.zeros(1, dtype=np.int64)
        self.records: list[tuple[int, _Slots] | None] = [None] * C
        self.obs = np.zeros((C, OBS_SIZE), dtype=np.float32)
        self.keys = np.zeros((C, OBS_SIZE), dtype=np.uint32)
        self.stage, self.gen = np.zeros(C, np.int64), np.zeros(C, np.int64)
        self.phase, self.hand = np.full(C, -1, np.int64), np.zeros(C, np.int64)
        self.pos, self.on, self.lowest = np.zeros((C, N_BALLS, 2)), np.zeros((C, N_BALLS), np.bool_), np.zeros(C, np.int64)
        self.spot, self.placed = np.zeros((C, 2)), np.zeros(C, np.bool_)
        self.rows, self.n_pots = np.zeros((C, N_POTS, SK.OPT_W)), np.zeros(C, np.int64)
        self.leaves, self.has_leaves = np.zeros((C, LEAVE_FEATURES), np.float32), np.zeros(C, np.bool_)
        #: the arrays as the kernels take them (after the observations and their words)
        self.args = (self.keys, self.obs, self.stage, self.gen, self.next, self.phase, self.hand, self.pos,
                     self.on, self.lowest, self.spot, self.placed, self.rows, self.n_pots, self.has_leaves)

    def seed(self, i: int) -> int:
        """Row ``i``'s seed: the CRC-32 of its observation's bytes."""
        return zlib.crc32(self.obs[i].tobytes())

    @property
    def cues(self) -> np.ndarray:
        """The cue ball's centre of every row: the spot when placed, else where it lies."""
        return np.where(self.placed[:, None], self.spot, self.pos[:, 0])


def _option_rows(s: _Slots) -> tuple[np.ndarray, np.ndarray]:
    """The slot record's pot slots as option rows (N_POTS, OPT_W), 0 for an empty slot, and which slots hold a pot."""
    if s.rows is not None:
        return s.rows, np.arange(N_POTS) < s.n_pots
    rows = np.zeros((N_POTS, SK.OPT_W))
    for i, option in enumerate(s.pots):
        if option is not None:
            rows[i] = _option_row(option)
    return rows, np.array([i < len(s.pots) and s.pots[i] is not None for i in range(N_POTS)], dtype=bool)


def _option_row(option: PotOption) -> tuple:
    """A pot option as an option row (``agents.shots.kernels`` ``O_*`` columns)."""
    return (option.target, option.ball, option.pocket, option.phi, option.cut, option.d_cue, option.d_obj, option.ease,
            option.direction)


def _chosen(u: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The slot (n,) macro components ``u`` (n, MACRO_DIM) select where ``valid`` (n, N_POTS) says which pot slots hold
    a pot (``macro_kernels.chosen_slots``: an empty pot slot falls back to the first pot, else the safety)."""
    out = np.empty(len(u), dtype=np.int64)
    macro_kernels.chosen_slots(np.ascontiguousarray(u, dtype=np.float64), np.ascontiguousarray(valid, dtype=np.bool_),
                               out)
    return out


def _unique(slots: list[_Slots]) -> tuple[list[_Slots], np.ndarray]:
    """The distinct slot records of ``slots`` (first seen first) and the index of each entry among them."""
    index: dict[int, int] = {}
    unique: list[_Slots] = []
    which = np.empty(len(slots), dtype=np.int64)
    for k, s in enumerate(slots):
        at = index.setdefault(id(s), len(unique))
        if at == len(unique):
            unique.append(s)
        which[k] = at
    return unique, which


class MacroPlanner:
    """Turns observations into slot features, and macro actions into the env's 9-number actions, for one table or
    many at once (``features_batch``, ``actions_batch``: the vector wrapper's path; ``features`` and ``action`` are
    the same calls with one row).

    Both are deterministic functions of the observation (the slots are recomputed, with a cache of the last
    ``cache_size`` observations), so a saved policy plays the same wherever it runs. The pots, aims and shot values
    of every table come from one call each of the compiled ``agents.shots.kernels``.
    """

    def __init__(self, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                 noise: str = "icga", scale: actions.ActionScale = actions.DEFAULT_SCALE, leaves: bool = False,
                 style: MacroStyle | None = None, cache_size: int = 1) -> None:
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 1:
            raise ValueError(f"cache_size: expected a whole number >= 1, got {cache_size!r}")
        self.table, self.params, self.noise, self.scale, self.leaves = table, params, noise, scale, leaves
        self.style = style or MacroStyle()
        self.obs_size = macro_obs_size(leaves)
        self.ghost = GhostBallAgent()
        self._noise = make_noise(noise)
        self._sigma = aim_sigma(self._noise)  # the aim noise the pot slots' ease estimates assume
        self.cache_size = cache_size
        self._table = _SlotTable(cache_size)
        self.last_slot: int | None = None
        # what the slot-table kernels read besides the table (``macro_kernels``: its ``L_*``, ``G_*`` and ``K_*``
        # columns), and GhostBall's strikes
        self._layout = np.array([observation.LAYOUT["pos"].start, observation.LAYOUT["on_table"].start, _PHASE.start,
                                 _PHASE.stop - _PHASE.start, _IN_HAND.start, _IN_HAND.stop - _IN_HAND.start, _NO_HAND,
                                 _BREAK, _CHOICE, _PUSH_ALLOWED], dtype=np.int64)
        self._geometry = np.array([table.width, table.length, params.R, self._sigma], dtype=np.float64)
        # the pot options as ``pots.pot_rows`` finds them by default: combinations on the 9, cuts up to 80°
        self._fixed = (self._layout, _DECIDING, *pocket_geometry(table), self._geometry, np.bool_(True), 80.0)
        self._strike = np.array([(2.0 * params.R) ** 2, GHOST_MIN_SPEED, GHOST_MAX_SPEED, table.head_string_y,
                                 AIM_RANGE])
        self._phys, self._scale_row = physics_row(params), np.ascontiguousarray(scale.row, dtype=np.float64)

    # -- slots ------------------------------------------------------------------------------------------

    def slots(self, obs: np.ndarray) -> tuple[TableView | None, np.ndarray | None, list[PotOption | None]]:
        """The view (None once the rack is over), the cue-ball spot chosen when in hand (else None), and the
        pot of each pot slot."""
        s = self._slots(np.asarray(obs, dtype=np.float32).reshape(1, -1))[0]
        return s.view, s.spot, s.pots

    def _slots(self, obs: np.ndarray, with_leaves: bool = False) -> list[_Slots]:
        """The readable slot record of every observation row (``_lookup``, ``_record``)."""
        return [self._record(i) for i in self._lookup(obs, with_leaves).tolist()]

    def _lookup(self, obs: np.ndarray, with_leaves: bool = False) -> np.ndarray:
        """The slot table's row (B,) of every observation row, the new ones derived together (``_rows``) and, with
        ``with_leaves``, their leave values in one more call."""
        idx = self._rows(self._checked(obs))
        if with_leaves:
            T = self._table
            todo = np.unique(idx[~T.has_leaves[idx]])
            if todo.size:
                records = [self._record(i) for i in todo.tolist()]
                T.leaves[todo] = self._leave_values(records, safety=False)
                T.has_leaves[todo] = True
                for i, s in zip(todo.tolist(), records):
                    s.leaves = T.leaves[i].copy()
        return idx

    def _checked(self, obs: np.ndarray) -> np.ndarray:
        """Observations as a C-contiguous float32 (B, OBS_SIZE) array, or ValueError; the slot table made room for
        the batch beside the rows it finds."""
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
            raise ValueError(f"obs: expected observations of {OBS_SIZE} numbers, got shape {obs.shape}")
        if self._table.capacity < 2 * len(obs):
            self._table = _SlotTable(max(self.cache_size, 2 * len(obs)))
        return obs

    def _rows(self, obs: np.ndarray) -> np.ndarray:
        """The slot table's row (B,) of every checked observation row (``macro_kernels.lookup_rows``, the new ones
        derived in one compiled call, called again after the rows waiting for a spot in hand are placed, ``_place``)."""
        T = self._table
        idx, pending = np.empty(len(obs), dtype=np.int64), np.empty(len(obs), dtype=np.int64)
        while True:
            n = macro_kernels.lookup_rows(obs, obs.view(np.uint32), *T.args, *self._fixed, idx, pending)
            if n == 0:
                return idx
            if n == macro_kernels.BAD_OBS:
                raise ValueError("obs: expected finite numbers")
            self._place(pending[:n].copy())

    def _place(self, at: np.ndarray) -> None:
        """The cue ball's spot of slot-table rows ``at``, to decide with the ball in hand: GhostBall's from the layouts
        (one compiled call; their pot slots follow in the kernels), or (``placement="leave"``) the best of Search's
        and GhostBall's by leave value, with its pot slots and leave values (``_best_spot``)."""
        T = self._table
        if self.style.placement == "leave":
            for i in at.tolist():
                T.spot[i], T.rows[i], T.n_pots[i], T.leaves[i] = self._best_spot(self._record(i).view, T.seed(i))
                T.placed[i], T.has_leaves[i], T.stage[i] = True, True, macro_kernels.S_DONE
                T.records[i] = None  # rebuilt with its spot
            return
        T.spot[at] = self.ghost.place_layouts(T.pos[at], T.on[at], T.lowest[at], self.table, self.params,
                                              np.full(len(at), self._sigma))
        T.placed[at], T.stage[at] = True, macro_kernels.S_POTS

    def _record(self, i: int) -> _Slots:
        """The readable slot record of slot-table row ``i`` (copies of its arrays; kept until the row is reused)."""
        T = self._table
        held, gen = T.records[i], int(T.gen[i])
        if held is not None and held[0] == gen:
            return held[1]
        s = _Slots.observed(self, T.obs[i].copy(), _PHASES[T.phase[i]] if T.phase[i] >= 0 else None,
                            _IN_HAND_CODES[T.hand[i]], T.pos[i].copy(), T.on[i].copy(), int(T.lowest[i]), T.seed(i))
        s.spot = T.spot[i].copy() if T.placed[i] else None
        s.rows, s.n_pots = T.rows[i].copy(), int(T.n_pots[i])
        s.leaves = T.leaves[i].copy() if T.has_leaves[i] else None
        T.records[i] = (gen, s)
        return s

    def _views(self, slots: list[_Slots]) -> list[TableView]:
        """The views of observed slots, those not built yet built in one call (``TableView.from_observations``)."""
        todo = [s for s in slots if s._view is None and s._obs is not None]
        if todo:
            views = TableView.from_observations(np.stack([s._obs for s in todo]), self.table, self.params,
                                                self.noise, self.scale)
            for s, view in zip(todo, views):
                s._view = view
        return [s._view for s in slots]  # type: ignore[misc]

    def _pot_slots(self, cues: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The pot slots of layouts from cue-ball centres ``cues``: the easiest ``N_POTS`` option rows of the pot
        options (N, N_POTS, OPT_W), 0 past their count (N,), one call for all (``macro_kernels.pot_slots``, as the
        slot table's rows get theirs)."""
        N = len(cues)
        rows, counts = np.empty((N, N_POTS, SK.OPT_W)), np.empty(N, dtype=np.int64)
        _, _, aims, axes, m, geometry, combos, max_cut = self._fixed
        macro_kernels.pot_slots(np.require(cues, np.float64, "CW"), np.require(pos, np.float64, "CW"),
                                np.require(on, np.bool_, "CW"), np.require(lowest, np.int64, "CW"), aims, axes, m,
                                geometry, combos, max_cut, np.empty((N, SK.MAX_OPTIONS, SK.OPT_W)), rows, counts)
        return rows, counts

    def _pot_rows(self, slots: list[_Slots]) -> None:
        """Each slot record's pot slots from its cue position (``_pot_slots``, one call for all)."""
        if not slots:
            return
        rows, counts = self._pot_slots(np.array([s.cue for s in slots]), np.stack([s.pos for s in slots]),
                                       np.stack([s.on for s in slots]), np.array([s.lowest for s in slots]))
        for s, r, c in zip(slots, rows, counts.tolist()):
            s.rows, s.n_pots, s._pots = r, c, None

    def _best_spot(self, view: TableView, seed: int) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
        """Ball in hand, ``placement="leave"``: GhostBall's spot and Search's (``PLACEMENT_SPOTS``), the one whose
        best pot-slot leave value is highest (ties: the earlier); with its pot slots (option rows and count) and leave
        values."""
        spots = [tuple(self.ghost.place(view))]
        found = cue_spots(view.balls.pos, view.on, view.rack.lowest, view.table, view.params, aim_sigma(view.noise))
        spots += [s for s in diverse_spots(found, PLACEMENT_SPOTS) if s not in spots]
        cues = [np.asarray(s, dtype=float) for s in spots]
        candidates = [_Slots(view, cue, [None] * N_POTS, seed) for cue in cues]
        self._pot_rows(candidates)
        values = self._leave_values(candidates, safety=False)
        best = max(range(len(candidates)), key=lambda i: (float(values[i][:-1].max()), -i))
        chosen = candidates[best]
        return chosen.spot, chosen.rows, chosen.n_pots, values[best]  # type: ignore[return-value]

    # -- features ---------------------------------------------------------------------------------------

    def features(self, obs: np.ndarray) -> np.ndarray:
        """The observation with the slot features (and, with ``leaves``, the leave features) appended (float32 in
        [0, 1])."""
        return self.features_batch(np.asarray(obs, dtype=np.float32).reshape(1, -1))[0]

    def features_batch(self, obs: np.ndarray) -> np.ndarray:
        """``features`` of every observation row (B, OBS_SIZE): (B, obs_size) float32; the rows looked up in one
        compiled call (``_rows``), the slot features of every row written in one more (``macro_kernels.feature_rows``)."""
        obs = self._checked(obs)
        B = len(obs)
        out = np.empty((B, self.obs_size), dtype=np.float32)
        idx = self._rows(obs)
        T = self._table
        macro_kernels.feature_rows(obs, idx, T.rows, T.n_pots, self._geometry, SLOT_FEATURES, out)
        if self.leaves:
            self._lookup(obs, with_leaves=True)
            out[:, MACRO_OBS_SIZE:] = T.leaves[idx]
            deciding = np.flatnonzero(_DECIDING[T.phase[idx]])
            if deciding.size:
                unique, which = np.unique(idx[deciding], return_inverse=True)
                slots = [self._record(i) for i in unique.tolist()]
                safety = self._values(slots, self._safety_shots(slots, np.zeros((len(slots), MACRO_DIM))))
                out[deciding, -1] = safety[which]
        return out

    def _values(self, slots: list[_Slots], shots: list[Shot] | np.ndarray) -> np.ndarray:
        """The noise-free value (``agents.shots.leaves.shot_values``) of ``shots[i]`` (a ``Shot`` or a strike row)
        from ``slots[i]``, in one call."""
        if not slots:
            return np.zeros(0)
        unique, which = _unique(slots)  # each position packed once, however many of the shots start from it
        rows = shots if isinstance(shots, np.ndarray) else np.array([shot_row(sh) for sh in shots])
        return shot_values([s.view for s in unique], [s.state() for s in unique],  # type: ignore[misc]
                           which, rows)

    def leave_values(self, view: TableView | None, spot: np.ndarray | None, pots: list[PotOption | None],
                     safety: bool = True) -> np.ndarray:
        """``LEAVE_FEATURES`` noise-free shot values: each pot slot's shot at every ``LEAVE_GRID`` point (0 for an
        empty slot), then the safety's (0 unless ``safety``); all 0 on breaks, push-out choices and once the
        rack is over."""
        return self._leave_values([_Slots(view, spot, pots, 0)], safety)[0]

    def _leave_values(self, slots: list[_Slots], safety: bool) -> list[np.ndarray]:
        """``leave_values`` of every slot record: all their shots aimed in one compiled call, valued in another."""
        out = [np.zeros(LEAVE_FEATURES, dtype=np.float32) for _ in slots]
        rows = [(k, i, j) for k, s in enumerate(slots) if s.deciding
                for i in range(N_POTS) if _option_rows(s)[1][i] for j in range(len(LEAVE_GRID))]
        where = [(k, i * len(LEAVE_GRID) + j) for k, i, j in rows]
        u = np.zeros((len(rows), MACRO_DIM))
        u[:, 2:4] = [LEAVE_GRID[j] for _, _, j in rows] if rows else np.zeros((0, 2))
        which = [slots[k] for k, _, _ in rows]
        shots = self._strikes(which, np.array([i for _, i, _ in rows], dtype=np.int64), u)
        if safety:
            deciding = [k for k, s in enumerate(slots) if s.deciding]
            which += [slots[k] for k in deciding]
            where += [(k, LEAVE_FEATURES - 1) for k in deciding]
            shots = np.concatenate([shots, self._safety_shots([slots[k] for k in deciding],
                                                              np.zeros((len(deciding), MACRO_DIM)))])
        if which:
            values = self._values(which, shots)
            for (k, c), v in zip(where, values):
                out[k][c] = v
        return out

    # -- shots ------------------------------------------------------------------------------------------

    def _strikes(self, slots: list[_Slots], slot: np.ndarray, u: np.ndarray, options: np.ndarray | None = None
                 ) -> np.ndarray:
        """``_strike_rows`` of slot records: row i from ``slots[i]``, with its option rows unless ``options`` (n,
        N_POTS, OPT_W) are given."""
        if not slots:
            return np.zeros((0, 5))
        unique, which = _unique(slots)
        if options is None:
            options = np.stack([_option_rows(s)[0] for s in unique])[which]
        return self._strike_rows(np.array([s.cue for s in unique])[which], np.stack([s.pos for s in unique])[which],
                                 np.stack([s.on for s in unique])[which],
                                 np.array([s.lowest for s in unique], dtype=np.int64)[which], options, slot, u)

    def _strike_rows(self, cues: np.ndarray, pos: np.ndarray, on: np.ndarray, lowest: np.ndarray, options: np.ndarray,
                     slot: np.ndarray, u: np.ndarray) -> np.ndarray:
        """The strikes (n, 5) of slot ``slot[i]`` refined by macro components ``u[i]``, from cue ball ``cues[i]`` in
        layout ``pos[i]``, ``on[i]`` at ball ``lowest[i]``: a pot slot of option rows ``options[i]`` (N_POTS, OPT_W)
        or ``SAFETY``, GhostBall's either way (``macro_kernels.slot_strikes``, one compiled call), the pots' aims
        corrected for throw in one more (``agents.shots.aim.corrected_phi_rows``, one iteration), then the aim
        offset (``macro_kernels.aimed``)."""
        n = len(slot)
        C = np.ascontiguousarray
        u = C(u, dtype=np.float64)
        shots = np.empty((n, 5))
        at, cue, obj, target, direction, aims = self._aim_buffers(n)
        n_aim = macro_kernels.slot_strikes(C(slot, dtype=np.int64), C(options, dtype=np.float64), u,
                                           C(cues, dtype=np.float64), C(pos, dtype=np.float64), C(on, dtype=np.bool_),
                                           C(lowest, dtype=np.int64), self._geometry, self._phys, _REFINE,
                                           self._strike, shots, at, cue, obj, target, direction, aims)
        phi = corrected_phi_rows(cue[:n_aim], obj[:n_aim], target[:n_aim], direction[:n_aim], aims[:n_aim],
                                 self.table, self.params, 1)
        macro_kernels.aimed(shots, at[:n_aim], phi, u, np.zeros(n, dtype=np.bool_), self._strike)
        return shots

    def _pot_shots(self, slots: list[_Slots], options: list[PotOption], us: list[np.ndarray]) -> list[Shot]:
        """The pot of ``options[i]`` from ``slots[i]`` refined by macro components ``us[i]`` (``_strikes``)."""
        rows = np.zeros((len(slots), N_POTS, SK.OPT_W))
        for k, option in enumerate(options):
            rows[k, 0] = _option_row(option)
        shots = self._strikes(slots, np.zeros(len(slots), dtype=np.int64), np.array(us).reshape(-1, MACRO_DIM), rows)
        return [Shot(*row) for row in shots.tolist()]

    def _pot_shot(self, view: TableView, state, cue: np.ndarray, option: PotOption, u: np.ndarray) -> Shot:
        """The pot of ``option`` refined by macro components ``u`` (from ``state``, the cue ball at ``cue``)."""
        s = _Slots(view, np.asarray(cue, dtype=float), [], 0)
        return self._pot_shots([s], [option], [u])[0]

    def _safety_shots(self, slots: list[_Slots], u: np.ndarray) -> np.ndarray:
        """The safety strikes (n, 5) from ``slots[i]``: GhostBall's refined by macro components ``u[i]``
        (``_strikes``), or (``safety="search"``) the best of Search's safety candidates, as found."""
        if self.style.safety == "search":
            for s in slots:
                if s.safety is None:
                    s.safety = self._search_safety(s.view, s.cue, s.seed)  # type: ignore[arg-type]
            return np.array([shot_row(s.safety) for s in slots]).reshape(-1, 5)  # type: ignore[arg-type]
        return self._strikes(slots, np.full(len(slots), SAFETY, dtype=np.int64), u)

    def _safety_shot(self, s: _Slots, u: np.ndarray) -> Shot:
        """``_safety_shots`` of one slot record."""
        return Shot(*self._safety_shots([s], np.asarray(u, dtype=np.float64)[None])[0].tolist())

    def _search_safety(self, view: TableView, cue: np.ndarray, seed: int) -> Shot:
        """The best of ``SAFETY_BUDGET`` Search safety candidates from ``cue``: valued once without noise, the best
        ``SAFETY_FINALISTS`` then ``SAFETY_SAMPLES`` times under noise from ``seed`` (the planner draws it from the
        observation's bytes, so the choice stays a function of the observation)."""
        s = _Slots(view, np.asarray(cue, dtype=float), [], seed)
        state = s.state()
        shots = safety_candidates(view, state, SAFETY_BUDGET)
        first = self._values([s] * len(shots), shots)
        order = sorted(range(len(shots)), key=lambda k: -first[k])[:SAFETY_FINALISTS]
        rng = np.random.default_rng(seed)
        noisy = [perturb(shots[k], view.noise, rng, view.params) for k in order for _ in range(SAFETY_SAMPLES)]
        values = self._values([s] * len(noisy), noisy).reshape(len(order), SAFETY_SAMPLES)
        best: tuple[float, Shot] | None = None
        for row, k in zip(values, order):
            mean = float(np.mean(row))
            if best is None or mean > best[0]:
                best = (mean, shots[k])
        assert best is not None
        return best[1]

    def _decode(self, view: TableView, spot: np.ndarray | None, pots: list[PotOption | None], u: np.ndarray
                ) -> tuple[int, Shot]:
        """The slot macro components ``u`` select (an empty pot slot falls back to the first pot, else the safety)
        and the shot they decode to."""
        s = _Slots(view, spot, pots, 0)
        return self._decode_batch([s], [u])[0]

    def _decode_batch(self, slots: list[_Slots], us: list[np.ndarray]) -> list[tuple[int, Shot]]:
        """``_decode`` of ``us[i]`` on ``slots[i]`` (``_decode_rows``), as readable shots."""
        chosen, shots = self._decode_rows(slots, np.array(us, dtype=np.float64).reshape(-1, MACRO_DIM))
        return [(c, Shot(*row)) for c, row in zip(chosen.tolist(), shots.tolist())]

    def _decode_rows(self, slots: list[_Slots], u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_chosen`` and ``_strikes`` of macro components ``u`` (n, MACRO_DIM) on slot records ``slots``."""
        valid = np.array([_option_rows(s)[1] for s in slots], dtype=bool).reshape(-1, N_POTS)
        chosen = _chosen(u, valid)
        shots = self._strikes(slots, chosen, u)
        return chosen, self._search_safeties(chosen, shots, lambda k: slots[k], u)

    def _search_safeties(self, chosen: np.ndarray, shots: np.ndarray, record, u: np.ndarray) -> np.ndarray:
        """``shots`` with the safety rows replaced by Search's safeties (``safety="search"``; ``record(k)`` the slot
        record of row k), else as they are."""
        if self.style.safety == "search":
            safe = np.flatnonzero(chosen == SAFETY)
            shots[safe] = self._safety_shots([record(k) for k in safe.tolist()], u[safe])
        return shots

    # -- re-ranking and actions -------------------------------------------------------------------------

    def rerank(self, obs: np.ndarray, macro: np.ndarray, samples: int) -> np.ndarray:
        """The macro action to play instead of ``macro``: among it, each pot slot's best ``LEAVE_GRID`` point (by its
        leave feature) and the safety, the one whose shot has the best mean ``shot_value`` over ``samples``
        simulations under the noise (seeded by the observation; ties keep ``macro``). Breaks and push-out
        choices keep ``macro``; so does ``samples`` 0."""
        u = np.clip(np.asarray(macro, dtype=np.float64).reshape(-1), -1.0, 1.0)
        if samples <= 0:
            return u
        s = self._slots(np.asarray(obs, dtype=np.float32).reshape(1, -1), with_leaves=True)[0]
        if not s.deciding:
            return u
        assert s.view is not None and s.leaves is not None
        candidates = [u]
        for i, option in enumerate(s.pots):
            if option is not None:
                j = int(np.argmax(s.leaves[i * len(LEAVE_GRID):(i + 1) * len(LEAVE_GRID)]))
                candidates.append(np.array([-1.0 + (2 * i + 1) / N_SLOTS, 0.0, *LEAVE_GRID[j], 0.0, u[5]]))
        candidates.append(np.array([1.0, 0.0, 0.0, 0.0, 0.0, u[5]]))
        view = s.view
        rng = np.random.default_rng(s.seed + 7)
        noise = rng.standard_normal((samples, 5))  # common random numbers: every candidate meets the same errors
        decoded = self._decode_batch([s] * len(candidates), candidates)
        noisy = [perturb(shot, view.noise, _Fixed(noise[k]), view.params)
                 for _, shot in decoded for k in range(samples)]
        values = self._values([s] * len(noisy), noisy).reshape(len(candidates), samples)
        best, best_value = u, -1.0
        for c, row in zip(candidates, values):
            value = 0.0
            for v in row:
                value += v
            if value > best_value + 1e-12:
                best, best_value = c, value
        return best

    def action(self, obs: np.ndarray, macro: np.ndarray) -> np.ndarray:
        """The env action for macro action ``macro`` (``MACRO_DIM`` numbers, clipped to [-1, 1])."""
        u = np.clip(np.asarray(macro, dtype=np.float64).reshape(-1), -1.0, 1.0)
        if u.shape != (MACRO_DIM,):
            raise ValueError(f"macro action: expected {MACRO_DIM} numbers, got shape {u.shape}")
        acts, slots = self.actions_batch(np.asarray(obs, dtype=np.float32).reshape(1, -1), u[None])
        self.last_slot = None if slots[0] < 0 else int(slots[0])
        return acts[0]

    def actions_batch(self, obs: np.ndarray, macro: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The env actions (B, 9) float32 for macro actions (B, MACRO_DIM) (clipped to [-1, 1]) on observations
        (B, OBS_SIZE), and each row's slot (−1 on breaks and push-out choices): the rows looked up in one compiled
        call (``_rows``), every shot decoded in one more (``macro_kernels.strike_rows``), the pots aimed in a third and
        every action encoded in a fourth (``macro_kernels.action_rows``)."""
        obs = self._checked(obs)
        macro = np.asarray(macro, dtype=np.float64)
        B = len(obs)
        if macro.shape != (B, MACRO_DIM):
            raise ValueError(f"macro: expected shape ({B}, {MACRO_DIM}), got {macro.shape}")
        idx = self._rows(obs)
        T = self._table
        u, chosen, shots = np.empty((B, MACRO_DIM)), np.empty(B, dtype=np.int64), np.empty((B, 5))
        at, cue, obj, target, direction, aims = self._aim_buffers(B)
        n_aim, special = macro_kernels.strike_rows(idx, T.phase, T.pos, T.on, T.lowest, T.spot, T.placed, T.rows,
                                                   T.n_pots, _DECIDING, self._geometry, np.ascontiguousarray(macro), u,
                                                   self._phys, _REFINE, self._strike, chosen, shots, at, cue, obj,
                                                   target, direction, aims)
        if n_aim == macro_kernels.BAD_MACRO:
            raise ValueError(f"macro: expected finite numbers, got {macro.tolist()}")
        if n_aim == macro_kernels.RACK_OVER:
            raise ValueError(f"observation{'' if B == 1 else f' {special}'}: the rack is over, there is no "
                             f"decision to make")
        at = at[:n_aim]
        phi = corrected_phi_rows(cue[:n_aim], obj[:n_aim], target[:n_aim], direction[:n_aim], aims[:n_aim],
                                 self.table, self.params, 1)
        fixed = np.zeros(B, dtype=np.bool_)
        if self.style.safety == "search":  # Search's safeties, played as found
            safe = np.flatnonzero(chosen == SAFETY)
            if safe.size:
                shots[safe] = self._safety_shots([self._record(int(idx[k])) for k in safe.tolist()], u[safe])
                fixed[safe] = True
        out = np.empty((B, actions.N_ACTION), dtype=np.float32)
        macro_kernels.action_rows(idx, T.phase, T.hand, T.placed, T.spot, self._layout, _HAND_CODES,
                                  self._geometry, self._strike, self._scale_row, u, chosen, shots, fixed, at, phi, out)
        if special:  # breaks (GhostBall's, from the observations, in one call) and push-out choices
            phase = T.phase[idx]
            for k in (phase == _CHOICE).nonzero()[0].tolist():
                out[k] = actions.choice_action(pass_back=bool(u[k, 5] > 0.0))
            breaking = (phase == _BREAK).nonzero()[0]
            if breaking.size:
                out[breaking] = self.ghost.decide_observations(obs[breaking], self.table, self.params, self._noise,
                                                               self.scale)[0]
        return out, chosen

    def _aim_buffers(self, B: int) -> tuple[np.ndarray, ...]:
        """The buffers ``strike_rows`` writes the pots to aim into, for B rows: batch rows, cue balls, object balls,
        targets, directions and strikes."""
        return (np.empty(B, dtype=np.int64), np.empty((B, 2)), np.empty((B, 2)), np.empty(B, dtype=np.int64),
                np.empty(B), np.empty((B, 5)))


class _Fixed:
    """A stand-in random generator whose ``standard_normal(5)`` returns fixed numbers (common random numbers)."""

    def __init__(self, normals: np.ndarray) -> None:
        self.normals = normals

    def standard_normal(self, size: int) -> np.ndarray:
        return self.normals[:size]


def macro_action_space() -> spaces.Box:
    return spaces.Box(-1.0, 1.0, (MACRO_DIM,), np.float32)


def macro_observation_space(leaves: bool = False) -> spaces.Box:
    return spaces.Box(0.0, 1.0, (macro_obs_size(leaves),), np.float32)


class MacroActionWrapper(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """NineBall-v0 with macro actions (see the module docstring) and the slot features in the observation.

    ``noise`` is the noise preset the slots' ease estimates assume (the env adds its own noise to every shot);
    ``leaves`` adds the leave features; ``style`` is the planner's ``MacroStyle``.
    """

    def __init__(self, env: gym.Env, noise: str = "icga", leaves: bool = False, style: MacroStyle | None = None
                 ) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, noise=noise, leaves=leaves, style=style)
        gym.Wrapper.__init__(self, env)
        base = env.unwrapped
        cfg = getattr(base, "config", None)
        self.planner = MacroPlanner(cfg.table if cfg else DEFAULT_TABLE, cfg.params if cfg else DEFAULT_PARAMS, noise,
                                    getattr(base, "scale", actions.DEFAULT_SCALE), leaves, style)
        self.action_space = macro_action_space()
        self.observation_space = macro_observation_space(leaves)
        self._obs: np.ndarray | None = None

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._obs = obs
        return self.planner.features(obs), dict(info, macro_slot=-1)

    def step(self, action):
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        obs, reward, terminated, truncated, info = self.env.step(self.planner.action(self._obs, action))
        self._obs = obs
        info = dict(info, macro_slot=self.planner.last_slot if self.planner.last_slot is not None else -1)
        return self.planner.features(obs), reward, terminated, truncated, info
