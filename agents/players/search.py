"""SearchAgent: Monte-Carlo shot search, in the spirit of the Computational Pool winners (PickPocket, CueCard).

For each cue-ball position (the current one, or a few ball-in-hand spots) it generates candidate
shots from the ghost-ball pots (``agents.shots.pots``): a grid of speeds and draw/follow around each
throw-corrected aim. Every candidate is simulated once without noise (``physics.simulate`` on a
copy of the balls); the best ``top`` are simulated ``samples`` times under the game's noise model
(``nineball_env.noise.perturb``). A sample is worth:

* 1 for a legal shot that pockets the 9 (R-WIN-9); 0.05 for a foul (0 on a third foul);
* 0.5 + 0.5·e after a legal pot, e the estimated chance of making the next shot from where the
  cue ball stopped (position play);
* 0.5 − 0.5·e′ when the turn passes, e′ the opponent's chance (a safety is worth what it leaves).

The pot finalists are ranked with a two-shot look-ahead: a leave after a pot is valued by the best
next pot's chance times the position it gets on the ball after (``_lookahead``, one batch). When the
best pot is still hard (``hard_below``) the pots are searched again more widely.
The shot with the best mean value is played. When no pot is worth ``safety_below`` it also
searches safeties (hits of the lowest ball at several fractions, speeds and spins); right after
the break it may push out, and after the opponent's push-out it passes back a position worth < 0.5.
When a ball blocks the path to the lowest one, jump shots over it (``agents.shots.jumps.jump_candidates``: at the
ball, and jump pots) are searched beside the safeties and kicks, scored the same way.
The break is chosen among a few candidates found offline (``BREAK_BOOK``) by their chance of a legal
pot that leaves a makeable shot, each sampled under noise in one batch (``physics.simulate_batch_packed``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import physics
from agents.protocol import TableView, ViewAgent
from agents.shots.aim import corrected_phi, direction_deg
from agents.shots.candidates import diverse_spots, safety_candidates, spread
from agents.shots.jumps import jump_candidates
from agents.shots.outcome import ShotOutcome, judge
from agents.shots.pots import aim_sigma, best_ease, cue_spots, pot_options, rolling_speed_for
from nineball_env import actions, placement
from nineball_env.noise import MIN_SPEED, perturb
from nineball_env.rules import Phase
from physics import BallState, Shot

WIN, FOUL = 1.0, 0.05
SEARCH_MAX_SPEED = 8.0  # [m/s] the fastest ordinary shot the search tries (physics allows 12)
# The pot grid around each aim: cue speeds as multiples of the speed that just rolls the ball in, and draw/follow;
# fine enough in speed to stop the cue ball where the next shot wants it (position play).
SPEED_FACTORS = (0.85, 1.0, 1.2, 1.45, 1.75, 2.1, 2.6, 3.2, 4.0)
DRAW_FOLLOW = (-0.6, -0.35, -0.1, 0.15, 0.4)  # b: draw … follow
SIDE_ENGLISH = (0.3, -0.3)  # a, tried at three middle speeds
# The break candidates (dx, dy, V0, b): cue spot dx [m] right of the centre and dy [m] behind the head string,
# cue speed [m/s], draw. Found offline by Monte Carlo over ≈ 1,300 spots × speeds × spins × english × aim
# offsets (thousands of noisy breaks each for the finalists, icga noise): a firm 10 m/s break with strong
# draw from ≈ 0.1 m off centre leaves a legal pot and a makeable shot on the lowest ball (mean ease ≈ 0.57
# per break) far more often than the old grid of 9–11 m/s breaks along the head string (≈ 0.44).
BREAK_BOOK = ((0.09, 0.2, 10.0, -0.6), (-0.12, 0.2, 10.0, -0.6), (0.12, 0.3, 10.0, -0.6), (-0.15, 0.3, 10.0, -0.6))
HARD_OPTIONS = 6  # pots searched again when the best one is hard (``hard_below``)
LOOK_OPTIONS = 2  # pots of the next ball the look-ahead plays
LOOK_GRID = ((1.0, -0.4), (1.0, 0.0), (1.0, 0.4), (1.7, -0.4), (1.7, 0.0), (1.7, 0.4), (2.6, -0.4), (2.6, 0.4))
BREAK_LOG = 300  # events kept per simulated break (the rest are re-simulated when needed)
JUMP_TOP, JUMP_REFINE = 6, 2  # jump candidates sampled under noise, and refined, per kind (at the ball, pots)


@dataclass(frozen=True)
class SearchConfig:
    """Budget and thresholds of the search (the default decides in ≈ 0.1 s on one core, ≈ 0.4 s with ball in hand,
    ≈ 105 ms on average over a match).

    Attributes:
        candidates: shots simulated once without noise from each cue position.
        top: candidates then simulated under noise.
        samples: noisy simulations per sampled candidate.
        refine: the best sampled candidates, which get ``samples`` more simulations before the choice.
        options: pots (ball and pocket) the candidates are spread over, easiest first.
        placements: ball-in-hand spots searched (each with the full budget).
        safety_below: also search safeties when the best pot is worth less than this.
        push_below: consider a push-out (when allowed) when the best shot is worth less than this.
        break_speed: cue speed [m/s] of the break when ``break_samples`` is 0 (centre of the head string).
        break_samples: noisy simulations per break candidate (cue spot × speed × draw); 0 keeps the
            fixed centre break.
        lookahead: samples per pot finalist whose leaves are valued two shots deep (``_lookahead``);
            0 ranks the finalists by the one-shot value alone.
        jumps: when a ball blocks the path to the lowest one, also search jump shots over it (with the safeties).
        hard_below: when the best pot's estimated success is below this (cue ball not in hand), pots are
            searched again with twice the candidates, every pot option, twice the sampled candidates and half as
            many more refined ones, and the better plan is played; 0 never does.
        assumed_noise: noise preset assumed when no ``TableView`` is given (as an env opponent).
    """

    candidates: int = 256
    top: int = 12
    samples: int = 20
    refine: int = 4
    options: int = 5
    placements: int = 4
    safety_below: float = 0.45
    push_below: float = 0.4
    break_speed: float = 9.0
    break_samples: int = 16
    lookahead: int = 16
    hard_below: float = 0.8
    jumps: bool = True
    assumed_noise: str = "icga"

    def __post_init__(self) -> None:
        if isinstance(self.break_samples, bool) or not isinstance(self.break_samples, int) or self.break_samples < 0:
            raise ValueError(f"break_samples: expected a whole number >= 0, got {self.break_samples!r}")
        if isinstance(self.lookahead, bool) or not isinstance(self.lookahead, int) or self.lookahead < 0:
            raise ValueError(f"lookahead: expected a whole number >= 0, got {self.lookahead!r}")
        for name in ("candidates", "top", "samples", "refine", "options", "placements"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number >= 1, got {value!r}")
        for name in ("safety_below", "push_below", "hard_below"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name}: expected a value in [0, 1], got {getattr(self, name)!r}")
        if not 0.0 < self.break_speed <= physics.shot.MAX_SPEED:
            raise ValueError(f"break_speed: expected a speed in (0, {physics.shot.MAX_SPEED}] m/s, "
                             f"got {self.break_speed!r}")


@dataclass(frozen=True)
class Plan:
    """A searched shot: what to play, its mean value, its chance of a legal pot, and what it is meant as."""

    shot: Shot
    value: float
    success: float
    intent: str
    spot: tuple[float, float] | None = None


class SearchAgent(ViewAgent):
    """Monte-Carlo search over simulated shots (see the module docstring); seeded, so reproducible."""

    name = "search"

    def __init__(self, config: SearchConfig | None = None, seed: int | None = None) -> None:
        super().__init__(seed)
        self.config = config or SearchConfig()
        self.last_plan: Plan | None = None

    # -- decisions --------------------------------------------------------------------------------

    def decide(self, view: TableView) -> np.ndarray:
        """The action for the position in ``view``."""
        rack = view.rack
        if rack.phase is Phase.PUSH_OUT_CHOICE:
            plan = self.plan(view, view.balls.pos[0].copy())
            self.intent, self.last_plan = "choice", plan
            return actions.choice_action(pass_back=plan.value < 0.5)
        if rack.phase is Phase.BREAK:
            spot, shot = self.break_shot(view)
            self.intent, self.last_plan = "break", Plan(shot, 0.0, 0.0, "break", spot)
            return self._encode(view, shot, spot)
        if view.cue_in_hand:
            plan = self.place_and_plan(view)
        else:
            plan = self.plan(view, view.balls.pos[0].copy())
        push_out = False
        if rack.phase is Phase.PUSH_OUT_ALLOWED and plan.value < self.config.push_below:
            push = self.push_out(view, np.asarray(plan.spot if plan.spot else view.balls.pos[0], dtype=float))
            if push is not None and push.value > plan.value:
                plan = Plan(push.shot, push.value, 0.0, "push-out", plan.spot)
                push_out = True
        self.intent, self.last_plan = plan.intent, plan
        if plan.intent in self.jumps:
            self.jumps[plan.intent] += 1
        return self._encode(view, plan.shot, plan.spot, push_out)

    def plan(self, view: TableView, cue: np.ndarray) -> Plan:
        """The best shot from cue position ``cue``: pots first, safeties when no pot is worth enough."""
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        budget = self.config.candidates
        best = self._evaluate(view, state, self._pot_candidates(view, state, budget), "pot")
        if best is not None and best.success < self.config.hard_below and not view.cue_in_hand:
            # A hard pot (often the first shot after the break): search again, wider, before settling.
            wide = self._evaluate(view, state, self._pot_candidates(view, state, 2 * budget, options=HARD_OPTIONS),
                                  "pot", top=2 * self.config.top, refine=3 * self.config.refine // 2)
            if wide is not None and wide.value > best.value:
                best = wide
        if best is None or best.value < self.config.safety_below:
            safe = self._evaluate(view, state, safety_candidates(view, state, budget), "safety")
            if safe is not None and (best is None or safe.value > best.value):
                best = safe
            if self.config.jumps:
                for jump in self._jump_plans(view, state):
                    if best is None or jump.value > best.value:
                        best = jump
        if best is None:  # nothing simulated at all: hit the lowest ball softly
            best = Plan(Shot(V0=2.0, phi=direction_deg(cue, state.pos[view.rack.lowest])), FOUL, 0.0, "safety")
        return best

    def place_and_plan(self, view: TableView) -> Plan:
        """Ball in hand: search the best few spots behind the lowest ball and play the best of them."""
        t, p, c = view.table, view.params, self.config
        spots = diverse_spots(cue_spots(view.balls.pos, view.on, view.rack.lowest, t, p, aim_sigma(view.noise)),
                         c.placements)
        if not spots:
            on = view.on.copy()
            on[0] = False
            obj = view.balls.pos[view.rack.lowest]
            spots = [placement.nearest_free(obj[0], obj[1] - 0.3, view.balls.pos[on], t, p)]
        best: Plan | None = None
        for spot in spots:
            plan = self.plan(view, np.asarray(spot, dtype=float))
            if best is None or plan.value > best.value:
                best = Plan(plan.shot, plan.value, plan.success, plan.intent, spot)
        assert best is not None
        return best

    def break_shot(self, view: TableView) -> tuple[tuple[float, float], Shot]:
        """The break: the ``BREAK_BOOK`` candidates (cue spot, speed, draw), each simulated ``break_samples``
        times under noise (in one batch) and scored by ``_break_values``; the best mean wins. With
        ``break_samples=0``: hard from the centre at the 1."""
        t, p, c = view.table, view.params, self.config
        others = view.balls.pos[view.on & (np.arange(len(view.on)) > 0)]
        one = view.balls.pos[view.rack.lowest]
        if c.break_samples == 0:
            centre = placement.nearest_free(t.width / 2.0, t.head_string_y - 0.03, others, t, p, kitchen=True)
            return centre, Shot(V0=c.break_speed, phi=direction_deg(centre, one))
        spots, shots, packed = [], [], []
        for dx, dy, V, b in BREAK_BOOK:
            spot = placement.nearest_free(t.width / 2.0 + dx, t.head_string_y - dy, others, t, p, kitchen=True)
            state = view.balls.copy()
            state.place(0, float(spot[0]), float(spot[1]))
            spots.append(spot)
            shots.append(Shot(V0=V, phi=direction_deg(spot, one), b=b))
            packed.append(state.packed())
        n = c.break_samples
        rows = _noisy_rows(np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots]), n, view.noise, self.rng, p)
        result = physics.simulate_batch_packed(np.repeat(np.array(packed), n, axis=0), rows, t, p, max_events=2000,
                                               max_time=60.0, log_capacity=BREAK_LOG, threads=1)
        means = self._break_values(view, result).reshape(len(shots), n).mean(axis=1)
        i = int(np.argmax(means))
        return spots[i], shots[i]

    def _break_values(self, view: TableView, result: physics.BatchResult) -> np.ndarray:
        """Value of each simulated break in a batch for a run-out (R-BREAK-FIRST, R-BREAK-LEGAL,
        R-BREAK-SCRATCH; the 9 wins): 1 for the 9, e (the chance of making the next shot) after a legal
        pot, ``FOUL``·(1 − e′) after a legal dry break (the opponent shoots), 0 for a foul."""
        out = np.zeros(len(result))
        for k in range(len(result)):
            if result.n_events[k] > result.logs.shape[1]:
                rows = result.result(k).events.rows
            else:
                rows = result.logs[k, : int(result.n_events[k])]
            out[k] = self._break_value_rows(view, rows, result.state(k))
        return out

    def _break_value(self, view: TableView, state: BallState, shot: Shot) -> float:
        """Value of one simulated break (see ``_break_values``)."""
        result = physics.simulate(state, shot, view.table, view.params, max_events=2000, max_time=60.0)
        return self._break_value_rows(view, result.events.rows, result.state)

    def _break_value_rows(self, view: TableView, rows: np.ndarray, final: BallState) -> float:
        kind, a, b = rows[:, 1], rows[:, 2], rows[:, 3]
        potted = set(a[kind == int(physics.EventKind.BALL_POCKET)].astype(int).tolist())
        hits = np.flatnonzero((kind == int(physics.EventKind.BALL_BALL)) & ((a == 0) | (b == 0)))
        first = int(b[hits[0]] if a[hits[0]] == 0 else a[hits[0]]) if hits.size else -1
        rails = (kind == int(physics.EventKind.BALL_CUSHION)) | (kind == int(physics.EventKind.BALL_JAW))
        to_rail = set(a[rails & (a != 0)].astype(int).tolist())
        legal = first == view.rack.lowest and 0 not in potted and (len(potted) > 0 or len(to_rail) >= 4)
        if not legal:
            return 0.0
        if 9 in potted:
            return WIN
        e = self._ease(view, final)
        return e if potted else FOUL * (1.0 - e)

    def push_out(self, view: TableView, cue: np.ndarray) -> Plan | None:
        """The best push-out: a soft roll scored by min(my shot, the opponent's shot) from where it stops."""
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        best: Plan | None = None
        for angle in np.arange(0.0, 360.0, 20.0):
            for V in (0.5, 0.9):
                shot = Shot(V0=V, phi=float(angle))
                result = physics.simulate(state, shot, view.table, view.params, max_events=256, max_time=30.0)
                out = judge(view, result, push_out=True)
                if out.foul:
                    continue
                e = self._ease(view, result.state)
                value = min(0.5 + 0.5 * e, 0.5 - 0.5 * e)  # the opponent chooses (R-PUSH-CHOICE)
                if best is None or value > best.value:
                    best = Plan(shot, value, 0.0, "push-out")
        return best

    # -- candidates -------------------------------------------------------------------------------

    def _pot_candidates(self, view: TableView, state: BallState, budget: int, options: int | None = None
                        ) -> list[Shot]:
        """Speed × spin grids around the throw-corrected aim of the easiest ``options`` pots (the config's
        by default), ``budget`` shots in all."""
        cue = state.pos[0]
        found = [o for o in pot_options(cue, state.pos, state.on_table(), view.rack.lowest, view.table,
                                        view.params, aim_sigma(view.noise)) if o.ease > 0.02]
        options = found[: options or self.config.options]
        if not options:
            return []
        grid = [(f, b, 0.0) for f in SPEED_FACTORS for b in DRAW_FOLLOW] + [(f, 0.0, a) for f in (1.2, 1.75, 2.6) for a in SIDE_ENGLISH]
        per_option = max(1, budget // len(options))
        shots: list[Shot] = []
        for option in options:
            V0 = rolling_speed_for(option.d_cue, option.d_obj, option.cut, 0.5, view.params)
            for factor, b, a in spread(grid, per_option):
                V = min(max(V0 * factor, 0.5), SEARCH_MAX_SPEED)
                shot = Shot(V0=V, phi=option.phi, a=a, b=b)
                phi = corrected_phi(state, cue, option.target, option.direction, shot, view.table, view.params,
                                    iterations=1)
                shots.append(Shot(V0=V, phi=phi, a=a, b=b))
        return shots

    def _jump_plans(self, view: TableView, state: BallState) -> list[Plan]:
        """The best jump at the lowest ball and the best jump pot over the balls blocking it (none when the path
        is clear), each searched like the other shots with fewer finalists (``JUMP_TOP``, ``JUMP_REFINE``)."""
        found = jump_candidates(state.pos[0], state.pos, state.on_table(), view.rack.lowest, view.table,
                                view.params, tip_max=view.scale.tip_max, v_max=view.scale.v_max)
        plans = []
        for intent, group in (("jump", [c.shot for c in found if c.pocket is None]),
                              ("jump-pot", [c.shot for c in found if c.pocket is not None])):
            plan = self._evaluate(view, state, group, intent, top=JUMP_TOP, refine=JUMP_REFINE)
            if plan is not None:
                plans.append(plan)
        return plans

    # -- evaluation -------------------------------------------------------------------------------

    def _evaluate(self, view: TableView, state: BallState, shots: list[Shot], intent: str,
                  top: int | None = None, refine: int | None = None) -> Plan | None:
        """Simulate every shot once without noise, then the best ``top`` under noise, ``refine`` of them twice as
        often (the config's numbers by default); the best mean value wins (for pots, ranked with the two-shot
        look-ahead of ``_lookahead``)."""
        if not shots:
            return None
        first = []
        for shot in shots:
            value, out, _ = self._sample(view, state, shot)
            first.append((value, out.legal_pot, shot))
        first.sort(key=lambda item: -item[0])
        c = self.config
        # Successive halving: every finalist gets ``samples`` noisy runs, the best ``refine`` as many again
        # (a larger sample for the finalists curbs the winner's curse of picking a lucky estimate).
        top, refine = top or c.top, refine or c.refine
        stats = {i: [0.0, 0, 0] for i in range(min(top, len(first)))}  # sum of values, legal pots, runs
        kept: dict[int, list[tuple[float, BallState | None]]] = {i: [] for i in stats}  # (value, leave after a pot)
        rounds = ((list(stats), c.samples), (None, c.samples))
        shift = {i: 0.0 for i in stats}  # the look-ahead's correction of each mean value (pots only)
        for members, n in rounds:
            if members is None:
                score = {i: stats[i][0] / stats[i][2] for i in stats}
                if intent == "pot" and c.lookahead > 0 and len(stats) > 1:
                    corrected = self._lookahead_scores(view, {i: kept[i][: c.lookahead] for i in stats}, score)
                    shift = {i: corrected[i] - score[i] for i in stats}
                members = sorted(stats, key=lambda i: -(score[i] + shift[i]))[:refine]
            for i in members:
                shot = first[i][2]
                for _ in range(n):
                    value, out, final = self._sample(view, state, perturb(shot, view.noise, self.rng, view.params))
                    stats[i][0] += value
                    stats[i][1] += int(out.legal_pot)
                    stats[i][2] += 1
                    kept[i].append((value, final if out.legal_pot and not out.nine else None))
        finalists = [i for i in stats if stats[i][2] > c.samples] or list(stats)
        i = max(finalists, key=lambda i: stats[i][0] / stats[i][2] + shift[i])
        total, pots, runs = stats[i]
        return Plan(first[i][2], total / runs, pots / runs, intent)

    def _lookahead_scores(self, view: TableView, kept: dict[int, list[tuple[float, BallState | None]]],
                          score: dict[int, float]) -> dict[int, float]:
        """Each finalist's mean value corrected by the look-ahead on a subset of its samples: the mean over
        the subset with every leave after a pot valued 0.5 + 0.5·v (``_lookahead``) instead of 0.5 + 0.5·e,
        minus the subset's one-shot mean (a control variate: the pot rate comes from all samples)."""
        leaves = [final for samples in kept.values() for _, final in samples if final is not None]
        if not leaves:
            return score
        v = iter(self._lookahead(view, leaves))
        out = {}
        for i, samples in kept.items():
            one = [value for value, _ in samples]
            two = [value if final is None else 0.5 + 0.5 * next(v) for value, final in samples]
            out[i] = score[i] + (float(np.mean(two)) - float(np.mean(one)) if samples else 0.0)
        return out

    def _lookahead(self, view: TableView, leaves: list[BallState]) -> np.ndarray:
        """Two-shot value of each leave (our turn, after a pot): max over the next shot's candidates of
        e1·(0.5 + 0.5·e2), e1 the estimated chance of that pot and e2 the ease of the shot after it from
        where a noise-free simulation stops the cue ball (1 when the pot is the 9). The candidates are
        a speed × spin grid on the two easiest pots of the lowest ball, all simulated in one batch."""
        t, p = view.table, view.params
        sigma = aim_sigma(view.noise)
        values = np.zeros(len(leaves))
        packs, rows, owner, ease, target = [], [], [], [], []
        for j, final in enumerate(leaves):
            on = final.on_table()
            left = [b for b in range(1, len(on)) if on[b]]
            if not on[0] or not left:
                values[j] = 1.0 if on[0] else 0.0
                continue
            if left[0] == 9:
                values[j] = self._ease(view, final)
                continue
            options = [o for o in pot_options(final.pos[0], final.pos, on, left[0], t, p, sigma, combos=False)
                       if o.ease > 0.05][:LOOK_OPTIONS]
            packed = final.packed() if options else None
            for o in options:
                V0 = rolling_speed_for(o.d_cue, o.d_obj, o.cut, 0.5, p)
                for factor, b in LOOK_GRID:
                    rows.append((min(max(V0 * factor, 0.5), SEARCH_MAX_SPEED), o.phi, 0.0, 0.0, b))
                    packs.append(packed)
                    owner.append(j)
                    ease.append(o.ease)
                    target.append(left[0])
        if not rows:
            return values
        result = physics.simulate_batch_packed(np.array(packs), np.array(rows), t, p, max_events=400, max_time=60.0,
                                               log_capacity=1, threads=1)
        motion = result.states[:, :, 7]
        for k in range(len(rows)):
            on = motion[k] <= int(physics.Motion.ROLLING)
            if not on[0]:
                continue
            on[target[k]] = False  # assume the pot (the aim has no throw correction)
            left = np.flatnonzero(on[1:]) + 1
            e2 = 1.0 if left.size == 0 else best_ease(result.states[k, 0, :2], result.states[k, :, :2], on,
                                                        int(left[0]), t, p, sigma)
            values[owner[k]] = max(values[owner[k]], ease[k] * (0.5 + 0.5 * e2))
        return values

    def _sample(self, view: TableView, state: BallState, shot: Shot) -> tuple[float, ShotOutcome, BallState | None]:
        """Value of one simulated shot (see the module docstring), what it did and where the balls stopped."""
        try:
            result = physics.simulate(state, shot, view.table, view.params, max_events=1000, max_time=60.0)
        except ValueError:
            return 0.0, ShotOutcome(True, 0, False, False), None
        out = judge(view, result)
        if out.foul:
            return (0.0 if view.my_fouls >= 2 else FOUL), out, result.state
        if out.nine:
            return WIN, out, result.state
        e = self._ease(view, result.state)
        return (0.5 + 0.5 * e if out.potted else 0.5 - 0.5 * e), out, result.state

    def _ease(self, view: TableView, final: BallState) -> float:
        """Chance of potting the next shot from ``final`` (whoever shoots it)."""
        on = final.on_table()
        if not on[0]:
            return 1.0
        left = [b for b in range(1, 10) if on[b]]
        if not left:
            return 1.0
        return best_ease(final.pos[0], final.pos, on, left[0], view.table, view.params, aim_sigma(view.noise))

    def _encode(self, view: TableView, shot: Shot, spot: tuple[float, float] | None, push_out: bool = False
                ) -> np.ndarray:
        in_hand = str(view.rack.ball_in_hand)
        return actions.shot_to_action(shot, placement=spot, ball_in_hand=in_hand if spot is not None else "anywhere",
                                      push_out=push_out, table=view.table, params=view.params, scale=view.scale)


def _noisy_rows(rows: np.ndarray, n: int, noise, rng: np.random.Generator, params) -> np.ndarray:
    """``n`` noisy copies of each shot row (V0, phi°, theta°, a, b), as ``nineball_env.noise.perturb`` draws them,
    grouped by shot: rows[0] n times, then rows[1], ..."""
    out = np.repeat(np.asarray(rows, dtype=np.float64).reshape(-1, 5), n, axis=0)
    if noise.silent:
        return out
    e = rng.standard_normal((out.shape[0], 5))
    out[:, 0] = np.clip(out[:, 0] + noise.V0 * e[:, 1], MIN_SPEED, physics.shot.MAX_SPEED)
    out[:, 1] += noise.phi * e[:, 0]
    out[:, 2] = np.clip(out[:, 2] + noise.theta * e[:, 2], 0.0, physics.shot.MAX_ELEVATION)
    out[:, 3] += noise.a / params.R * e[:, 3]
    out[:, 4] += noise.b / params.R * e[:, 4]
    r = np.hypot(out[:, 3], out[:, 4])
    limit = physics.shot.MAX_TIP_OFFSET * (1.0 - 1e-9)
    scale = np.where(r > limit, limit / np.maximum(r, 1e-300), 1.0)
    out[:, 3] *= scale
    out[:, 4] *= scale
    return out
