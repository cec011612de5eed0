"""GhostBallAgent: geometric aiming at the lowest ball into the easiest pocket, with a few rules of thumb.

It ranks every clear pot of the lowest ball (and combinations into the 9) by the estimated chance
of success (cut angle, both distances, the pocket's window: ``agents.shots.pots``), corrects the aim
for throw with a two-ball simulation, picks a speed that gets the ball to the pocket, places the
cue ball for an easy shot with ball in hand, pushes out or passes back when the shot is poor,
and plays a full-ball (or one-rail kick) safety when nothing is makeable. When a ball blocks the path to the
lowest one it also considers jump shots over it (``agents.shots.jumps.jump_candidates``: at the ball, or jump pots)
and plays the best of them instead of the kick when a few simulations under the game's noise (from a fixed
seed: the agent stays deterministic) score it higher. It never looks ahead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import physics
from agents.protocol import TableView, ViewAgent
from agents.shots import kernels as K
from agents.shots.aim import corrected_phis, direction_deg, path_clear
from agents.shots.jumps import JumpCandidate, jump_candidates
from agents.shots.outcome import ruled_shots, settled, shot_rack
from agents.shots.pots import PotOption, aim_sigma, cue_spot_rows, pot_rows, rolling_speed_for
from nineball_env import actions, placement
from nineball_env.noise import perturb
from nineball_env.rules import Phase
from physics import Shot
from physics.kernels.codes import S_MOTION

#: [m/s] the cue speeds of GhostBall's ordinary shots (the macro layer refines its shots within them; physics allows 12)
GHOST_MIN_SPEED, GHOST_MAX_SPEED = 0.6, 7.0
CLUSTER_SPEED = 6.0  # [m/s] safety speed into a cluster of balls


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

    def act_batch(self, obs: np.ndarray) -> np.ndarray:
        """The actions (n, 9) for observations (n, 54), as an env opponent (the views rebuilt with the config's
        ``assumed_noise`` in one compiled call); their intents in ``self.intents``."""
        out, intents = self.decide_batch(TableView.from_observations(obs, noise=self.config.assumed_noise))
        self.intents = intents
        return out

    def decide(self, view: TableView) -> np.ndarray:
        """The action for the position in ``view`` (``decide_batch`` of one view); its intent in ``self.intent``."""
        out, intents = self.decide_batch([view])
        self.intent, self.intents = intents[0], intents
        return out[0]

    def decide_batch(self, views: Sequence[TableView]) -> tuple[np.ndarray, np.ndarray]:
        """The actions (n, 9) float32 for the positions in ``views`` and their intents (n,), stage by stage over
        every view that reaches the stage (each stage's simulations and geometry one compiled call for all)."""
        cfg = self.config
        n = len(views)
        if any(v.table != views[0].table or v.params != views[0].params for v in views):
            raise ValueError("views: expected one table and one set of physics parameters for the whole batch")
        out = np.empty((n, actions.N_ACTION), dtype=np.float32)
        intents = np.empty(n, dtype=object)
        phases = [v.rack.phase for v in views]
        choice = [i for i in range(n) if phases[i] is Phase.PUSH_OUT_CHOICE]
        for i, options in zip(choice, self.options_batch([views[i] for i in choice],
                                                         [views[i].balls.pos[0] for i in choice])):
            ease = options[0].ease if options else 0.0
            out[i], intents[i] = actions.choice_action(pass_back=ease < cfg.pass_back_below), "choice"
        for i in range(n):
            if phases[i] is Phase.BREAK:
                spot, shot = self.break_shot(views[i])
                out[i], intents[i] = self._encode(views[i], shot, spot), "break"
        play = [i for i in range(n) if phases[i] not in (Phase.PUSH_OUT_CHOICE, Phase.BREAK)]
        spots: dict[int, tuple[float, float] | None] = dict.fromkeys(play)
        in_hand = [i for i in play if views[i].cue_in_hand]
        spots.update(zip(in_hand, self.place_batch([views[i] for i in in_hand])))
        cues = {i: np.asarray(spots[i] if spots[i] is not None else views[i].balls.pos[0], dtype=float) for i in play}
        best = {i: self.choose(o) for i, o in zip(play, self.options_batch([views[i] for i in play],
                                                                          [cues[i] for i in play]))}
        may_push = [i for i in play if phases[i] is Phase.PUSH_OUT_ALLOWED and (best[i] is None or
                                                                             best[i].ease < cfg.push_below)]
        pushes = dict(zip(may_push, self.push_outs([views[i] for i in may_push], [cues[i] for i in may_push])))
        rest = []
        for i in play:
            if pushes.get(i) is not None:
                out[i], intents[i] = self._encode(views[i], pushes[i], spots[i], push_out=True), "push-out"
            else:
                rest.append(i)
        weak = [i for i in rest if best[i] is None or best[i].ease < cfg.safety_below]
        safeties = [self.safety(views[i], cues[i]) for i in weak]
        jumps = (self.jump_batch([views[i] for i in weak], [cues[i] for i in weak], safeties) if cfg.jumps
                 else [None] * len(weak))
        for i, safety, jump in zip(weak, safeties, jumps):
            if jump is not None:
                intents[i] = "jump" if jump.pocket is None else "jump-pot"
                self.jumps[intents[i]] += 1
                out[i] = self._encode(views[i], jump.shot, spots[i])
            else:
                out[i], intents[i] = self._encode(views[i], safety, spots[i]), "safety"
        pots = [i for i in rest if not (best[i] is None or best[i].ease < cfg.safety_below)]
        for i, shot in zip(pots, self.pot_shots([views[i] for i in pots], [cues[i] for i in pots],
                                                [best[i] for i in pots])):
            out[i], intents[i] = self._encode(views[i], shot, spots[i]), "pot"
        return out, intents

    def options_batch(self, views: Sequence[TableView], cues: Sequence[np.ndarray]) -> list[list[PotOption]]:
        """``options`` of every view (cue position ``cues[i]``) in one compiled call."""
        if not views:
            return []
        rows, counts = pot_rows(np.stack(cues), np.stack([v.balls.pos for v in views]), np.stack([v.on for v in views]),
                                [v.rack.lowest for v in views], views[0].table, views[0].params,
                                np.array([aim_sigma(v.noise) for v in views]))
        return [[PotOption.from_row(r) for r in rows[k, :int(counts[k])]] for k in range(len(views))]

    def options(self, view: TableView, cue: np.ndarray) -> list[PotOption]:
        """Every clear pot from cue position ``cue``, easiest first (``options_batch`` of one view)."""
        return self.options_batch([view], [cue])[0]

    def choose(self, options: list[PotOption]) -> PotOption | None:
        """The easiest direct pot, or a combination on the 9 when it is easy and easier still."""
        direct = next((o for o in options if not o.combo), None)
        combo = next((o for o in options if o.combo), None)
        if combo is not None and combo.ease >= self.config.combo_min_ease and (
                direct is None or combo.ease > direct.ease):
            return combo
        return direct

    def pot_shot(self, view: TableView, cue: np.ndarray, option: PotOption) -> Shot:
        """Speed for the distance, a little draw on straight shots, aim corrected for throw (``pot_shots`` of one)."""
        return self.pot_shots([view], [cue], [option])[0]

    def pot_shots(self, views: Sequence[TableView], cues: Sequence[np.ndarray], options: Sequence[PotOption]
                  ) -> list[Shot]:
        """``pot_shot`` of every view, the throw corrections simulated in one compiled call (``corrected_phis``)."""
        shots = []
        for view, option in zip(views, options):
            V = min(max(rolling_speed_for(option.d_cue, option.d_obj, option.cut, self.config.arrive_speed,
                                          view.params), GHOST_MIN_SPEED), GHOST_MAX_SPEED)
            shots.append(Shot(V0=V, phi=option.phi, b=-0.3 if option.cut < self.config.stun_cut else 0.0))
        if not self.config.correct_throw or not shots:
            return shots
        phis = corrected_phis(np.stack(cues), np.stack([v.balls.pos[o.target] for v, o in zip(views, options)]),
                              [o.target for o in options], [o.direction for o in options],
                              np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots]), views[0].table,
                              views[0].params, n_balls=views[0].balls.n_balls)
        return [Shot(V0=s.V0, phi=float(phi), b=s.b) for s, phi in zip(shots, phis)]

    def break_shot(self, view: TableView) -> tuple[tuple[float, float], Shot]:
        """From the centre of the table just behind the head string, hard at the 1 ball."""
        t, p = view.table, view.params
        others = view.balls.pos[view.on & (np.arange(len(view.on)) > 0)]
        spot = placement.nearest_free(t.width / 2.0, t.head_string_y - 0.03, others, t, p, kitchen=True)
        return spot, Shot(V0=self.config.break_speed, phi=direction_deg(spot, view.balls.pos[view.rack.lowest]))

    def place(self, view: TableView) -> tuple[float, float]:
        """Ball in hand: the spot behind the lowest ball with the easiest pot (a slight angle beats dead straight)
        (``place_batch`` of one view)."""
        return self.place_batch([view])[0]

    def place_batch(self, views: Sequence[TableView]) -> list[tuple[float, float]]:
        """``place`` of every view, the pots of all their spots found in one compiled call (``cue_spot_rows``);
        without a spot, the nearest free point 0.3 m below the lowest ball."""
        if not views:
            return []
        t, p = views[0].table, views[0].params
        found = cue_spot_rows([v.balls.pos for v in views], [v.on for v in views], [v.rack.lowest for v in views],
                              t, p, [aim_sigma(v.noise) for v in views], turns=(10.0, -10.0, 0.0, 20.0, -20.0))
        out = []
        for view, (points, rows) in zip(views, found):
            if len(points):
                score = rows[:, K.O_EASE] - np.where(rows[:, K.O_CUT] < 2.0, 0.02, 0.0)
                x, y = points[int(np.argmax(score))].tolist()  # the first of the best, as max() takes
                out.append((x, y))
                continue
            pos, lowest = view.balls.pos, view.rack.lowest
            on = view.on.copy()
            on[0] = False
            out.append(placement.nearest_free(pos[lowest][0], pos[lowest][1] - 0.3, pos[on], t, p))
        return out

    def safety(self, view: TableView, cue: np.ndarray) -> Shot:
        """Nothing makeable: a full hit on the lowest ball hard enough to reach a rail (hard into a cluster), else a
        one-rail kick."""
        pos, on, lowest, p, t = view.balls.pos, view.on, view.rack.lowest, view.params, view.table
        obj = pos[lowest]
        obstacles = pos[[b for b in range(1, 10) if on[b] and b != lowest]]
        if path_clear(cue, obj, obstacles, p.R):
            d = float(np.hypot(*(obj - cue)))
            V = rolling_speed_for(d, 0.6, 0.0, 0.4, p)
            if len(obstacles) and np.sum(np.hypot(*(obstacles - obj).T) < 0.15) >= 2:
                V = CLUSTER_SPEED  # the ball sits in a cluster (a rack): hit it hard enough to reach a rail
            return Shot(V0=min(max(V, GHOST_MIN_SPEED), GHOST_MAX_SPEED), phi=direction_deg(cue, obj), b=-0.2)
        kick = self._kick(cue, obj, obstacles, t, p.R)
        if kick is not None:
            return Shot(V0=3.0, phi=kick)
        return Shot(V0=2.5, phi=direction_deg(cue, obj))

    def jump(self, view: TableView, cue: np.ndarray, safety: Shot, finalists: int = 4) -> JumpCandidate | None:
        """A jump over the balls blocking the lowest one, when one scores better than ``safety`` (the kick)
        (``jump_batch`` of one view)."""
        return self.jump_batch([view], [cue], [safety], finalists)[0]

    def jump_batch(self, views: Sequence[TableView], cues: Sequence[np.ndarray], safeties: Sequence[Shot],
                   finalists: int = 4) -> list[JumpCandidate | None]:
        """For every view, a jump over the balls blocking the lowest one, when one scores better than its safety
        (the kick); None when nothing blocks the path or no jump is better.

        Every candidate (``jump_candidates``) is simulated once without noise; the legal ones (the lowest ball
        first, no foul) are worth 1, and 2 when they pot. The best ``finalists`` and the safety are then simulated
        ``jump_samples`` times under the game's noise, from a fixed seed per view; the best mean wins if it beats
        the safety's. The simulations of all views are one compiled call per round (``ruled_shots``).
        """
        candidates = [jump_candidates(cue, v.balls.pos, v.on, v.rack.lowest, v.table, v.params,
                                      tip_max=v.scale.tip_max, v_max=v.scale.v_max) for v, cue in zip(views, cues)]
        rows = [k for k in range(len(views)) if candidates[k]]
        states = {k: _with_cue(views[k], cues[k]) for k in rows}
        values = self._jump_values(views, states, {k: [c.shot for c in candidates[k]] for k in rows})
        contenders: dict[int, list[JumpCandidate]] = {}
        for k in rows:
            scored = [(v, -i, c) for i, (v, c) in enumerate(zip(values[k], candidates[k]))]
            scored = sorted((s for s in scored if s[0] > 0.0), key=lambda s: (s[0], s[1]), reverse=True)[:finalists]
            if scored:
                contenders[k] = [c for _, _, c in scored]
        n = self.config.jump_samples
        noisy: dict[int, list[Shot]] = {}
        for k, finals in contenders.items():
            rng = np.random.default_rng(0)
            noisy[k] = [perturb(shot, views[k].noise, rng, views[k].params)
                        for shot in [safeties[k]] + [c.shot for c in finals] for _ in range(n)]
        sampled = self._jump_values(views, states, noisy)
        out: list[JumpCandidate | None] = [None] * len(views)
        for k, finals in contenders.items():
            means = [float(np.mean(sampled[k][j * n:(j + 1) * n])) for j in range(len(finals) + 1)]
            best_value, best = max(zip(means[1:], finals), key=lambda item: item[0])
            out[k] = best if best_value > means[0] else None
        return out

    @staticmethod
    def _jump_values(views: Sequence[TableView], states: dict[int, physics.BallState], shots: dict[int, list[Shot]]
                     ) -> dict[int, list[float]]:
        """The worth of every shot ``shots[k][i]`` from ``states[k]``, all simulated and ruled in one compiled call
        (``ruled_shots``, as view ``k``'s player's ordinary shot): 0 for a foul, a layout the physics refuses or a
        shot still in the air at the largest caps (the env would void it), 2 when it pots, 1 otherwise."""
        keys = [k for k in shots if shots[k]]
        if not keys:
            return {k: [] for k in shots}
        which = np.concatenate([np.full(len(shots[k]), j) for j, k in enumerate(keys)])
        foul, potted, void = ruled_shots([states[k] for k in keys], [shot_rack(views[k]) for k in keys], which,
                                         [s for k in keys for s in shots[k]], views[keys[0]].table,
                                         views[keys[0]].params, max_events=1000, max_time=60.0)
        worth = np.where(foul | void, 0.0, np.where(potted > 0, 2.0, 1.0)).tolist()
        values: dict[int, list[float]] = {k: [] for k in shots}
        for j, value in zip(which.tolist(), worth):
            values[keys[j]].append(value)
        return values

    def push_out(self, view: TableView, cue: np.ndarray) -> Shot | None:
        """A soft roll that leaves a shot of about even difficulty (the opponent may hand it back), with no foul
        (``push_outs`` of one view)."""
        return self.push_outs([view], [cue])[0]

    def push_outs(self, views: Sequence[TableView], cues: Sequence[np.ndarray]) -> list[Shot | None]:
        """``push_out`` of every view: soft rolls every 20° at two lengths, all simulated in one compiled call
        (``settled``), the pots they leave found in one more; per view the first roll whose best pot's ease is
        nearest 0.5, of those that keep every ball on the table."""
        if not views:
            return []
        t, p = views[0].table, views[0].params
        rolls = [Shot(V0=max(rolling_speed_for(0.0, dist, 0.0, 0.0, p) * 0.55, 0.3), phi=float(angle))
                 for angle in np.arange(0.0, 360.0, 20.0) for dist in (0.3, 0.7)]
        states = [_with_cue(v, c) for v, c in zip(views, cues)]
        which = np.repeat(np.arange(len(views)), len(rolls))
        ends = settled(states, which, rolls * len(views), t, p, max_events=256, max_time=20.0)
        on_end = ends[:, :, S_MOTION] <= int(physics.Motion.ROLLING)
        keeps = on_end[:, 0] & np.all(on_end == np.stack([s.on_table() for s in states])[which], axis=1)
        kept = np.flatnonzero(keeps)
        rows, n = pot_rows(ends[kept, 0, :2], ends[kept, :, :2], on_end[kept], [views[k].rack.lowest for k in which[kept]],
                           t, p, np.array([aim_sigma(views[k].noise) for k in which[kept]]), combos=False)
        gaps = np.full(len(which), np.inf)
        gaps[kept] = np.abs(np.where(n > 0, rows[:, 0, K.O_EASE], 0.0) - 0.5)
        gaps = gaps.reshape(len(views), len(rolls))
        first = np.argmin(gaps, axis=1)  # the first of the nearest, as a strict < scan keeps
        return [rolls[j] if gaps[k, j] < 1.0 else None for k, j in enumerate(first.tolist())]

    @staticmethod
    def _kick(cue: np.ndarray, obj: np.ndarray, obstacles: np.ndarray, table: physics.Table, R: float
              ) -> float | None:
        """Aim [deg] of the shortest clear one-rail kick at ``obj`` (mirror image across each cushion line)."""
        best, best_len = None, math.inf
        lines = (("x", R), ("x", table.width - R), ("y", R), ("y", table.length - R))
        for axis, v in lines:
            image = obj.copy()
            i = 0 if axis == "x" else 1
            image[i] = 2.0 * v - obj[i]
            d = image - cue
            if abs(d[i]) < 1e-9:
                continue
            s = (v - cue[i]) / d[i]
            if not 0.0 < s < 1.0:
                continue
            rail = cue + s * d
            if path_clear(cue, rail, obstacles, R) and path_clear(rail, obj, obstacles, R):
                length = float(np.hypot(*d))
                if length < best_len:
                    best, best_len = direction_deg(cue, image), length
        return best

    def _encode(self, view: TableView, shot: Shot, spot: tuple[float, float] | None, push_out: bool = False
                ) -> np.ndarray:
        in_hand = str(view.rack.ball_in_hand)
        return actions.shot_to_action(shot, placement=spot, ball_in_hand=in_hand if spot is not None else "anywhere",
                                      push_out=push_out, table=view.table, params=view.params, scale=view.scale)


def _with_cue(view: TableView, cue: np.ndarray) -> physics.BallState:
    """The view's balls with the cue ball at ``cue`` (placed when in hand)."""
    state = view.balls.copy()
    state.place(0, float(cue[0]), float(cue[1]))
    return state

