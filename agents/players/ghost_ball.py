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
from dataclasses import dataclass

import numpy as np

import physics
from agents.protocol import TableView, ViewAgent
from agents.shots.aim import corrected_phi, direction_deg, path_clear
from agents.shots.jumps import JumpCandidate, jump_candidates
from agents.shots.outcome import judge, simulate_resolved
from agents.shots.pots import PotOption, aim_sigma, cue_spots, pot_options, rolling_speed_for
from nineball_env import actions, placement
from nineball_env.noise import perturb
from nineball_env.rules import Phase
from physics import Shot

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
    """The geometric baseline (see the module docstring); deterministic, so ``seed`` changes nothing."""

    name = "ghost"

    def __init__(self, config: GhostBallConfig | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.config = config or GhostBallConfig()

    # -- decisions --------------------------------------------------------------------------------

    def act_batch(self, obs: np.ndarray) -> np.ndarray:
        """The actions (n, 9) for observations (n, 54), as an env opponent (the views rebuilt with the config's
        ``assumed_noise`` in one compiled call); their intents in ``self.intents``."""
        views = TableView.from_observations(obs, noise=self.config.assumed_noise)
        out, intents = [], []
        for view in views:
            out.append(self.decide(view))
            intents.append(self.intent)
        self.intents = np.array(intents, dtype=object)
        return np.stack(out) if out else np.zeros((0, actions.N_ACTION), dtype=np.float32)

    def decide(self, view: TableView) -> np.ndarray:
        """The action for the position in ``view``."""
        rack = view.rack
        if rack.phase is Phase.PUSH_OUT_CHOICE:
            self.intent = "choice"
            best = self.options(view, view.balls.pos[0])
            ease = best[0].ease if best else 0.0
            return actions.choice_action(pass_back=ease < self.config.pass_back_below)
        if rack.phase is Phase.BREAK:
            self.intent = "break"
            spot, shot = self.break_shot(view)
            return self._encode(view, shot, spot)
        spot = self.place(view) if view.cue_in_hand else None
        cue = np.asarray(spot if spot is not None else view.balls.pos[0], dtype=float)
        options = self.options(view, cue)
        best = self.choose(options)
        if rack.phase is Phase.PUSH_OUT_ALLOWED and (best is None or best.ease < self.config.push_below):
            push = self.push_out(view, cue)
            if push is not None:
                self.intent = "push-out"
                return self._encode(view, push, spot, push_out=True)
        if best is None or best.ease < self.config.safety_below:
            safety = self.safety(view, cue)
            jump = self.jump(view, cue, safety) if self.config.jumps else None
            if jump is not None:
                self.intent = "jump" if jump.pocket is None else "jump-pot"
                self.jumps[self.intent] += 1
                return self._encode(view, jump.shot, spot)
            self.intent = "safety"
            return self._encode(view, safety, spot)
        self.intent = "pot"
        return self._encode(view, self.pot_shot(view, cue, best), spot)

    def options(self, view: TableView, cue: np.ndarray) -> list[PotOption]:
        """Every clear pot from cue position ``cue``, easiest first."""
        return pot_options(cue, view.balls.pos, view.on, view.rack.lowest, view.table, view.params,
                           aim_sigma(view.noise))

    def choose(self, options: list[PotOption]) -> PotOption | None:
        """The easiest direct pot, or a combination on the 9 when it is easy and easier still."""
        direct = next((o for o in options if not o.combo), None)
        combo = next((o for o in options if o.combo), None)
        if combo is not None and combo.ease >= self.config.combo_min_ease and (
                direct is None or combo.ease > direct.ease):
            return combo
        return direct

    def pot_shot(self, view: TableView, cue: np.ndarray, option: PotOption) -> Shot:
        """Speed for the distance, a little draw on straight shots, aim corrected for throw."""
        V = min(max(rolling_speed_for(option.d_cue, option.d_obj, option.cut, self.config.arrive_speed,
                                      view.params), GHOST_MIN_SPEED), GHOST_MAX_SPEED)
        b = -0.3 if option.cut < self.config.stun_cut else 0.0
        shot = Shot(V0=V, phi=option.phi, b=b)
        if not self.config.correct_throw:
            return shot
        state = _with_cue(view, cue)
        return Shot(V0=V, phi=corrected_phi(state, cue, option.target, option.direction, shot, view.table,
                                            view.params), b=b)

    def break_shot(self, view: TableView) -> tuple[tuple[float, float], Shot]:
        """From the centre of the table just behind the head string, hard at the 1 ball."""
        t, p = view.table, view.params
        others = view.balls.pos[view.on & (np.arange(len(view.on)) > 0)]
        spot = placement.nearest_free(t.width / 2.0, t.head_string_y - 0.03, others, t, p, kitchen=True)
        return spot, Shot(V0=self.config.break_speed, phi=direction_deg(spot, view.balls.pos[view.rack.lowest]))

    def place(self, view: TableView) -> tuple[float, float]:
        """Ball in hand: the spot behind the lowest ball with the easiest pot (a slight angle beats dead straight)."""
        t, p = view.table, view.params
        pos, lowest = view.balls.pos, view.rack.lowest
        spots = cue_spots(pos, view.on, lowest, t, p, aim_sigma(view.noise), turns=(10.0, -10.0, 0.0, 20.0, -20.0))
        if spots:
            return max(spots, key=lambda item: item[1].ease - (0.02 if item[1].cut < 2.0 else 0.0))[0]
        on = view.on.copy()
        on[0] = False
        return placement.nearest_free(pos[lowest][0], pos[lowest][1] - 0.3, pos[on], t, p)

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
        """A jump over the balls blocking the lowest one, when one scores better than ``safety`` (the kick).

        Every candidate is simulated once without noise; the legal ones (the lowest ball first, no foul) are
        worth 1, and 2 when they pot. The best ``finalists`` and the safety are then simulated ``jump_samples``
        times under the game's noise, from a fixed seed; the best mean wins if it beats the safety's.
        None when nothing blocks the path or no jump is better.
        """
        candidates = jump_candidates(cue, view.balls.pos, view.on, view.rack.lowest, view.table, view.params,
                                     tip_max=view.scale.tip_max, v_max=view.scale.v_max)
        if not candidates:
            return None
        state = _with_cue(view, cue)

        def value(shot: Shot) -> float:
            try:
                result = simulate_resolved(state, shot, view.table, view.params, max_events=1000, max_time=60.0)
            except ValueError:
                return 0.0
            if result is None:  # still in the air at the largest caps: the env would void it
                return 0.0
            out = judge(view, result)
            return 0.0 if out.foul else (2.0 if out.potted else 1.0)

        scored = [(value(c.shot), -i, c) for i, c in enumerate(candidates)]
        scored = sorted((s for s in scored if s[0] > 0.0), key=lambda s: (s[0], s[1]), reverse=True)[:finalists]
        if not scored:
            return None
        rng = np.random.default_rng(0)
        n = self.config.jump_samples

        def noisy(shot: Shot) -> float:
            return float(np.mean([value(perturb(shot, view.noise, rng, view.params)) for _ in range(n)]))

        baseline = noisy(safety)
        best_value, best = max(((noisy(c.shot), c) for _, _, c in scored), key=lambda item: item[0])
        return best if best_value > baseline else None

    def push_out(self, view: TableView, cue: np.ndarray) -> Shot | None:
        """A soft roll that leaves a shot of about even difficulty (the opponent may hand it back), with no foul."""
        t, p = view.table, view.params
        state = _with_cue(view, cue)
        best, best_gap = None, 1.0
        for angle in np.arange(0.0, 360.0, 20.0):
            for dist in (0.3, 0.7):
                shot = Shot(V0=max(rolling_speed_for(0.0, dist, 0.0, 0.0, p) * 0.55, 0.3), phi=float(angle))
                result = physics.simulate(state, shot, t, p, max_events=256, max_time=20.0)
                end = result.state
                if not end.on_table()[0] or not np.array_equal(end.on_table(), state.on_table()):
                    continue
                options = pot_options(end.pos[0], end.pos, end.on_table(), view.rack.lowest, t, p,
                                      aim_sigma(view.noise), combos=False)
                ease = options[0].ease if options else 0.0
                gap = abs(ease - 0.5)
                if gap < best_gap:
                    best, best_gap = shot, gap
        return best

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

