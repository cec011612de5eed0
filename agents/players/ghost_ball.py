"""GhostBallAgent: geometric aiming at the lowest ball into the easiest pocket, with a few rules of thumb.

It ranks every clear pot of the lowest ball (and combinations into the 9) by the estimated chance
of success (cut angle, both distances, the pocket's window: ``agents.shots.pots``), corrects the aim
for throw with a two-ball simulation, picks a speed that gets the ball to the pocket, places the
cue ball for an easy shot with ball in hand, pushes out or passes back when the shot is poor,
and plays a full-ball (or one-rail kick) safety when nothing is makeable. When a ball blocks the path to the
lowest one it also considers jump shots over it (``agents.shots.jumps.jump_candidates``: at the ball, or jump
pots) and plays the best of them instead of the kick when a few simulations under the game's noise (from fixed
draws, the same for every table: the agent stays deterministic, and a table's choice never depends on the others of
its round) score it higher. It never looks ahead.

A round of decisions is one compiled call whatever the number of tables (``agents.shots.round_kernels.decide_round``):
the observations read (as an env opponent), the geometry of every table (``round_kernels.plan_rows``), then only the
simulations it asks for (throw-corrected aims, push-outs, jumps: the candidates, simulations and choice all in
``round_kernels.jump_round``), all through the env's physics callback, and the actions; Python only rules the rare
jump a cap stops in the air and calls again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import is_
from typing import NamedTuple

import numpy as np

import physics
from agents.protocol import OBSERVED_COLUMNS, TableView, ViewAgent, checked_observations, observed, rack_over
from agents.shots import kernels as K
from agents.shots import round_kernels as RK
from agents.shots.aim import empty_packed
from agents.shots.jumps import ELEVATIONS, FACTORS, MAX_JUMPS, jump_geometry, jump_launches
from agents.shots.outcome import ruled_rows, shot_rack
from agents.shots.pots import (SPOT_MARGIN, aim_sigma, physics_row, pocket_geometry, rolling_speed_for,
                               spot_lines)
from nineball_env import actions, placement
from nineball_env.kernels.codes import OBS_SIZE, RACK_W, BallInHandCode, PhaseCode, RackCol
from nineball_env.kernels.shot import physics_address
from nineball_env.noise import LIMITS, NoiseConfig, make_noise
from nineball_env.rules.facts import SIMULTANEOUS_S
from physics import Shot
from physics.api import params_array
from physics.kernels.codes import S_MOTION, S_POCKET
from physics.validate import OVERLAP_TOL

#: [m/s] the cue speeds of GhostBall's ordinary shots (the macro layer refines its shots within them; physics allows 12)
GHOST_MIN_SPEED, GHOST_MAX_SPEED = 0.6, 7.0
#: The caps [events, s] of the simulations that score GhostBall's jumps (``_worth``).
JUMP_MAX_EVENTS, JUMP_MAX_TIME = 1000, 60.0
#: The jumps simulated under the noise per row, besides its safety (``round_kernels.jump_round``'s ``finalists``).
FINALISTS = 4


@dataclass(frozen=True)
class GhostBallConfig:
    """Thresholds and styles of the ghost-ball player (speeds in m/s, angles in degrees).

    Attributes:
        break_speed: cue speed of the break, from just behind the head string on the centre line.
        arrive_speed: speed the object ball should have left at the pocket.
        stun_cut: below this cut angle the cue ball is drawn a little so it does not follow the ball in.
        combo_min_ease: take a combination on the 9 when its estimated success is at least this
            and beats every direct pot.
        safety_below: play a safety when the best pot's estimated success is below this.
        push_below: push out (when allowed) when the best pot's estimated success is below this.
        pass_back_below: after the opponent's push-out, pass the shot back below this.
        correct_throw: correct the aim for throw and squirt with a two-ball simulation.
        jumps: consider jump shots when a ball blocks the path to the lowest one (False: the kick, as before).
        jump_samples: noisy simulations per jump finalist (and of the kick or safety it competes with).
        assumed_noise: noise preset assumed when no ``TableView`` is given (as an env opponent).
    """

    break_speed: float = 9.0
    arrive_speed: float = 0.6
    stun_cut: float = 12.0
    combo_min_ease: float = 0.7
    safety_below: float = 0.2
    push_below: float = 0.35
    pass_back_below: float = 0.5
    correct_throw: bool = True
    jumps: bool = True
    jump_samples: int = 8
    assumed_noise: str = "icga"

    def __post_init__(self) -> None:
        if not 0.0 < self.break_speed <= physics.shot.MAX_SPEED:
            raise ValueError(f"break_speed: expected a speed in (0, {physics.shot.MAX_SPEED}] m/s, "
                             f"got {self.break_speed!r}")
        if isinstance(self.jump_samples, bool) or not isinstance(self.jump_samples, int) or self.jump_samples < 1:
            raise ValueError(f"jump_samples: expected a whole number >= 1, got {self.jump_samples!r}")
        for name in ("combo_min_ease", "safety_below", "push_below", "pass_back_below"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name}: expected a probability in [0, 1], got {getattr(self, name)!r}")


class GhostBallAgent(ViewAgent):
    """The geometric baseline (see the module docstring); deterministic, so ``seed`` changes nothing.

    ``act_batch`` decides many tables at once. As an env opponent one object serves every table of a vector env
    (the env shares an opponent that has ``act_batch`` and asks it once per round for all its tables); ``jumps``
    then counts the jumps of all of them."""

    name = "ghost"

    def __init__(self, config: GhostBallConfig | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.config = config or GhostBallConfig()
        #: the intents of the latest ``act_batch`` / ``decide_batch`` rows (INTENTS names)
        self.intents = np.empty(0, dtype=object)
        self._layouts: dict[int, tuple] = {}  # per batch size: the observed layouts' buffers
        self._work: dict[int, tuple] = {}  # per batch size: the round's buffers (``_round_work``)
        #: per batch size: the latest round's inputs and the kernel arguments built from them (``_middle``), reused
        #: while every input is the same object (the observations' rounds: their buffers and shared rows are)
        self._calls: dict[int, tuple[tuple, tuple]] = {}
        self._physics = False  # the push-outs and jumps have needed the physics' callback (built)

    # -- decisions --------------------------------------------------------------------------------

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        """The action for one decision: ``decide(view)``, or ``act_batch`` of one observation without a view."""
        if view is not None:
            return self.decide(view)
        out = self.act_batch(np.asarray(observation)[None])
        self.intent = self.intents[0]
        return out[0]

    def act_batch(self, obs: np.ndarray) -> np.ndarray:
        """The actions (n, 9) for observations (n, 54), as an env opponent (the positions and racks read from the
        observations with the config's ``assumed_noise``, in the round's one compiled call, no view per table); their
        intents in ``self.intents``."""
        out, self.intents = self._decide_observations(obs, _noise(self.config.assumed_noise), physics.DEFAULT_TABLE,
                                                      physics.DEFAULT_PARAMS, actions.DEFAULT_SCALE)
        return out

    def decide_observations(self, obs: np.ndarray, table: physics.Table = physics.DEFAULT_TABLE,
                            params: physics.PhysicsParams = physics.DEFAULT_PARAMS, noise: NoiseConfig | None = None,
                            scale: actions.ActionScale = actions.DEFAULT_SCALE) -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 and intents (n,) for observations (n, 54) of a game on ``table`` with
        ``params``, ``noise`` (default: the config's ``assumed_noise``) and action ``scale``: ``decide_batch`` of
        their ``TableView.from_observations`` without a view per row (``act_batch`` on the defaults)."""
        noise = noise if noise is not None else _noise(self.config.assumed_noise)
        return self._decide_observations(obs, noise, table, params, scale)

    def decide(self, view: TableView) -> np.ndarray:
        """The action for the position in ``view`` (``decide_batch`` of one view); its intent in ``self.intent``."""
        out, intents = self.decide_batch([view])
        self.intent, self.intents = intents[0], intents
        return out[0]

    def decide_batch(self, views: Sequence[TableView]) -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 for the positions in ``views`` and their intents (n,)."""
        rows = _Rows.from_views(views)
        return self._round(_NO_OBSERVATIONS, rows.pos, rows.on, rows.racks, rows.lowest, rows.balls, rows.aim,
                           rows.scale, rows.noise, rows.silent, rows.table, rows.params, rows)

    def _decide_observations(self, obs: np.ndarray, noise: NoiseConfig, t: physics.Table, p: physics.PhysicsParams,
                             scale: actions.ActionScale) -> tuple[np.ndarray, np.ndarray]:
        """``decide_observations``: the layouts and racks read inside the round's compiled call, into buffers kept
        per batch size."""
        obs = checked_observations(obs)
        N = obs.shape[0]
        layouts = self._layouts.get(N)
        if layouts is None:
            layouts = self._layouts[N] = (np.empty((N, physics.N_BALLS, 2)), np.empty((N, physics.N_BALLS), np.bool_),
                                          np.empty((N, RACK_W), np.int64), np.empty(N, np.int64))
        sigma, silent, aim, scale_rows = _same_rows(N, noise, scale)
        return self._round(obs, *layouts, _NO_BALLS, aim, scale_rows, sigma, silent, t, p, None, noise, scale)

    def _round(self, obs: np.ndarray, pos: np.ndarray, on: np.ndarray, racks: np.ndarray, lowest: np.ndarray,
               balls: np.ndarray, aim: np.ndarray, scale_rows: np.ndarray, sigma: np.ndarray, silent: np.ndarray,
               t: physics.Table, p: physics.PhysicsParams, rows: "_Rows | None", noise: NoiseConfig | None = None,
               scale: actions.ActionScale = actions.DEFAULT_SCALE) -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 and intents (n,) of a round: all of it one compiled call
        (``round_kernels.decide_round``: the observations read when ``obs`` has rows, the geometry, the throw-corrected
        aims, push-outs and jumps, the actions); a jump a cap stops in the air is ruled here with the largest caps
        (``_worth``) and the call made again (as ``rows``, rebuilt from the observations when None). The physics'
        callback and the jumps' launches (the physics' strike, compiled from Python) are built once a round needs
        them (``ROUND_PHYSICS``), so that a round without simulations compiles none of the physics."""
        cfg, N = self.config, len(pos)
        work = self._work.get(N)
        if work is None or work[0].shape[1] != _known_width(cfg.jump_samples):  # (a config with other samples)
            work = self._work[N] = _round_work(N, cfg.jump_samples)
        known, replay, intent = work[0], work[1], work[7]
        out = np.empty((N, actions.N_ACTION), dtype=np.float32)
        inputs = (pos, on, racks, lowest, balls, aim, scale_rows, sigma, silent, t, p, cfg, work, self._physics)
        held = self._calls.get(N)
        if held is not None and all(map(is_, held[0], inputs)):
            middle = held[1]
        else:
            middle = self._middle(inputs)
            self._calls[N] = (inputs, middle)
        args = (obs, *middle, out)
        ruled = False  # worths ruled here into ``known`` (kept per batch size) never outlive the round, raised or not
        try:
            while True:
                code = RK.decide_round(*args)
                if code == RK.ROUND_DONE:
                    break
                if code == RK.ROUND_PHYSICS:
                    self._physics = True
                    args = (obs, *self._middle((*inputs[:-1], True)), out)
                    continue
                if code == RK.ROUND_OVER:
                    raise rack_over(int(replay[0]))
                if code == RK.ROUND_NO_SPOT:
                    raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
                rows = rows if rows is not None else _Rows.from_observations(obs, noise, t, p, scale)
                r = int(replay[0])
                at, cue = np.array([r]), work[9][r:r + 1]
                if code == RK.ROUND_REFUSED:  # the physics' own message, else ours
                    physics.simulate(physics.BallState.from_packed(rows.states(at, cue)[0]),
                                     Shot(*replay[2:].tolist()), t, p, max_events=int(_PUSH_EVENTS),
                                     max_time=_PUSH_TIME)
                    raise ValueError(f"state: the physics refuses the layout of push-out roll of row {r}")
                known[r, int(replay[1])] = self._worth(rows.states(at, cue), rows.shot_racks(at), np.zeros(1, np.int64),
                                                       replay[None, 2:], t, p)[0]
                ruled = True
        finally:
            if ruled:
                known.fill(np.nan)
        if cfg.jumps:
            codes = intent.tolist()
            self.jumps["jump"] += codes.count(RK.JUMP)
            self.jumps["jump-pot"] += codes.count(RK.JUMP_POT)
        return out, _INTENT_NAMES[intent]

    @staticmethod
    def _middle(inputs: tuple) -> tuple:
        """``round_kernels.decide_round``'s arguments between the observations and ``out`` for ``_round``'s
        ``inputs`` (the layouts' arrays to ``silent``, the table, physics, config, round buffers and whether the
        physics is built): the jumps' launches and the physics' callback only once built."""
        pos, on, racks, lowest, balls, aim, scale_rows, sigma, silent, t, p, cfg, work, built = inputs
        launches = jump_launches(tuple(scale_rows[:, 2].tolist()), p) if built else _NO_LAUNCHES
        return (*OBSERVED_COLUMNS, pos, on, racks, lowest, balls, aim, scale_rows, sigma, silent, *launches,
                *_round_constants(t, p, cfg, built or cfg.correct_throw), *work)

    def place(self, view: TableView) -> tuple[float, float]:
        """Ball in hand: the spot behind the lowest ball with the easiest pot (a slight angle beats dead straight);
        without one, the nearest free point 0.3 m below the lowest ball (``place_batch`` of one view)."""
        return self.place_batch([view])[0]

    def place_batch(self, views: Sequence[TableView]) -> list[tuple[float, float]]:
        """``place`` for every view in one compiled call (``round_kernels.spot_rows``)."""
        rows = _Rows.from_views(views)
        return [(x, y) for x, y in self.place_layouts(rows.pos, rows.on, rows.lowest, rows.table, rows.params,
                                                      rows.aim).tolist()]

    def place_layouts(self, pos: np.ndarray, on: np.ndarray, lowest: np.ndarray, table: physics.Table,
                      params: physics.PhysicsParams, aim: np.ndarray) -> np.ndarray:
        """``place`` for layouts as arrays: ball centres (N, n, 2) [m], on-table masks (N, n), the lowest balls (N,)
        and the aim noise (N,) [deg] each table's pot ease assumes (``pots.aim_sigma``); the spots (N, 2), one
        compiled call."""
        return _spots(pos, on, lowest, table, params, aim)

    def safety(self, view: TableView, cue: np.ndarray) -> Shot:
        """Nothing makeable: a full hit on the lowest ball hard enough to reach a rail (hard into a cluster), else a
        one-rail kick (``round_kernels.safety_row``, as ``plan_rows`` plays it)."""
        t, p = view.table, view.params
        pos = np.require(view.balls.pos, np.float64, "CW")
        out = np.empty(5)
        RK.safety_row(float(cue[0]), float(cue[1]), pos, np.require(view.on, np.bool_, "CW"), int(view.rack.lowest),
                      float(p.R), (2.0 * p.R) ** 2, float(t.width), float(t.length), physics_row(p), GHOST_MIN_SPEED,
                      GHOST_MAX_SPEED, np.empty_like(pos), out)
        return Shot(*out.tolist())

    @staticmethod
    def _worth(states: np.ndarray, racks: np.ndarray, which: np.ndarray, shots: np.ndarray, t: physics.Table,
               p: physics.PhysicsParams) -> np.ndarray:
        """The worth of every strike ``shots[i]`` from packed state ``states[which[i]]``, all simulated and ruled in
        one compiled call (``ruled_rows``, as the deciding player's ordinary shot from rack row ``racks[which[i]]``):
        0 for a foul, a layout the physics refuses or a shot still in the air at the largest caps (the env would
        void it), 2 when it pots, 1 otherwise."""
        foul, potted, void = ruled_rows(states, racks, which, shots, t, p, JUMP_MAX_EVENTS, JUMP_MAX_TIME)
        return np.where(foul | void, 0.0, np.where(potted > 0, 2.0, 1.0))

class _Rows(NamedTuple):
    """The positions of a decision round as arrays, one row per table: what every stage reads.

    Attributes:
        pos, on: ball centres (N, n, 2) [m] and the on-table mask (N, n).
        lowest: the ball to hit first (N,).
        racks: the rack states packed (N, RACK_W) (``RackState.packed``, the deciding player as the shooter).
        noise, silent, aim: the execution noise's sigmas (N, 5), whether it is silent (N,), the aim noise the
            ease estimates assume (N,) [deg] (``pots.aim_sigma``).
        scale: the action scale rows (N, 4) (``ActionScale.row``).
        table, params: the one table and set of physics constants of the round.
        balls: the balls packed (N, n, 9) (``BallState.packed``) when they are more than ``pos`` and ``on`` say
            (views); None: at rest at ``pos`` where ``on``, off the table elsewhere (observations).
    """

    pos: np.ndarray
    on: np.ndarray
    lowest: np.ndarray
    racks: np.ndarray
    noise: np.ndarray
    silent: np.ndarray
    aim: np.ndarray
    scale: np.ndarray
    table: physics.Table
    params: physics.PhysicsParams
    balls: np.ndarray | None = None

    @classmethod
    def from_views(cls, views: Sequence[TableView]) -> "_Rows":
        """The rows of ``views`` (one table and one set of physics constants for all)."""
        if any(v.table != views[0].table or v.params != views[0].params for v in views):
            raise ValueError("views: expected one table and one set of physics parameters for the whole batch")
        racks = np.array([shot_rack(v).packed() for v in views], dtype=np.int64).reshape(-1, RACK_W)
        racks[:, RackCol.PHASE] = [PhaseCode[v.rack.phase.name] for v in views]
        racks[:, RackCol.IN_HAND] = [BallInHandCode[v.rack.ball_in_hand.name] for v in views]
        balls = np.stack([v.balls.packed() for v in views]) if views else np.empty((0, physics.N_BALLS, 9))
        noise = [v.noise for v in views]
        return cls(np.ascontiguousarray(balls[:, :, :2]), balls[:, :, S_MOTION] <= int(physics.Motion.ROLLING),
                   np.array([v.rack.lowest for v in views], dtype=np.int64), racks,
                   np.array([z.sigmas for z in noise]).reshape(-1, 5),
                   np.array([z.silent for z in noise], dtype=bool), np.array([aim_sigma(z) for z in noise]),
                   np.array([v.scale.row for v in views]).reshape(-1, 4),
                   views[0].table if views else physics.DEFAULT_TABLE,
                   views[0].params if views else physics.DEFAULT_PARAMS, balls)

    @classmethod
    def from_observations(cls, obs: np.ndarray, noise: NoiseConfig, table: physics.Table = physics.DEFAULT_TABLE,
                          params: physics.PhysicsParams = physics.DEFAULT_PARAMS,
                          scale: actions.ActionScale = actions.DEFAULT_SCALE) -> "_Rows":
        """The rows of observations (N, 54) as ``TableView.from_observations`` reads them (player 0 to shoot), without
        a view per row."""
        pos, on, racks, lowest = observed(obs, table, params)
        return cls(pos, on, lowest, racks, *_same_rows(len(on), noise, scale), table, params)

    def states(self, which: np.ndarray, cues: np.ndarray) -> np.ndarray:
        """The balls of rows ``which`` packed (M, n, 9), the cue ball at rest at ``cues`` (M, 2) (placed when in
        hand: ``BallState.place``)."""
        if self.balls is not None:
            out = self.balls[which].copy()
        else:
            out = np.zeros((len(which), self.pos.shape[1], 9))
            out[:, :, :2] = self.pos[which]
            out[:, :, S_MOTION] = np.where(self.on[which], int(physics.Motion.STATIONARY), int(physics.Motion.POCKETED))
            out[:, :, S_POCKET] = -1.0
        out[:, 0, :2] = cues
        out[:, 0, 2:7] = 0.0
        out[:, 0, S_MOTION] = int(physics.Motion.STATIONARY)
        out[:, 0, S_POCKET] = -1.0
        return out

    def shot_racks(self, which: np.ndarray) -> np.ndarray:
        """The racks (M, RACK_W) a shot by the deciding player of rows ``which`` is ruled from
        (``outcome.shot_rack``)."""
        out = self.racks[which].copy()
        out[:, RackCol.PHASE] = PhaseCode.NORMAL
        out[:, RackCol.IN_HAND] = BallInHandCode.NONE
        return out


def _spots(pos: np.ndarray, on: np.ndarray, lowest: np.ndarray, t: physics.Table, p: physics.PhysicsParams,
           aim: np.ndarray) -> np.ndarray:
    """The ball-in-hand spots (N, 2) of layouts (``round_kernels.spot_rows``: the easiest pot behind the lowest
    ball, turned 10° or 20° at most, else the nearest free point 0.3 m below it), one compiled call."""
    out = np.empty((len(pos), 3))
    RK.spot_rows(np.require(pos, np.float64, "CW"), np.require(on, np.bool_, "CW"), np.require(lowest, np.int64, "CW"),
                 np.require(aim, np.float64, "CW"), *_spot_constants(t, p), out)
    if len(out) and not out[:, 0].all():
        raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
    return out[:, 1:]


@lru_cache(maxsize=8)
def _spot_constants(t: physics.Table, p: physics.PhysicsParams) -> tuple:
    """``round_kernels.spot_rows``' arguments from ``aims`` to ``gap`` that a table and its physics fix (built
    once)."""
    return (*pocket_geometry(t), *_spot_lines(), float(p.R), float(t.width), float(t.length), float(t.head_string_y),
            _rims(t), SPOT_MARGIN, placement.GAP)


def _spot_lines() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The spots GhostBall tries behind the ball (``pots.cue_spots``' distances, turns of 0°, ±10° and ±20°)."""
    return spot_lines((0.2, 0.3, 0.45), (10.0, -10.0, 0.0, 20.0, -20.0))


@lru_cache(maxsize=8)
def _rolls(params: physics.PhysicsParams) -> np.ndarray:
    """The push-outs' soft rolls (36, 5) (V0, phi, theta, a, b): every 20°, at two lengths (0.3 and 0.7 m)."""
    out = np.array([(max(rolling_speed_for(0.0, dist, 0.0, 0.0, params) * 0.55, 0.3), float(angle), 0.0, 0.0, 0.0)
                    for angle in np.arange(0.0, 360.0, 20.0) for dist in (0.3, 0.7)])
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _same_rows(N: int, noise: NoiseConfig, scale: actions.ActionScale = actions.DEFAULT_SCALE
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The noise sigmas (N, 5), silent flags (N,), aim noise (N,) and action scale rows (N, 4) of N rows that
    share ``noise`` and ``scale``: built once per N (shared: never write to them)."""
    return (np.tile(noise.sigmas, (N, 1)), np.full(N, noise.silent), np.full(N, aim_sigma(noise)),
            np.tile(scale.row, (N, 1)))


def _known_width(samples: int, finalists: int = FINALISTS) -> int:
    """The columns of a round's ``known`` worths: one per jump candidate, then one per noisy sample of each finalist
    and of the safety."""
    return MAX_JUMPS + (finalists + 1) * samples


def _round_work(N: int, samples: int, finalists: int = FINALISTS) -> tuple:
    """``round_kernels.decide_round``'s buffers of N rows from ``known`` (NaN: no worth known yet) to ``push``."""
    return (np.full((N, _known_width(samples, finalists)), np.nan), np.zeros(7), np.empty((N, 5)),
            np.empty(N, np.bool_), np.empty(N, np.bool_), np.empty((N, 2)), np.empty(N, np.bool_), np.empty(N, np.int64),
            np.empty(N, np.int64), np.empty((N, 2)), np.empty((N, K.OPT_W)), np.empty(N, np.bool_))


@lru_cache(maxsize=8)
def _round_constants(t: physics.Table, p: physics.PhysicsParams, cfg: GhostBallConfig, callback: bool) -> tuple:
    """``round_kernels.decide_round``'s arguments from ``aims`` to ``simultaneous`` that the table, the physics and
    the config fix (built once): ``plan_rows``' (``_plan_constants``, the empty template, ``_aim_constants``), the
    push-outs' and the jumps' (``_rolls``, ``jump_geometry``, ``_normals``, ``_sim_constants``); the simulations'
    physics callback only with ``callback`` (else 0: the round returns ``ROUND_PHYSICS`` when it needs it)."""
    n = cfg.jump_samples
    g, clearance, offsets = jump_geometry(t, p)[-3:]
    return (*_plan_constants(t, p, cfg), empty_packed(physics.N_BALLS), *_aim_constants(t, p, cfg),
            physics_address() if callback else 0, np.bool_(cfg.jumps), _rolls(p), _PUSH_EVENTS, _PUSH_TIME, g,
            clearance, offsets, ELEVATIONS, FACTORS, np.int64(FINALISTS), np.int64(n), _normals((FINALISTS + 1) * n),
            LIMITS, *_sim_constants(t, p)[6:])


#: The push-outs' simulation caps [events, s].
_PUSH_EVENTS, _PUSH_TIME = np.int64(256), 20.0
_NO_OBSERVATIONS = np.empty((0, OBS_SIZE))
_NO_BALLS = np.empty((0, physics.N_BALLS, 9))
_NO_LAUNCHES = (np.empty((0, len(ELEVATIONS))), np.empty((0, len(ELEVATIONS), 2)))


@lru_cache(maxsize=8)
def _plan_constants(t: physics.Table, p: physics.PhysicsParams, cfg: GhostBallConfig) -> tuple:
    """The arguments of ``round_kernels.plan_rows`` that a table, its physics and the config fix, from ``aims`` to
    ``cfg`` (built once)."""
    return (*pocket_geometry(t), *_spot_lines(), float(p.R), (2.0 * p.R) ** 2, float(t.width), float(t.length),
            float(t.head_string_y), _rims(t), SPOT_MARGIN, placement.GAP, physics_row(p), _config_row(cfg))


@lru_cache(maxsize=8)
def _aim_constants(t: physics.Table, p: physics.PhysicsParams, cfg: GhostBallConfig) -> tuple:
    """``round_kernels.plan_rows``' arguments of the pots' throw correction after ``template``, from ``iterations``
    (2, 0 without ``correct_throw``: then the physics is never reached, its callback never built) to ``tol``."""
    address = physics_address() if cfg.correct_throw else 0
    return (address, np.int64(2 if cfg.correct_throw else 0), t.segments, t.jaws, t.pockets, params_array(p), t.rail,
            OVERLAP_TOL)


@lru_cache(maxsize=8)
def _sim_constants(t: physics.Table, p: physics.PhysicsParams) -> tuple:
    """``round_kernels.jump_round``'s simulation arguments from ``segments`` to ``simultaneous``: the table, the
    physics and the caps of a jump's ruled shot (``_worth``'s: 1000 events, 60 s), built once."""
    return (t.segments, t.jaws, t.pockets, params_array(p), t.rail, OVERLAP_TOL, np.int64(JUMP_MAX_EVENTS), JUMP_MAX_TIME,
            SIMULTANEOUS_S)


@lru_cache(maxsize=8)
def _normals(count: int) -> np.ndarray:
    """``count`` rows of 5 standard normals from a generator seeded 0: the errors of a jump finalist's noisy samples
    (the same draws ``noise.perturb`` makes from ``default_rng(0)``, five a shot); shared: never write to it (left
    writable, as the noise kernel is compiled for the env's writable draws)."""
    return np.random.default_rng(0).standard_normal((count, 5))


@lru_cache(maxsize=8)
def _noise(spec: str) -> NoiseConfig:
    """``make_noise(spec)``, once per preset name."""
    return make_noise(spec)


def _rims(table: physics.Table) -> np.ndarray:
    """The pocket capture circles as the placement kernels read them (as ``nineball_env.placement`` passes them)."""
    return np.ascontiguousarray(table.pockets, dtype=np.float64)


@lru_cache(maxsize=8)
def _config_row(config: GhostBallConfig) -> np.ndarray:
    """The config as ``round_kernels.plan_rows`` reads it (its ``C_*`` columns), read-only."""
    out = np.array([config.arrive_speed, config.stun_cut, config.combo_min_ease, config.safety_below,
                    config.push_below, config.pass_back_below, config.break_speed, GHOST_MIN_SPEED, GHOST_MAX_SPEED],
                   dtype=np.float64)
    out.setflags(write=False)
    return out


_INTENT_NAMES = np.array(RK.INTENT_NAMES, dtype=object)
