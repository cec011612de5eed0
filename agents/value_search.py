"""ValueSearchAgent: a small simulation search whose leaves are scored by a learned value of the position.

Search (``agents.search``) scores a simulated shot by a hand-written ease of the next pot and a two-shot look-ahead;
this agent scores it by a value network: the chance that the player to act wins the rack from where the balls stop
(``ValueNet``, numpy only). Every candidate is simulated and ruled in one compiled call (``value_kernels.play_rows``)
and every outcome valued in one network call, so a decision costs a few hundred simulations and a few matrix products.

A decision: candidate pots (a speed × spin grid around the throw-corrected aim of the easiest pots of the lowest ball),
safeties and, when a ball blocks the lowest, jumps are simulated once without noise and valued; the best pots and
safeties are then simulated ``samples`` times under the game's noise (the same noise draws for every candidate), the
best ``refine`` of them ``samples`` times more, and the best mean value is played. The value of an outcome is 1 or 0
when the rack is over, v when the player stays at the table and 1 − v when the opponent comes to it (with ball in
hand after a foul), v the network's value for whoever acts next. With ball in hand the network rates many spots
before the search looks at the best few; the break is chosen among a few candidates by the mean value of their
simulated outcomes; push-outs are valued as the opponent's choice would leave them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

import physics
from agents import value_kernels as VK
from agents.base import TableView, ViewAgent
from agents.leaves import shot_rack
from agents.search import BREAK_BOOK, SearchAgent
from agents.shots import (aim_sigma, corrected_phis, cue_spots, direction_deg, jump_candidates, pocket_geometry,
                          pot_rows, rolling_speed_for)
from agents import macro_kernels as K
from nineball_env import actions, placement, rules
from nineball_env.kernels.codes import BallInHandCode, DeclarationCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.noise import LIMITS
from nineball_env.rules import BallInHand, Phase
from nineball_env.rules.facts import SIMULTANEOUS_S
from physics import Shot
from physics.api import params_array
from physics.validate import OVERLAP_TOL

MAX_EVENTS, MAX_TIME = 1000, 60.0  # caps of one simulated ordinary shot
BREAK_EVENTS = 2000
FORMAT_VERSION = 1
SHIPPED = "weights/value.npz"  # inside the agents package
#: The pot grid around each aim: cue speeds as multiples of the speed that just rolls the ball in, and draw/follow
#: (within the action scale's tip range, so what is simulated is what is played).
SPEED_FACTORS = (0.85, 1.0, 1.2, 1.45, 1.75, 2.1, 2.6, 3.2, 4.0)
SPINS = (-0.5, -0.3, -0.1, 0.15, 0.4)
SIDES = (0.3, -0.3)
MAX_SPEED = 8.0  # [m/s] the fastest ordinary shot tried
PUSH_ANGLES = tuple(float(a) for a in range(0, 360, 20))
PUSH_SPEEDS = (0.5, 0.9)
INTENTS = ("pot", "safety", "jump", "jump-pot")


class ValueNet:
    """The value network in numpy: features (``value_kernels.position_features``) -> chance that the player to act
    wins the rack. A ReLU MLP with a sigmoid output; the weights ``w0, b0, w1, ...`` as ``y = x @ w + b``."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], meta: dict[str, Any] | None = None
                 ) -> None:
        if not weights or len(weights) != len(biases):
            raise ValueError(f"layers: expected as many weight matrices as bias vectors (at least one), got "
                             f"{len(weights)} and {len(biases)}")
        for i, (w, b) in enumerate(zip(weights, biases)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {i}: expected weights (n_in, n_out) and bias (n_out,), got {w.shape}, "
                                 f"{b.shape}")
            if i and w.shape[0] != weights[i - 1].shape[1]:
                raise ValueError(f"layer {i}: takes {w.shape[0]} inputs, the layer before gives "
                                 f"{weights[i - 1].shape[1]}")
        if weights[0].shape[0] != VK.N_FEATURES or weights[-1].shape[1] != 1:
            raise ValueError(f"layers: expected {VK.N_FEATURES} inputs and 1 output, got {weights[0].shape[0]} and "
                             f"{weights[-1].shape[1]}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.meta = dict(meta or {})

    def logits(self, features: np.ndarray) -> np.ndarray:
        """The output before the sigmoid (N,) of feature rows (N, N_FEATURES) (``value_kernels.dense``, layer by layer)."""
        x = np.ascontiguousarray(features, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != VK.N_FEATURES:
            raise ValueError(f"features: expected shape (N, {VK.N_FEATURES}), got {x.shape}")
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            out = np.empty((x.shape[0], w.shape[1]), dtype=np.float32)
            VK.dense(x, w, b, i < last, out)
            x = out
        return x[:, 0]

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """The values (N,) in (0, 1) of feature rows (N, N_FEATURES)."""
        return 1.0 / (1.0 + np.exp(-self.logits(features).astype(np.float64)))

    def save(self, path: str | Path) -> Path:
        import json

        path = Path(path)
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b for i, b in enumerate(self.biases)}
        np.savez_compressed(path, **arrays, version=np.array(FORMAT_VERSION), meta=np.array(json.dumps(self.meta)))
        return path

    @classmethod
    def load(cls, path: str | Path) -> "ValueNet":
        import json

        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no value network at {path}")
        with np.load(path, allow_pickle=False) as data:
            version = int(data["version"]) if "version" in data else -1
            if version != FORMAT_VERSION:
                raise ValueError(f"{path}: expected a value network of format {FORMAT_VERSION}, got {version}")
            n = sum(1 for k in data.files if k.startswith("w") and k[1:].isdigit())
            return cls([data[f"w{i}"] for i in range(n)], [data[f"b{i}"] for i in range(n)],
                       json.loads(str(data["meta"])))

    @classmethod
    def shipped(cls) -> "ValueNet":
        with resources.as_file(resources.files("agents") / SHIPPED) as path:
            return cls.load(path)


class EaseValue:
    """The hand-written value the first generation of training plays with (Search's leaf values in this form):
    0.5 + 0.5·e, e the estimated chance of potting the lowest ball from the cue ball (with ball in hand: how
    pottable the lowest ball is)."""

    meta: dict[str, Any] = {}

    def __call__(self, features: np.ndarray) -> np.ndarray:
        f = np.asarray(features, dtype=np.float64)
        e = np.where(f[:, VK.F_IN_HAND] > 0.5, f[:, VK.F_RATED0], np.maximum(f[:, VK.F_EASE], f[:, VK.F_COMBO]))
        return 0.5 + 0.5 * e


@dataclass(frozen=True)
class ValueSearchConfig:
    """Budget of the search.

    Attributes:
        options: pots (ball and pocket) the pot candidates are spread over, easiest first.
        candidates: pot candidates simulated once without noise.
        safeties: safety candidates simulated once without noise (when the pots leave room for one).
        top_pots, top_safeties: pot and safety (or jump) candidates then simulated under noise.
        samples: noisy simulations per candidate in each round.
        refine: the best candidates after the first round, which get ``samples`` more.
        placements: ball-in-hand spots searched (the best by the network among Search's spots).
        break_samples: noisy simulations per break candidate.
        jumps: search jumps over a ball that blocks the lowest one.
        push_below: consider a push-out (when allowed) when the best shot is worth less than this.
        weights: a value network file (``ValueNet``); "" plays the shipped one, "ease" the hand-written value.
        assumed_noise: noise preset assumed when no ``TableView`` is given (as an env opponent).
    """

    options: int = 4
    candidates: int = 120
    safeties: int = 40
    top_pots: int = 8
    top_safeties: int = 3
    samples: int = 12
    refine: int = 3
    placements: int = 2
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


@dataclass(frozen=True)
class Choice:
    """A searched shot: the strike, its mean value, what it is meant as, the cue-ball spot when placed."""

    shot: Shot
    value: float
    intent: str
    spot: tuple[float, float] | None = None
    push_out: bool = False


class _Tables:
    """What the kernels read of one table, physics and noise (built once per decision)."""

    def __init__(self, view: TableView) -> None:
        t = view.table
        self.aims, self.axes, self.model = pocket_geometry(t)
        self.params = params_array(view.params)
        self.segments, self.jaws, self.pockets, self.rail = t.segments, t.jaws, t.pockets, t.rail
        self.width, self.length = float(t.spec.width), float(t.spec.length)
        self.foot = t.foot_spot
        self.R = float(view.params.R)
        self.sigma = aim_sigma(view.noise)


class ValueSearchAgent(ViewAgent):
    """Simulation search with a learned leaf value (see the module docstring); seeded, so reproducible."""

    name = "value"

    def __init__(self, config: ValueSearchConfig | None = None, seed: int | None = None,
                 value: Any | None = None) -> None:
        super().__init__(seed)
        self.config = config or ValueSearchConfig()
        if value is None:
            w = self.config.weights
            value = EaseValue() if w == "ease" else ValueNet.shipped() if not w else ValueNet.load(w)
        self.value = value
        self.last: Choice | None = None
        self.search = SearchAgent()  # its safety candidates

    # -- valuing outcomes ---------------------------------------------------------------------------------

    def features(self, view: TableView, states: np.ndarray, racks: np.ndarray) -> np.ndarray:
        """``value_kernels.position_features`` of packed states (N, n, 9) and rack rows (N, RACK_W)."""
        T = _Tables(view)
        out = np.empty((states.shape[0], VK.N_FEATURES))
        VK.position_features(np.ascontiguousarray(states), np.ascontiguousarray(racks, dtype=np.int64), T.aims, T.axes,
                             T.model, T.width, T.length, T.R, T.sigma, out)
        return out

    def outcome_values(self, view: TableView, me: int, states: np.ndarray, after: np.ndarray) -> np.ndarray:
        """Value for player ``me`` of each outcome (the balls at rest and the rack row after the shot)."""
        values = np.empty(after.shape[0])
        over = after[:, C.WINNER] >= 0
        values[over] = (after[over, C.WINNER] == me).astype(float)
        rejected = after[:, C.SHOOTER] == VK.REJECTED
        values[rejected] = -1.0
        live = ~over & ~rejected
        if live.any():
            rows = after[live].copy()
            choice = rows[:, C.PHASE] == PhaseCode.PUSH_OUT_CHOICE
            # after a push-out the opponent chooses: shoot from there, or make the pusher shoot
            rows[choice, C.PHASE] = PhaseCode.NORMAL
            v = self.value(self.features(view, states[live], rows))
            mine = rows[:, C.SHOOTER] == me
            out = np.where(mine, v, 1.0 - v)
            if choice.any():
                back = rows[choice].copy()
                back[:, C.SHOOTER] = 1 - back[:, C.SHOOTER]
                vb = self.value(self.features(view, states[live][choice], back))
                pusher_shoots = np.where(back[:, C.SHOOTER] == me, vb, 1.0 - vb)
                out[choice] = np.minimum(out[choice], pusher_shoots)
            values[live] = out
        return values

    def play(self, view: TableView, start: np.ndarray, rack: np.ndarray, shots: np.ndarray,
             declaration: int = int(DeclarationCode.SHOT), max_events: int = MAX_EVENTS,
             which: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The balls at rest and the rack rows after each shot row (N, 5): from the packed ``start`` (n, 9) and rack
        row ``rack``, or, with ``which``, from ``start[which[i]]`` (M, n, 9) and ``rack[which[i]]`` (M, RACK_W)."""
        T = _Tables(view)
        n = shots.shape[0]
        if which is None:
            start, rack, which = start[None], rack[None], np.zeros(n, dtype=np.int64)
        states = np.empty((n, *start.shape[1:]))
        after = np.empty((n, rack.shape[1]), dtype=np.int64)
        VK.play_rows(np.ascontiguousarray(start, dtype=np.float64), np.ascontiguousarray(rack, dtype=np.int64),
                     np.ascontiguousarray(which, dtype=np.int64), np.ascontiguousarray(shots, dtype=np.float64),
                     np.full(n, declaration, dtype=np.int64), T.segments, T.jaws, T.pockets, T.params, T.width,
                     T.length, T.rail, OVERLAP_TOL, max_events, MAX_TIME, SIMULTANEOUS_S, float(T.foot[0]),
                     float(T.foot[1]), states, after)
        return states, after

    def shot_values(self, view: TableView, start: np.ndarray, rack: np.ndarray, shots: np.ndarray,
                    declaration: int = int(DeclarationCode.SHOT), max_events: int = MAX_EVENTS) -> np.ndarray:
        """The value for the deciding player of each shot row from ``start``."""
        states, after = self.play(view, start, rack, shots, declaration, max_events)
        return self.outcome_values(view, view.player, states, after)

    # -- decisions ----------------------------------------------------------------------------------------

    def decide(self, view: TableView) -> np.ndarray:
        rack = view.rack
        if rack.phase is Phase.PUSH_OUT_CHOICE:
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
            push = self.push_out(view, np.asarray(choice.spot if choice.spot else view.balls.pos[0], dtype=float))
            if push is not None and push.value > choice.value:
                choice = Choice(push.shot, push.value, "push-out", choice.spot, True)
        self.intent, self.last = choice.intent, choice
        if choice.intent in self.jumps:
            self.jumps[choice.intent] += 1
        in_hand = str(rack.ball_in_hand)
        return actions.shot_to_action(choice.shot, placement=choice.spot,
                                      ball_in_hand=in_hand if choice.spot is not None else "anywhere",
                                      push_out=choice.push_out, table=view.table, params=view.params, scale=view.scale)

    def _start(self, view: TableView, cue: np.ndarray) -> np.ndarray:
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        return state.packed()

    def choose(self, view: TableView, cue: np.ndarray) -> Choice:
        """The best shot from cue position ``cue`` (see the module docstring)."""
        c = self.config
        start = self._start(view, cue)
        rack = shot_rack(view)
        pots, option = self._pot_candidates(view, start, c.candidates)
        others, kinds = self._other_candidates(view, start)
        rows = np.concatenate([pots, others]) if len(others) else pots
        kind = np.concatenate([np.zeros(len(pots), dtype=np.int64), kinds])
        if not len(rows):  # nothing to play: hit the lowest ball softly
            return Choice(Shot(V0=2.0, phi=direction_deg(cue, view.balls.pos[view.rack.lowest])), 0.0, "safety")
        rows = self._playable(view, rows)
        first = self.shot_values(view, start, rack, rows)
        # the best shot of every pot option, then the best pots whatever their option, then the best safeties
        finalists = [j for o in range(c.options) for j in _top(first[: len(pots)], option == o, 1)]
        finalists += [j for j in _top(first, kind == 0, c.top_pots) if j not in finalists][: max(c.top_pots - len(finalists), 0)]
        finalists += _top(first, kind != 0, c.top_safeties)
        if not finalists:
            finalists = [int(np.argmax(first))]
        stats = np.zeros((len(finalists), 2))  # sum of values, runs
        for members in (range(len(finalists)), None):
            if members is None:
                means = stats[:, 0] / np.maximum(stats[:, 1], 1)
                members = list(np.argsort(-means, kind="stable")[: c.refine])
            idx = [finalists[m] for m in members]
            noisy = self._noisy(view, rows[idx], c.samples)
            v = self.shot_values(view, start, rack, noisy).reshape(len(idx), c.samples)
            for m, row in zip(members, v):
                stats[m, 0] += row.sum()
                stats[m, 1] += c.samples
        refined = stats[:, 1] > c.samples
        means = np.where(refined, stats[:, 0] / np.maximum(stats[:, 1], 1), -np.inf)
        best = int(np.argmax(means))
        i = finalists[best]
        return Choice(Shot(*rows[i].tolist()), float(means[best]), INTENTS[int(kind[i])])

    def place_and_choose(self, view: TableView) -> Choice:
        """Ball in hand: the network rates Search's spots behind the lowest ball (two per pocket at most), the
        search plays from the best ``placements`` of them."""
        T = _Tables(view)
        spots = cue_spots(view.balls.pos, view.on, view.rack.lowest, view.table, view.params, T.sigma)
        if not spots:
            on = view.on.copy()
            on[0] = False
            obj = view.balls.pos[view.rack.lowest]
            spots_xy = [placement.nearest_free(obj[0], obj[1] - 0.3, view.balls.pos[on], view.table, view.params)]
            pockets = [0]
        else:
            spots_xy = [s for s, _ in spots]
            pockets = [o.pocket for _, o in spots]
        starts = np.stack([self._start(view, np.asarray(s)) for s in spots_xy])
        rack = np.repeat(shot_rack(view)[None], len(spots_xy), axis=0)
        v = self.value(self.features(view, starts, rack))
        chosen, per_pocket = [], {}
        for k in np.argsort(-v, kind="stable"):
            if per_pocket.get(pockets[k], 0) >= 2:
                continue
            per_pocket[pockets[k]] = per_pocket.get(pockets[k], 0) + 1
            chosen.append(int(k))
            if len(chosen) == self.config.placements:
                break
        best: Choice | None = None
        for k in chosen:
            spot = (float(spots_xy[k][0]), float(spots_xy[k][1]))
            choice = self.choose(view, np.asarray(spot))
            if best is None or choice.value > best.value:
                best = Choice(choice.shot, choice.value, choice.intent, spot)
        assert best is not None
        return best

    def break_shot(self, view: TableView) -> Choice:
        """The break: the network's own break (``meta["break"]``, found offline by ``train_value.optimize_break``)
        when it has one; else each candidate of Search's book simulated ``break_samples`` times under noise and valued
        by where the rack stands after it, the best mean winning."""
        t, p = view.table, view.params
        others = view.balls.pos[view.on & (np.arange(len(view.on)) > 0)]
        one = view.balls.pos[view.rack.lowest]
        learned = getattr(self.value, "meta", {}).get("break")
        if learned:
            b = learned[0]
            spot = placement.nearest_free(t.width / 2.0 + b["dx"], t.head_string_y - p.R - b["dy"], others, t, p,
                                          kitchen=True)
            row = self._playable(view, np.array([[b["V"], direction_deg(spot, one) + b["dphi"], 0.0, 0.0, b["b"]]]))
            return Choice(Shot(*row[0].tolist()), float(b["value"]), "break", (float(spot[0]), float(spot[1])))
        rack = view.rack.packed()
        best: Choice | None = None
        n = self.config.break_samples
        for dx, dy, V, b in BREAK_BOOK:
            spot = placement.nearest_free(t.width / 2.0 + dx, t.head_string_y - dy, others, t, p, kitchen=True)
            start = self._start(view, np.asarray(spot))
            row = self._playable(view, np.array([[V, direction_deg(spot, one), 0.0, 0.0, b]]))
            noisy = self._noisy(view, row, n)
            states, after = self.play(view, start, rack, noisy, max_events=BREAK_EVENTS)
            value = float(np.mean(self.outcome_values(view, view.player, states, after)))
            if best is None or value > best.value:
                best = Choice(Shot(*row[0].tolist()), value, "break", (float(spot[0]), float(spot[1])))
        assert best is not None
        return best

    def push_out(self, view: TableView, cue: np.ndarray) -> Choice | None:
        """The best push-out: soft rolls valued as the opponent's choice leaves them (each a few times under noise)."""
        start = self._start(view, cue)
        r = view.rack
        rack = rules.RackState(r.breaker, view.player, r.on_table, Phase.PUSH_OUT_ALLOWED, BallInHand.NONE,
                               r.foul_counts).packed()
        rows = np.array([(V, a, 0.0, 0.0, 0.0) for a in PUSH_ANGLES for V in PUSH_SPEEDS])
        first = self.shot_values(view, start, rack, rows, int(DeclarationCode.PUSH_OUT))
        top = list(np.argsort(-first, kind="stable")[:4])
        n = self.config.samples
        noisy = self._noisy(view, rows[top], n)
        means = self.shot_values(view, start, rack, noisy, int(DeclarationCode.PUSH_OUT)).reshape(len(top), n).mean(1)
        k = int(np.argmax(means))
        return Choice(Shot(*rows[top[k]].tolist()), float(means[k]), "push-out", None, True)

    # -- candidates ---------------------------------------------------------------------------------------

    def _pot_candidates(self, view: TableView, start: np.ndarray, budget: int) -> tuple[np.ndarray, np.ndarray]:
        """Shot rows: speed × spin grids around the throw-corrected aims of the easiest ``options`` pots, and the
        option (0 the easiest) of each."""
        c = self.config
        on = start[:, 7] <= VK.ROLLING
        T = _Tables(view)
        found, n = pot_rows(start[0, :2], start[None, :, :2], on[None], [view.rack.lowest], view.table, view.params,
                            T.sigma)
        options = [r for r in found[0, : int(n[0])] if r[K.O_EASE] > 0.02][: c.options]
        if not options:
            return np.zeros((0, 5)), np.zeros(0, dtype=np.int64)
        grid = [(f, b, 0.0) for f in SPEED_FACTORS for b in SPINS] + [(f, 0.0, a) for f in (1.2, 1.75, 2.6)
                                                                       for a in SIDES]
        per = max(1, budget // len(options))
        idx = np.unique(np.linspace(0, len(grid) - 1, min(per, len(grid))).round().astype(int))
        rows, obj, target, direction, which = [], [], [], [], []
        for i, o in enumerate(options):
            V0 = rolling_speed_for(o[K.O_D_CUE], o[K.O_D_OBJ], o[K.O_CUT], 0.5, view.params)
            t = int(o[K.O_TARGET])
            for k in idx:
                f, b, a = grid[k]
                rows.append((min(max(V0 * f, 0.5), MAX_SPEED), o[K.O_PHI], 0.0, a, b))
                obj.append(start[t, :2])
                target.append(t)
                direction.append(o[K.O_DIRECTION])
                which.append(i)
        rows_arr = np.array(rows)
        rows_arr[:, 1] = corrected_phis(np.repeat(start[0:1, :2], len(rows), axis=0), np.array(obj), np.array(target),
                                        np.array(direction), rows_arr, view.table, view.params, iterations=1)
        return rows_arr, np.array(which, dtype=np.int64)

    def _other_candidates(self, view: TableView, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Safety rows (Search's hits of the lowest ball and one-rail kicks) and jump rows, with their kinds."""
        c = self.config
        state = physics.BallState.from_packed(start)
        rows = [(s.V0, s.phi, s.theta, s.a, s.b) for s in self.search._safety_candidates(view, state, c.safeties)]
        kinds = [1] * len(rows)
        if c.jumps:
            for j in jump_candidates(state.pos[0], state.pos, state.on_table(), view.rack.lowest, view.table,
                                     view.params, tip_max=view.scale.tip_max, v_max=view.scale.v_max):
                s = j.shot
                rows.append((s.V0, s.phi, s.theta, s.a, s.b))
                kinds.append(2 if j.pocket is None else 3)
        return np.array(rows, dtype=float).reshape(-1, 5), np.array(kinds, dtype=np.int64)

    def _playable(self, view: TableView, rows: np.ndarray) -> np.ndarray:
        """Shot rows as the action scale will play them (speed, elevation and tip offsets clipped to its ranges)."""
        s = view.scale
        out = np.array(rows, dtype=np.float64).reshape(-1, 5)
        out[:, 0] = np.clip(out[:, 0], s.v_min, s.v_max)
        out[:, 2] = np.clip(out[:, 2], 0.0, s.theta_max)
        out[:, 3:5] = np.clip(out[:, 3:5], -s.tip_max, s.tip_max)
        return out

    def _noisy(self, view: TableView, rows: np.ndarray, n: int) -> np.ndarray:
        """``n`` noisy copies of each shot row (grouped by row), the same ``n`` noise draws for every row (common
        random numbers: candidates are compared on the same errors), as ``nineball_env.noise.perturb`` adds them."""
        out = np.repeat(np.asarray(rows, dtype=np.float64).reshape(-1, 5), n, axis=0)
        noise = view.noise
        if noise.silent:
            return out
        e = np.tile(self.rng.standard_normal((n, 5)), (len(rows), 1))
        sigma, R = noise.sigmas, view.params.R
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


def _top(values: np.ndarray, mask: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` best ``values`` where ``mask`` (best first)."""
    idx = np.flatnonzero(mask)
    if not idx.size or k <= 0:
        return []
    return [int(i) for i in idx[np.argsort(-values[idx], kind="stable")[:k]]]
