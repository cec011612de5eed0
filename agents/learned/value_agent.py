"""ValueSearchAgent (``value``): a small simulation search whose leaves a learned value network scores.

Search (``agents.players.search``) scores a simulated shot by a hand-written ease of the next pot and a two-shot
look-ahead. This player scores it by ``ValueNet``: the chance that the player to act wins the rack from where the balls
stopped. Every candidate is simulated and ruled in one compiled call (``agents.shots.playout``) and every outcome is
valued in one network call, so a decision costs a few hundred simulations and a few matrix products, numpy only.

A decision: candidate pots (a speed × spin grid around the throw-corrected aim of the easiest pots of the lowest ball),
safeties and, when a ball blocks the lowest, jumps are simulated once without noise and valued; the best shot of every
pot option, the best pots and the best safeties are then simulated ``samples`` times under the game's noise (the same
draws for every candidate), the best ``refine`` of them ``samples`` times more, and the best mean value is played.
An outcome is worth 1 or 0 when the rack is over, v when the player stays at the table and 1 − v when the opponent
comes to it (with ball in hand after a foul), v the network's value for whoever acts next; after a push-out the
opponent's choice is assumed to be the worse one for the pusher. With ball in hand the network rates Search's spots
behind the lowest ball and the search plays from the best ``placements``. The break is the one the network found
offline (``meta["break"]``, ``agents.training.value.optimize_break``), else the best of Search's break book by the
mean value of simulated breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from agents.learned.value_net import EaseValue, ValueNet
from agents.players.search import BREAK_BOOK, DRAW_FOLLOW, SEARCH_MAX_SPEED, SIDE_ENGLISH, SPEED_FACTORS
from agents.protocol import TableView, ViewAgent
from agents.shots import kernels as K
from agents.shots import playout_kernels as PK
from agents.shots.aim import corrected_phis, direction_deg
from agents.shots.candidates import safety_candidates
from agents.shots.jumps import jump_candidates
from agents.shots.leaves import shot_rack
from agents.shots.playout import BREAK_EVENTS, PUSH_OUT, REJECTED, SHOT, Playout
from agents.shots.pots import cue_spots, pot_rows, rolling_speed_for
from nineball_env import actions, placement, rules
from nineball_env.kernels.codes import PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.noise import LIMITS
from nineball_env.rules import BallInHand, Phase
from physics import BallState, Shot

#: Push-out candidates: soft rolls in every direction.
PUSH_ANGLES = tuple(float(a) for a in range(0, 360, 20))
PUSH_SPEEDS = (0.5, 0.9)
PUSH_FINALISTS = 4
#: What a candidate is meant as, by its kind code.
INTENTS = ("pot", "safety", "jump", "jump-pot")
POT, SAFETY, JUMP, JUMP_POT = range(4)


@dataclass(frozen=True)
class ValueSearchConfig:
    """Budget of the search and the network it plays with.

    Attributes:
        options: pots (ball and pocket) the pot candidates are spread over, easiest first.
        candidates: pot candidates simulated once without noise (spread over the options).
        safeties: safety candidates (hits of the lowest ball, kicks) simulated once without noise.
        top_pots, top_safeties: pot and safety (or jump) candidates then simulated under noise.
        samples: noisy simulations per candidate in each of the two rounds.
        refine: the candidates that get the second round.
        placements: ball-in-hand spots searched (the network's best among Search's spots).
        break_samples: noisy simulations per candidate of Search's break book (when the network has no break).
        jumps: also search jumps over a ball that blocks the lowest one.
        push_below: consider a push-out (when allowed) when the best shot is worth less than this.
        weights: a value network file (``ValueNet``); "" plays the one shipped with the package, "ease" the
            hand-written ``EaseValue``.
        assumed_noise: noise preset assumed when no ``TableView`` is given (as an env opponent).
    """

    options: int = 4
    candidates: int = 256
    safeties: int = 40
    top_pots: int = 16
    top_safeties: int = 4
    samples: int = 24
    refine: int = 4
    placements: int = 3
    break_samples: int = 12
    jumps: bool = True
    push_below: float = 0.45
    weights: str = ""
    assumed_noise: str = "icga"

    def __post_init__(self) -> None:
        for name in ("options", "candidates", "safeties", "top_pots", "samples", "refine", "placements",
                     "break_samples"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number >= 1, got {value!r}")
        if isinstance(self.top_safeties, bool) or not isinstance(self.top_safeties, int) or self.top_safeties < 0:
            raise ValueError(f"top_safeties: expected a whole number >= 0, got {self.top_safeties!r}")
        if not 0.0 <= self.push_below <= 1.0:
            raise ValueError(f"push_below: expected a value in [0, 1], got {self.push_below!r}")
        if not isinstance(self.weights, str):
            raise ValueError(f"weights: expected a path, '' or 'ease', got {self.weights!r}")


@dataclass(frozen=True)
class Choice:
    """A searched decision: the strike, its mean value, what it is meant as, the cue-ball spot when placed, and
    whether it is declared a push-out."""

    shot: Shot
    value: float
    intent: str
    spot: tuple[float, float] | None = None
    push_out: bool = False


def load_value(weights: str) -> Callable[[np.ndarray], np.ndarray]:
    """The value function a ``ValueSearchConfig.weights`` names."""
    if weights == "ease":
        return EaseValue()
    return ValueNet.shipped() if not weights else ValueNet.load(weights)


class ValueSearchAgent(ViewAgent):
    """Simulation search with a learned leaf value (see the module docstring); seeded, so reproducible.

    ``value`` replaces the network the config names (any callable from feature rows to values, as training uses)."""

    name = "value"

    def __init__(self, config: ValueSearchConfig | None = None, seed: int | None = None,
                 value: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        super().__init__(seed)
        self.config = config or ValueSearchConfig()
        self.value = value if value is not None else load_value(self.config.weights)
        self.last: Choice | None = None
        self._playout: tuple[Any, Playout] | None = None

    # -- valuing outcomes ---------------------------------------------------------------------------------

    def playout(self, view: TableView) -> Playout:
        """The ``Playout`` of the view's table, physics and noise (kept while they stay the same)."""
        key = (view.table, view.params, view.noise)
        if self._playout is None or self._playout[0] != key:
            self._playout = (key, Playout(view.table, view.params, view.noise))
        return self._playout[1]

    def outcome_values(self, view: TableView, me: int, states: np.ndarray, after: np.ndarray) -> np.ndarray:
        """Value for player ``me`` of each outcome (balls at rest (N, n, 9), rack rows after (N, RACK_W)); −1 for a
        layout the physics rejected."""
        values = np.empty(after.shape[0])
        over = after[:, C.WINNER] >= 0
        values[over] = (after[over, C.WINNER] == me).astype(float)
        rejected = after[:, C.SHOOTER] == REJECTED
        values[rejected] = -1.0
        live = ~over & ~rejected
        if not live.any():
            return values
        pool = self.playout(view)
        rows = after[live].copy()
        choice = rows[:, C.PHASE] == PhaseCode.PUSH_OUT_CHOICE
        rows[choice, C.PHASE] = PhaseCode.NORMAL  # the chooser shoots from there ...
        v = self.value(pool.features(states[live], rows))
        out = np.where(rows[:, C.SHOOTER] == me, v, 1.0 - v)
        if choice.any():  # ... or hands the shot back: the worse of the two for the pusher
            back = rows[choice].copy()
            back[:, C.SHOOTER] = 1 - back[:, C.SHOOTER]
            vb = self.value(pool.features(states[live][choice], back))
            out[choice] = np.minimum(out[choice], np.where(back[:, C.SHOOTER] == me, vb, 1.0 - vb))
        values[live] = out
        return values

    def shot_values(self, view: TableView, start: np.ndarray, rack: np.ndarray, shots: np.ndarray,
                    declaration: int = SHOT) -> np.ndarray:
        """Value for the deciding player of each shot row (N, 5) played from the packed ``start`` under ``rack``."""
        states, after = self.playout(view).play(start[None], rack[None], np.zeros(len(shots), dtype=np.int64), shots,
                                                declaration)
        return self.outcome_values(view, view.player, states, after)

    # -- decisions ----------------------------------------------------------------------------------------

    def decide(self, view: TableView) -> np.ndarray:
        """The action for the position in ``view``."""
        rack = view.rack
        if rack.phase is Phase.PUSH_OUT_CHOICE:  # shoot when the best shot is worth at least an even rack
            choice = self.choose(view, view.balls.pos[0].copy())
            self.intent, self.last = "choice", choice
            return actions.choice_action(pass_back=choice.value < 0.5)
        if rack.phase is Phase.BREAK:
            choice = self.break_shot(view)
        elif view.cue_in_hand:
            choice = self.place_and_choose(view)
        else:
            choice = self.choose(view, view.balls.pos[0].copy())
        if rack.phase is Phase.PUSH_OUT_ALLOWED and choice.value < self.config.push_below:
            cue = np.asarray(choice.spot if choice.spot else view.balls.pos[0], dtype=float)
            push = self.push_out(view, cue)
            if push.value > choice.value:
                choice = Choice(push.shot, push.value, "push-out", choice.spot, True)
        self.intent, self.last = choice.intent, choice
        if choice.intent in self.jumps:
            self.jumps[choice.intent] += 1
        in_hand = str(rack.ball_in_hand)
        return actions.shot_to_action(choice.shot, placement=choice.spot,
                                      ball_in_hand=in_hand if choice.spot is not None else "anywhere",
                                      push_out=choice.push_out, table=view.table, params=view.params, scale=view.scale)

    def choose(self, view: TableView, cue: np.ndarray) -> Choice:
        """The best shot from cue position ``cue`` (see the module docstring)."""
        c = self.config
        start = _placed(view, cue)
        rack = shot_rack(view)
        pots, option = self._pot_candidates(view, start)
        others, kinds = self._other_candidates(view, start)
        rows = self._playable(view, np.concatenate([pots, others]))
        kind = np.concatenate([np.full(len(pots), POT, dtype=np.int64), kinds])
        if not len(rows):  # nothing to play: hit the lowest ball softly
            return Choice(Shot(V0=2.0, phi=direction_deg(cue, view.balls.pos[view.rack.lowest])), 0.0, "safety")
        first = self.shot_values(view, start, rack, rows)
        # the best shot of every pot option, then the best pots whatever their option, then the best safeties
        finalists = [j for o in range(c.options) for j in _top(first[: len(pots)], option == o, 1)]
        finalists += [j for j in _top(first, kind == POT, c.top_pots) if j not in finalists][
            : max(c.top_pots - len(finalists), 0)]
        finalists += _top(first, kind != POT, c.top_safeties)
        total = np.zeros(len(finalists))
        runs = np.zeros(len(finalists))
        members = list(range(len(finalists)))
        for round_ in range(2):
            if round_:
                members = list(np.argsort(-total / np.maximum(runs, 1), kind="stable")[: c.refine])
            idx = [finalists[m] for m in members]
            v = self.shot_values(view, start, rack, self._noisy(view, rows[idx], c.samples))
            for m, row in zip(members, v.reshape(len(idx), c.samples)):
                total[m] += row.sum()
                runs[m] += c.samples
        means = np.where(runs > c.samples, total / np.maximum(runs, 1), -np.inf)
        best = int(np.argmax(means))
        i = finalists[best]
        return Choice(Shot(*rows[i].tolist()), float(means[best]), INTENTS[int(kind[i])])

    def place_and_choose(self, view: TableView) -> Choice:
        """Ball in hand: the network rates Search's spots behind the lowest ball (at most two per pocket are kept) and
        the search plays from the best ``placements`` of them."""
        pool = self.playout(view)
        spots = cue_spots(view.balls.pos, view.on, view.rack.lowest, view.table, view.params, pool.sigma)
        if spots:
            xy = [s for s, _ in spots]
            pockets = [o.pocket for _, o in spots]
        else:
            on = view.on.copy()
            on[0] = False
            obj = view.balls.pos[view.rack.lowest]
            xy = [placement.nearest_free(obj[0], obj[1] - 0.3, view.balls.pos[on], view.table, view.params)]
            pockets = [0]
        starts = np.stack([_placed(view, np.asarray(s)) for s in xy])
        v = self.value(pool.features(starts, np.repeat(shot_rack(view)[None], len(xy), axis=0)))
        chosen: list[int] = []
        per_pocket: dict[int, int] = {}
        for k in np.argsort(-v, kind="stable").tolist():
            if per_pocket.get(pockets[k], 0) < 2:
                per_pocket[pockets[k]] = per_pocket.get(pockets[k], 0) + 1
                chosen.append(k)
            if len(chosen) == self.config.placements:
                break
        best: Choice | None = None
        for k in chosen:
            spot = (float(xy[k][0]), float(xy[k][1]))
            choice = self.choose(view, np.asarray(spot))
            if best is None or choice.value > best.value:
                best = Choice(choice.shot, choice.value, choice.intent, spot)
        assert best is not None
        return best

    def break_shot(self, view: TableView) -> Choice:
        """The break the network found offline (``meta["break"][0]``); without one, the best of Search's break book,
        each candidate simulated ``break_samples`` times under noise and valued by where the rack stands after it."""
        t, p = view.table, view.params
        others = view.balls.pos[view.on & (np.arange(len(view.on)) > 0)]
        one = view.balls.pos[view.rack.lowest]
        learned = (getattr(self.value, "meta", None) or {}).get("break")
        if learned:
            b = learned[0]
            spot = placement.nearest_free(t.width / 2.0 + b["dx"], t.head_string_y - p.R - b["dy"], others, t, p,
                                          kitchen=True)
            row = self._playable(view, np.array([[b["V"], direction_deg(spot, one) + b["dphi"], 0.0, 0.0, b["b"]]]))
            return Choice(Shot(*row[0].tolist()), float(b.get("value", 0.0)), "break",
                          (float(spot[0]), float(spot[1])))
        rack = view.rack.packed()
        best: Choice | None = None
        n = self.config.break_samples
        for dx, dy, V, b in BREAK_BOOK:
            spot = placement.nearest_free(t.width / 2.0 + dx, t.head_string_y - dy, others, t, p, kitchen=True)
            start = _placed(view, np.asarray(spot))
            row = self._playable(view, np.array([[V, direction_deg(spot, one), 0.0, 0.0, b]]))
            states, after = self.playout(view).play(start[None], rack[None], np.zeros(n, dtype=np.int64),
                                                    self._noisy(view, row, n), SHOT, BREAK_EVENTS)
            value = float(np.mean(self.outcome_values(view, view.player, states, after)))
            if best is None or value > best.value:
                best = Choice(Shot(*row[0].tolist()), value, "break", (float(spot[0]), float(spot[1])))
        assert best is not None
        return best

    def push_out(self, view: TableView, cue: np.ndarray) -> Choice:
        """The best push-out from ``cue``: soft rolls valued as the opponent's choice leaves them, the best few of them
        ``samples`` times under noise."""
        start = _placed(view, cue)
        r = view.rack
        rack = rules.RackState(r.breaker, view.player, r.on_table, Phase.PUSH_OUT_ALLOWED, BallInHand.NONE,
                               r.foul_counts).packed()
        rows = np.array([(V, a, 0.0, 0.0, 0.0) for a in PUSH_ANGLES for V in PUSH_SPEEDS])
        first = self.shot_values(view, start, rack, rows, PUSH_OUT)
        top = np.argsort(-first, kind="stable")[:PUSH_FINALISTS]
        n = self.config.samples
        means = self.shot_values(view, start, rack, self._noisy(view, rows[top], n), PUSH_OUT).reshape(len(top), n)
        k = int(np.argmax(means.mean(axis=1)))
        return Choice(Shot(*rows[top[k]].tolist()), float(means[k].mean()), "push-out", None, True)

    # -- candidates ---------------------------------------------------------------------------------------

    def _pot_candidates(self, view: TableView, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Shot rows (N, 5): speed × spin grids (Search's) around the throw-corrected aims of the easiest ``options``
        pots, ``candidates`` in all; and the option (0 the easiest) of each row."""
        c = self.config
        on = start[:, 7] <= PK.ROLLING
        found, n = pot_rows(start[0, :2], start[None, :, :2], on[None], [view.rack.lowest], view.table, view.params,
                            self.playout(view).sigma)
        options = [r for r in found[0, : int(n[0])] if r[K.O_EASE] > 0.02][: c.options]
        if not options:
            return np.zeros((0, 5)), np.zeros(0, dtype=np.int64)
        grid = [(f, b, 0.0) for f in SPEED_FACTORS for b in DRAW_FOLLOW] + [
            (f, 0.0, a) for f in (1.2, 1.75, 2.6) for a in SIDE_ENGLISH]
        per = min(max(1, c.candidates // len(options)), len(grid))
        picks = np.unique(np.linspace(0, len(grid) - 1, per).round().astype(int))
        rows, obj, target, direction, which = [], [], [], [], []
        for i, o in enumerate(options):
            V0 = rolling_speed_for(o[K.O_D_CUE], o[K.O_D_OBJ], o[K.O_CUT], 0.5, view.params)
            t = int(o[K.O_TARGET])
            for k in picks.tolist():
                f, b, a = grid[k]
                rows.append((min(max(V0 * f, 0.5), SEARCH_MAX_SPEED), o[K.O_PHI], 0.0, a, b))
                obj.append(start[t, :2])
                target.append(t)
                direction.append(o[K.O_DIRECTION])
                which.append(i)
        out = self._playable(view, np.array(rows))  # aims corrected for the shots as they will be played
        out[:, 1] = corrected_phis(np.repeat(start[0:1, :2], len(out), axis=0), np.array(obj), np.array(target),
                                   np.array(direction), out, view.table, view.params, iterations=1)
        return out, np.array(which, dtype=np.int64)

    def _other_candidates(self, view: TableView, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Safety rows (hits of the lowest ball, one-rail kicks) and, when a ball blocks the lowest, jump rows; their
        kinds."""
        state = BallState.from_packed(start)
        shots = safety_candidates(view, state, self.config.safeties)
        kinds = [SAFETY] * len(shots)
        if self.config.jumps:
            for j in jump_candidates(state.pos[0], state.pos, state.on_table(), view.rack.lowest, view.table,
                                     view.params, tip_max=view.scale.tip_max, v_max=view.scale.v_max):
                shots.append(j.shot)
                kinds.append(JUMP if j.pocket is None else JUMP_POT)
        rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in shots], dtype=float).reshape(-1, 5)
        return rows, np.array(kinds, dtype=np.int64)

    def _playable(self, view: TableView, rows: np.ndarray) -> np.ndarray:
        """Shot rows as the action scale plays them (speed, elevation and tip offsets clipped to its ranges), so what
        is simulated is what is played."""
        s = view.scale
        out = np.array(rows, dtype=np.float64).reshape(-1, 5)
        out[:, 0] = np.clip(out[:, 0], s.v_min, s.v_max)
        out[:, 2] = np.clip(out[:, 2], 0.0, s.theta_max)
        out[:, 3:5] = np.clip(out[:, 3:5], -s.tip_max, s.tip_max)
        return out

    def _noisy(self, view: TableView, rows: np.ndarray, n: int) -> np.ndarray:
        """``n`` noisy copies of each shot row (grouped by row) with the same ``n`` draws for every row (common random
        numbers: candidates are compared on the same errors), as ``nineball_env.noise.perturb`` adds them."""
        return noisy_rows(rows, self.rng.standard_normal((n, 5)), view.noise.sigmas, float(view.params.R))


def noisy_rows(rows: np.ndarray, normals: np.ndarray, sigma: np.ndarray, R: float) -> np.ndarray:
    """Each shot row (M, 5) with each of the error draws ``normals`` (n, 5): (M·n, 5), grouped by row
    (``perturbed_rows`` of every pair)."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, 5)
    n = normals.shape[0]
    return perturbed_rows(np.repeat(rows, n, axis=0), np.tile(normals, (rows.shape[0], 1)), sigma, R)


def perturbed_rows(rows: np.ndarray, normals: np.ndarray, sigma: np.ndarray, R: float) -> np.ndarray:
    """Shot row i (N, 5) with error draw i (N, 5; standard normals in the order ``nineball_env.noise.perturb`` reads
    them: phi, V0, theta, a, b) scaled by ``sigma`` (the noise's sigmas) and kept legal, as ``perturb`` does."""
    out = np.array(rows, dtype=np.float64).reshape(-1, 5)
    e = np.asarray(normals, dtype=np.float64).reshape(-1, 5)
    out[:, 0] = np.clip(out[:, 0] + sigma[1] * e[:, 1], LIMITS[0], LIMITS[1])
    out[:, 1] += sigma[0] * e[:, 0]
    out[:, 2] = np.clip(out[:, 2] + sigma[2] * e[:, 2], 0.0, LIMITS[2])
    out[:, 3] += sigma[3] / R * e[:, 3]
    out[:, 4] += sigma[4] / R * e[:, 4]
    r = np.hypot(out[:, 3], out[:, 4])
    scale = np.where(r > LIMITS[3], LIMITS[3] / np.maximum(r, 1e-300), 1.0)
    out[:, 3] *= scale
    out[:, 4] *= scale
    return out


def _placed(view: TableView, cue: np.ndarray) -> np.ndarray:
    """The view's balls, packed, with the cue ball at rest at ``cue``."""
    state = view.balls.copy()
    state.place(0, float(cue[0]), float(cue[1]))
    return state.packed()


def _top(values: np.ndarray, mask: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` best ``values`` where ``mask`` (best first)."""
    idx = np.flatnonzero(mask)
    if not idx.size or k <= 0:
        return []
    return [int(i) for i in idx[np.argsort(-values[idx], kind="stable")[:k]]]


__all__ = ["Choice", "ValueSearchAgent", "ValueSearchConfig", "load_value", "noisy_rows", "perturbed_rows"]
