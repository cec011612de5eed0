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

A round of decisions is a few compiled calls whatever the number of tables: the geometry of every table in one
(``agents.shots.round_kernels.plan_rows``), then only the simulations it asks for (throw-corrected aims, push-outs,
jumps), each one call for the tables that ask (the jumps' candidates, simulations and choice all in
``round_kernels.jump_round``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

import physics
from agents.protocol import TableView, ViewAgent, observed
from agents.shots import kernels as K
from agents.shots import round_kernels as RK
from agents.shots.aim import empty_packed
from agents.shots.jumps import ELEVATIONS, FACTORS, MAX_JUMPS, jump_geometry, jump_launches
from agents.shots.outcome import ruled_rows, settled_rows, shot_rack
from agents.shots.pots import (SPOT_MARGIN, aim_sigma, physics_row, pocket_geometry, pot_rows, rolling_speed_for,
                               spot_lines)
from nineball_env import actions, placement
from nineball_env.kernels.codes import RACK_W, BallInHandCode, PhaseCode, RackCol
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
        observations with the config's ``assumed_noise``, in two compiled calls, no view per table); their intents
        in ``self.intents``."""
        out, self.intents = self._decide_rows(_Rows.from_observations(obs, _noise(self.config.assumed_noise)))
        return out

    def decide_observations(self, obs: np.ndarray, table: physics.Table = physics.DEFAULT_TABLE,
                            params: physics.PhysicsParams = physics.DEFAULT_PARAMS, noise: NoiseConfig | None = None,
                            scale: actions.ActionScale = actions.DEFAULT_SCALE) -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 and intents (n,) for observations (n, 54) of a game on ``table`` with
        ``params``, ``noise`` (default: the config's ``assumed_noise``) and action ``scale``: ``decide_batch`` of
        their ``TableView.from_observations`` without a view per row (``act_batch`` on the defaults)."""
        noise = noise if noise is not None else _noise(self.config.assumed_noise)
        return self._decide_rows(_Rows.from_observations(obs, noise, table, params, scale))

    def decide(self, view: TableView) -> np.ndarray:
        """The action for the position in ``view`` (``decide_batch`` of one view); its intent in ``self.intent``."""
        out, intents = self.decide_batch([view])
        self.intent, self.intents = intents[0], intents
        return out[0]

    def decide_batch(self, views: Sequence[TableView]) -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 for the positions in ``views`` and their intents (n,)."""
        return self._decide_rows(_Rows.from_views(views))

    def _decide_rows(self, rows: "_Rows") -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 and intents (n,) of a round's rows: the geometry of every row and the pots'
        throw-corrected aims in one compiled call (``round_kernels.plan_rows``), then the simulations it asks for,
        each one compiled call over the rows that need it (push-outs, jumps), and their actions in one more."""
        cfg, t, p = self.config, rows.table, rows.params
        n, n_balls = rows.pos.shape[:2]
        shots, spots, cues, best = np.empty((n, 5)), np.empty((n, 2)), np.empty((n, 2)), np.empty((n, K.OPT_W))
        has_shot, placed, pass_back = np.empty(n, np.bool_), np.empty(n, np.bool_), np.empty(n, np.bool_)
        intent, stage = np.empty(n, np.int64), np.empty(n, np.int64)
        out = np.empty((n, actions.N_ACTION), dtype=np.float32)
        asks = RK.plan_rows(rows.pos, rows.on, rows.lowest, rows.racks, rows.aim, rows.scale,
                            *_plan_constants(t, p, cfg), empty_packed(n_balls), *_aim_constants(t, p, cfg), shots,
                            has_shot, placed, spots, pass_back, intent, stage, cues, best, out)
        if asks < 0:
            raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
        if not asks:
            return out, _INTENT_NAMES[intent]
        encoding = (float(p.R), float(t.width), float(t.length), float(t.head_string_y))
        if asks & (RK.ASK_PUSH | RK.ASK_JUMP):  # the simulations the geometry asks for, one call each
            push, changed = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
            if asks & RK.ASK_PUSH:
                asked = (stage & RK.ASK_PUSH).nonzero()[0]
                roll = self._push_rolls(rows, asked, cues[asked])
                pushed = asked[roll >= 0]
                shots[pushed], intent[pushed] = _rolls(p)[roll[roll >= 0]], RK.PUSH_OUT
                push[pushed], changed[pushed] = True, True
            weak = ((stage & RK.ASK_JUMP).astype(bool) & ~push).nonzero()[0] if asks & RK.ASK_JUMP else stage[:0]
            if cfg.jumps and len(weak):
                jumps, kind = self._jumps(rows, weak, cues[weak], shots[weak])
                found = kind >= 0
                jumped = weak[found]
                shots[jumped], changed[jumped] = jumps[found], True
                intent[jumped] = np.where(kind[found] == 0, RK.JUMP, RK.JUMP_POT)
                self.jumps["jump"] += int(np.count_nonzero(kind == 0))
                self.jumps["jump-pot"] += int(np.count_nonzero(kind == 1))
            again = changed.nonzero()[0]
            if len(again):
                actions_again = np.empty((len(again), actions.N_ACTION), dtype=np.float32)
                RK.encode_rows(shots[again], has_shot[again], placed[again], spots[again], rows.racks[again],
                               push[again], pass_back[again], *encoding, rows.scale[again], actions_again)
                out[again] = actions_again
        return out, _INTENT_NAMES[intent]

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

    def _jumps(self, rows: "_Rows", which: np.ndarray, cues: np.ndarray, safeties: np.ndarray, finalists: int = 4
               ) -> tuple[np.ndarray, np.ndarray]:
        """For rows ``which`` (cue balls at ``cues``), a jump over the balls blocking the lowest one, when one scores
        better than its safety (the kick): the strikes (N, 5) and their kind (N,): 0 a jump at the ball, 1 a jump
        pot, -1 none (nothing blocks the path or no jump is better).

        Every candidate (``jumps.jump_rows``' kernel) is simulated without noise; the legal ones (the lowest ball
        first, no foul) are worth 1, and 2 when they pot (``_worth``). The best ``finalists`` and the safety are then
        simulated ``jump_samples`` times under the game's noise, from fixed draws (``_normals``: a row's choice never
        depends on the other rows); the best mean wins if it beats the safety's. All of it is one compiled call
        (``round_kernels.jump_round``, which skips the simulations that cannot change the choice); a shot a cap stops
        with a ball in the air is ruled here with the largest caps (``_worth``) and the call made again.
        """
        t, p = rows.table, rows.params
        n = self.config.jump_samples
        strikes, kind = np.zeros((len(which), 5)), np.empty(len(which), dtype=np.int64)
        tips, launch = jump_launches(tuple(rows.scale[which, 2].tolist()), p)
        known = np.full((len(which), MAX_JUMPS + (finalists + 1) * n), np.nan)
        replay = np.zeros(7)
        balls = rows.balls[which] if rows.balls is not None else np.empty((0, *rows.pos.shape[1:2], 9))
        args = (physics_address(), cues, rows.pos[which], rows.on[which], rows.lowest[which], balls, rows.racks[which],
                safeties, rows.noise[which], rows.silent[which], *jump_geometry(t, p), rows.scale[which, 1], ELEVATIONS,
                tips, launch, FACTORS, np.int64(finalists), np.int64(n), _normals((finalists + 1) * n), LIMITS,
                *_sim_constants(t, p), known, replay, strikes, kind)
        while RK.jump_round(*args) == RK.REPLAY:
            r, slot = int(replay[0]), int(replay[1])
            at = which[r:r + 1]
            known[r, slot] = self._worth(rows.states(at, cues[r:r + 1]), rows.shot_racks(at), np.zeros(1, np.int64),
                                         replay[None, 2:], t, p)[0]
        return strikes, kind

    @staticmethod
    def _worth(states: np.ndarray, racks: np.ndarray, which: np.ndarray, shots: np.ndarray, t: physics.Table,
               p: physics.PhysicsParams) -> np.ndarray:
        """The worth of every strike ``shots[i]`` from packed state ``states[which[i]]``, all simulated and ruled in
        one compiled call (``ruled_rows``, as the deciding player's ordinary shot from rack row ``racks[which[i]]``):
        0 for a foul, a layout the physics refuses or a shot still in the air at the largest caps (the env would
        void it), 2 when it pots, 1 otherwise."""
        foul, potted, void = ruled_rows(states, racks, which, shots, t, p, JUMP_MAX_EVENTS, JUMP_MAX_TIME)
        return np.where(foul | void, 0.0, np.where(potted > 0, 2.0, 1.0))

    @staticmethod
    def _push_rolls(rows: "_Rows", which: np.ndarray, cues: np.ndarray) -> np.ndarray:
        """Push-outs of rows ``which`` (cue balls at ``cues``): soft rolls every 20° at two lengths (``_rolls``),
        all simulated in one compiled call (``settled_rows``), the pots they leave found in one more; per row the
        index of the first roll whose best pot's ease is nearest 0.5, of those that keep every ball on the table,
        or -1 when none does."""
        if not len(which):
            return np.empty(0, dtype=np.int64)
        t, p = rows.table, rows.params
        rolls = _rolls(p)
        states = rows.states(which, cues)
        per = np.repeat(np.arange(len(which)), len(rolls))
        ends = settled_rows(states, per, np.tile(rolls, (len(which), 1)), t, p, max_events=256, max_time=20.0)
        on_end = ends[:, :, S_MOTION] <= int(physics.Motion.ROLLING)
        keeps = on_end[:, 0] & np.all(on_end == (states[:, :, S_MOTION] <= int(physics.Motion.ROLLING))[per], axis=1)
        kept = np.flatnonzero(keeps)
        at = which[per[kept]]
        found, n = pot_rows(ends[kept, 0, :2], ends[kept, :, :2], on_end[kept], rows.lowest[at], t, p, rows.aim[at],
                            combos=False)
        gaps = np.full(len(per), np.inf)
        gaps[kept] = np.abs(np.where(n > 0, found[:, 0, K.O_EASE], 0.0) - 0.5)
        gaps = gaps.reshape(len(which), len(rolls))
        first = np.argmin(gaps, axis=1)  # the first of the nearest, as a strict < scan keeps
        return np.where(gaps[np.arange(len(which)), first] < 1.0, first, -1)


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
    dist, c, s = _spot_lines()
    RK.spot_rows(np.require(pos, np.float64, "CW"), np.require(on, np.bool_, "CW"), np.require(lowest, np.int64, "CW"),
                 np.require(aim, np.float64, "CW"), *pocket_geometry(t), dist, c, s, float(p.R), float(t.width),
                 float(t.length), float(t.head_string_y), _rims(t), SPOT_MARGIN, placement.GAP, out)
    if len(out) and not out[:, 0].all():
        raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
    return out[:, 1:]


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
