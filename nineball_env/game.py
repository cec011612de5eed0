"""The game of nine-ball, written once: ``TableBatch`` plays B tables held as arrays; a ``Game`` is a batch of one.

A round of decisions costs a few array operations, one simulation (``physics.simulate`` for a lone table,
whose result is kept for rendering and records; ``physics.simulate_batch_packed`` for many), one read of
the event logs (``rules.facts.ShotFacts``) and one call of the rules kernel (``kernels.ruling.rule_batch``). Python
runs per table only for what is rare: a new rack, spotting the 9, a blocked ball-in-hand spot, a shot that
hit the event/time cap. Players are 0 and 1; the rules say who acts next.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

import physics
from nineball_env import actions, placement, rules
from nineball_env.kernels.codes import DECLARATIONS, MAX_CITED, OBS_SIZE, RACK_W, BallInHandCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.observe import encode_rows
from nineball_env.kernels.round import apply_round, move_cue, prepare_round
from nineball_env.kernels.ruling import rule_batch
from nineball_env.noise import LIMITS, PRESETS, NoiseConfig
from nineball_env.rules.facts import ShotFacts
from nineball_env.rules.match import next_breaker
from nineball_env.rules.ruling import cited_rules, describe_row, foul_rules
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, Motion, PhysicsParams, SimResult, Table

SILENT = PRESETS["none"]
MAX_CONTINUATIONS = 4  # extra simulate calls when a shot hits the event or time cap
ON_TABLE_MAX = int(Motion.ROLLING)  # motion codes <= this are on the table
# the codes as plain ints for the Python side (an IntEnum member lookup costs a function call)
_SHOOTER, _PHASE, _IN_HAND, _WINNER, _BREAKER = (int(c) for c in (C.SHOOTER, C.PHASE, C.IN_HAND, C.WINNER, C.BREAKER))
_CHOICE, _OVER = int(PhaseCode.PUSH_OUT_CHOICE), int(PhaseCode.RACK_OVER)
_IN_HAND_NONE, _KITCHEN = int(BallInHandCode.NONE), int(BallInHandCode.KITCHEN)


@dataclass(frozen=True)
class GameConfig:
    """How a game is played: table, physics, match length, break order, caps and placement strictness."""

    table: Table = DEFAULT_TABLE
    params: PhysicsParams = DEFAULT_PARAMS
    race_to: int = 1
    break_order: str = "alternate"
    strict_placement: bool = False
    max_events: int = physics.DEFAULT_MAX_EVENTS
    max_time: float = physics.DEFAULT_MAX_TIME

    def __post_init__(self) -> None:
        if not isinstance(self.table, Table):
            raise ValueError(f"table: expected a physics.Table, got {type(self.table).__name__}")
        if not isinstance(self.params, PhysicsParams):
            raise ValueError(f"params: expected a physics.PhysicsParams, got {type(self.params).__name__}")
        rules.Match(self.race_to, self.break_order)  # ValueError for a bad race_to or break_order (R-MATCH)


class Outcome(NamedTuple):
    """What one decision did: the rules' ruling in parts, and how the decision was played.

    Attributes:
        player: who decided.
        declaration, fouls, cited, pocketed, off_table, nine_spotted: the ruling's (see ``rules.Ruling``).
        before, after: the rack before and right after the ruling, packed (a list, ``RackState.packed``);
            ``ruling`` gives both as states.
        rack_winner: the player who won the rack if this decision ended it, else None.
        placement: where the cue ball was placed (ball in hand), else None.
        placement_adjusted: the requested placement was illegal and moved to the nearest legal spot.
        n_events: events the physics logged for the shot (0 for the push-out choice).
        result: the simulation of a lone table's shot (None for the push-out choice and in a batch), for rendering.
        shot: the cue parameters a lone table's shot was played with, execution noise included, for records.
    """

    player: int
    declaration: rules.Declaration
    fouls: tuple[rules.RuleId, ...]
    cited: tuple[rules.RuleId, ...]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]
    nine_spotted: bool
    before: list[int]
    after: list[int]
    rack_winner: int | None = None
    placement: tuple[float, float] | None = None
    placement_adjusted: bool = False
    n_events: int = 0
    result: SimResult | None = None
    shot: physics.Shot | None = None

    @property
    def ruling(self) -> rules.Ruling:
        """The readable ruling (``rules.Ruling``), its rack states validated."""
        before, after = (rules.RackState.from_packed(np.asarray(s, dtype=np.int64)) for s in (self.before, self.after))
        return rules.Ruling(before, self.declaration, self.fouls, self.cited, self.pocketed, self.off_table,
                            self.nine_spotted, after)

    @property
    def foul(self) -> bool:
        """The decision was a foul."""
        return bool(self.fouls)

    @property
    def legal_pots(self) -> int:
        """Object balls pocketed on a legal shot (not a push-out): what reward shaping counts."""
        if self.fouls or self.declaration is not rules.Declaration.SHOT:
            return 0
        return sum(1 for b in self.pocketed if b != 0)

    def text(self) -> str:
        """The ruling in one line (``rules.Ruling.describe``), without building the ruling."""
        return describe_row(self.fouls, self.cited, self.nine_spotted, self.after)

    def __repr__(self) -> str:
        return (f"Outcome(player={self.player}, {self.declaration}: {self.text()}, placement={self.placement}, "
                f"adjusted={self.placement_adjusted}, n_events={self.n_events})")

    def __eq__(self, other: object) -> bool:  # the simulation is not compared
        return isinstance(other, Outcome) and self[:_COMPARED] == other[:_COMPARED]

    __hash__ = None  # type: ignore[assignment]


_COMPARED = Outcome._fields.index("result")


@dataclass(frozen=True)
class GameSnapshot:
    """Everything needed to put a game back where it was (the generator's state included)."""

    balls: BallState
    rack: rules.RackState
    match: rules.Match
    rng_state: dict
    last: Outcome | None


@functools.lru_cache(maxsize=16)
def _rack_slots(table: Table, params: PhysicsParams) -> np.ndarray:
    """The diamond's slot centres for a table and ball size (computed once)."""
    slots = physics.rack_positions(table, params)
    slots.flags.writeable = False
    return slots


@functools.lru_cache(maxsize=2)
def _start_row(breaker: int) -> np.ndarray:
    """A fresh rack broken by ``breaker`` (``rules.RackState.start``), packed once."""
    return rules.RackState.start(breaker).packed()


def complete_shot(result: SimResult, cfg: GameConfig) -> tuple[SimResult, np.ndarray]:
    """Continue a first simulation past the event/time caps (at most ``MAX_CONTINUATIONS`` more calls,
    then stop what still moves); the result to rest and the log rows of every call (times running on)."""
    if not (result.hit_event_cap or result.hit_time_cap):
        return result, result.events.rows
    parts = [result.events.rows]
    final, offset, capped = result.state, result.duration, True
    while capped and len(parts) <= MAX_CONTINUATIONS:
        more = physics.simulate(final, None, cfg.table, cfg.params, max_events=cfg.max_events,
                                max_time=cfg.max_time)
        shifted = more.events.rows.copy()
        shifted[:, 0] += offset
        parts.append(shifted)
        final, offset, capped = more.state, offset + more.duration, more.hit_event_cap or more.hit_time_cap
    if capped and not final.at_rest():  # give up: stop whatever still moves where it is
        moving = final.on_table() & (final.motion != int(Motion.STATIONARY))
        final.vel[moving] = 0.0
        final.spin[moving] = 0.0
        final.motion[moving] = int(Motion.STATIONARY)
    if final is not result.state:
        result = SimResult(result.initial, final, result.events, result.hit_event_cap, result.hit_time_cap)
    return result, np.concatenate(parts)


class TableBatch:
    """``n`` matches with one configuration; table k draws from ``rngs[k]`` (rack shuffles, breaker, noise).

    Args:
        config: the game configuration of every table.
        rngs: one generator per table (held by reference).
        noise: execution noise of every decision.
        scale: action scale.
        log_capacity: events kept per table in a batch log (a longer shot is re-simulated alone).
        threads: numba threads for the batch physics (None: numba's default).
        breakers: the first breaker of each table (None: deal nothing yet, ``deal`` does it).
    """

    def __init__(self, config: GameConfig, rngs: list[np.random.Generator], noise: NoiseConfig = SILENT,
                 scale: actions.ActionScale = actions.DEFAULT_SCALE, log_capacity: int = 256,
                 threads: int | None = None, breakers: list[int] | None = None) -> None:
        n = len(rngs)
        self.config, self.rngs, self.noise = config, rngs, noise
        self.log_capacity, self.threads = log_capacity, threads
        t, p = config.table, config.params
        self.balls = np.zeros((n, 10, 9))
        self.rack = np.zeros((n, RACK_W), dtype=np.int64)
        self.won = np.zeros((n, 2), dtype=np.int64)
        self.next_breaker = np.zeros(n, dtype=np.int64)  # the match's breaker: of this rack, then of the next
        self.done = np.zeros(n, dtype=np.bool_)  # the match is decided (kept beside ``won``: asked every round)
        self.last: list[Outcome | None] = [None] * n  # each table's latest decision
        self._pockets = np.ascontiguousarray(t.pockets, dtype=np.float64)
        self._box = np.array([p.R, t.width - p.R, t.head_string_y, t.length - p.R, t.width, t.length])
        self._sigma = noise.sigmas
        self._scale = scale.row
        self._errors = np.zeros((n, 5))  # each round's noise draws (rows of tables that shoot)
        for k, breaker in enumerate(breakers or ()):
            self.deal(k, breaker)

    # -- state --------------------------------------------------------------------------------------

    def to_move(self, ks: np.ndarray, player: int) -> np.ndarray:
        """Which of tables ``ks`` await a decision of ``player``."""
        return (self.rack[ks, _SHOOTER] == player) & ~self.done[ks]

    def snapshot(self) -> tuple:
        """Copies of every array and generator state, and the latest decisions (``restore`` puts them back)."""
        return (self.balls.copy(), self.rack.copy(), self.won.copy(), self.next_breaker.copy(),
                [rng.bit_generator.state for rng in self.rngs], list(self.last))

    def restore(self, snap: tuple) -> None:
        self.balls[:], self.rack[:], self.won[:], self.next_breaker[:] = snap[:4]
        for rng, state in zip(self.rngs, snap[4]):
            rng.bit_generator.state = state
        self.last[:] = snap[5]
        self.done[:] = self.won.max(axis=1) >= self.config.race_to

    def match(self, k: int) -> rules.Match:
        """Table k's match (score and next breaker) as the rules' frozen ``Match``."""
        cfg = self.config
        return rules.Match(cfg.race_to, cfg.break_order, int(self.next_breaker[k]),
                           tuple(self.won[k].tolist()))

    # -- dealing ------------------------------------------------------------------------------------

    def deal(self, k: int, breaker: int) -> None:
        """A new match on table k broken by ``breaker``."""
        self.won[k] = 0
        self.done[k] = False
        self.next_breaker[k] = breaker
        self.last[k] = None
        self._new_rack(k)

    def _new_rack(self, k: int) -> None:
        """The next rack of table k's match (``rules.new_rack``): a tight rack from its generator (R-RACK)."""
        order = list(rules.rack_order(self.rngs[k]))
        balls = self.balls[k]
        balls[:] = _OFF_TABLE  # the cue ball in hand
        balls[order, 0:2] = _rack_slots(self.config.table, self.config.params)
        balls[order, 7] = int(Motion.STATIONARY)
        self.rack[k] = _start_row(int(self.next_breaker[k]))

    # -- observations -------------------------------------------------------------------------------

    def encode(self, ks: np.ndarray, player: int) -> np.ndarray:
        """The observation of ``player`` on tables ``ks`` (``nineball_env.observation``), (len(ks), 54) float32."""
        t = self.config.table
        obs = np.empty((len(ks), OBS_SIZE))
        encode_rows(self.balls, self.rack, self.won, np.asarray(ks, dtype=np.int64), player, self.config.race_to,
                    1.0 / t.width, 1.0 / t.length, obs)
        return obs.astype(np.float32)

    # -- decisions ----------------------------------------------------------------------------------

    def play(self, ks: np.ndarray, player: int, acts: np.ndarray,
             noise_rngs: list[np.random.Generator] | None = None, shots: np.ndarray | None = None) -> list[Outcome]:
        """Play ``player``'s checked actions ``acts`` (one row per table of ``ks``, each awaiting ``player``):
        decode, execution noise (drawn from ``noise_rngs[i]``, default each table's generator), ball-in-hand
        placement, then ``_resolve``. ``shots`` (rows V0, phi, theta, a, b) replace the decoded strikes and
        get no noise (a recorded shot is replayed so). Raises ValueError before anything changes but generator
        draws (the caller restores those) when ``strict_placement`` is set and a placement is not free."""
        n = len(ks)
        errors = self._errors[:n]
        noisy = not self.noise.silent and shots is None
        if noisy:
            for i, phase in enumerate(self.rack[ks, _PHASE].tolist()):  # each shooting table's draws
                if phase != _CHOICE:
                    errors[i] = (self.rngs[ks[i]] if noise_rngs is None else noise_rngs[i]).standard_normal(5)
        start = np.empty((n, 10, 9))
        rows = np.empty((n, 5))
        declaration = np.empty(n, dtype=np.int64)
        placed = np.empty(n, dtype=np.bool_)
        free = np.empty(n, dtype=np.bool_)
        prepare_round(self.balls, self.rack, ks, acts, errors, noisy, self._sigma, self.config.params.R, self._scale,
                      LIMITS, self._box, self._pockets, start, rows, declaration, placed, free)
        if shots is not None:
            rows[:] = np.where(np.isnan(rows), rows, shots)  # the push-out choice keeps its empty row
        return self._resolve(ks, player, declaration, start, rows, placed, ~free)

    def _resolve(self, ks: np.ndarray, player: int, declaration: np.ndarray, start: np.ndarray, rows: np.ndarray,
                 placed: np.ndarray, blocked: np.ndarray) -> list[Outcome]:
        """Play decided rows: move blocked placements, simulate the shots, rule, and apply the rulings (the 9
        spotted, a cue ball in hand taken up, finished racks scored and the next one dealt)."""
        n = len(ks)
        rack = self.rack[ks]
        for i in _true(blocked):
            self._move_to_free(start, i, rack[i, _IN_HAND] == _KITCHEN)
        facts = ShotFacts(n)  # no facts for the push-out choice: empty rows
        n_events = np.zeros(n, dtype=np.int64)
        sim = np.flatnonzero(rack[:, _PHASE] != _CHOICE)
        results: list[tuple[SimResult, physics.Shot] | None] = [None] * n  # a lone table's
        final = self._simulate(start[sim], rows[sim], sim, facts, n_events, results) if sim.size else start[:0]
        pocketed, n_pocketed = facts.pocketed, facts.n_pocketed
        after = np.empty_like(rack)
        fouls = np.empty(n, dtype=np.int64)  # the kernel writes every row of these
        cited = np.empty((n, MAX_CITED), dtype=np.int64)
        n_cited = np.empty(n, dtype=np.int64)
        spotted = np.empty(n, dtype=np.bool_)
        rule_batch(rack, declaration, facts.first_bits, facts.cushion_bits, pocketed, n_pocketed, facts.off,
                   facts.n_off, after, fouls, cited, n_cited, spotted)
        self.rack[ks] = after
        for i in _true(spotted):  # before the cue ball is taken up (R-SPOT-9 leaves it out)
            self._spot_nine(final[int(sim.searchsorted(i))], bool(after[i, _IN_HAND] != _IN_HAND_NONE))
        apply_round(self.balls, ks, sim, final, after)
        for i in _true(after[:, _PHASE] == _OVER):
            self._score(int(ks[i]), after[i])
        spots = start[:, 0, 0:2].tolist()
        n_off = facts.n_off.tolist()
        out = []
        for i, (decl, f, nc, npk, sp, before, row, nev, put, moved) in enumerate(zip(
                declaration.tolist(), fouls.tolist(), n_cited.tolist(), n_pocketed.tolist(), spotted.tolist(),
                rack.tolist(), after.tolist(), n_events.tolist(), placed.tolist(), blocked.tolist())):
            result, shot = results[i] or (None, None)
            out.append(Outcome(
                player, DECLARATIONS[decl], foul_rules(f), cited_rules(tuple(cited[i, :nc].tolist())),
                tuple(pocketed[i, :npk].tolist()), tuple(facts.off[i, :n_off[i]].tolist()) if n_off[i] else (), sp,
                before, row, row[_WINNER] if row[_PHASE] == _OVER else None,
                (spots[i][0], spots[i][1]) if put else None, put and moved, nev, result, shot))
            self.last[ks[i]] = out[-1]
        return out

    def _move_to_free(self, start: np.ndarray, i: int, kitchen: bool) -> None:
        """Row i's requested ball-in-hand spot is not free: move it to the nearest free one
        (``placement.nearest_free``) or, with ``strict_placement``, raise ValueError (R-BIH)."""
        cfg = self.config
        x, y = start[i, 0, 0:2].tolist()
        if cfg.strict_placement:
            where = "in the kitchen (R-BREAK-POS)" if kitchen else "on the table (R-BIH)"
            raise ValueError(f"placement: cue ball at ({x:.4f}, {y:.4f}) m is not a free spot {where}: "
                             "it touches a ball, a pocket or the rail")
        balls = start[i, 1:]
        others = balls[balls[:, 7] <= ON_TABLE_MAX, 0:2]
        move_cue(start, i, *placement.nearest_free(x, y, others, cfg.table, cfg.params, kitchen))

    def _simulate(self, start: np.ndarray, shots: np.ndarray, rows_of: np.ndarray, facts: ShotFacts,
                  n_events: np.ndarray, results: list) -> np.ndarray:
        """Simulate the shots, fill rows ``rows_of`` of ``facts``, ``n_events`` and (a lone table) ``results``;
        the final states (a shot hitting a cap is continued to rest alone)."""
        cfg = self.config
        if len(self.rngs) == 1:  # a lone table: the serial kernel, its result kept
            shot = physics.Shot(*shots[0].tolist())
            result, log = complete_shot(physics.simulate(BallState.from_packed(start[0]), shot, cfg.table, cfg.params,
                                                         max_events=cfg.max_events, max_time=cfg.max_time), cfg)
            facts.read(log[None], np.array([len(log)]), rows_of)
            n_events[rows_of] = len(result.events)
            results[int(rows_of[0])] = result, shot
            return result.state.packed()[None]
        batch = physics.simulate_batch_packed(start, shots, cfg.table, cfg.params, max_events=cfg.max_events,
                                              max_time=cfg.max_time, log_capacity=self.log_capacity,
                                              threads=self.threads)
        facts.read(batch.logs, batch.n_events, rows_of)
        final = batch.states
        whole = (batch.n_events <= batch.logs.shape[1]) & ~batch.hit_event_cap & ~batch.hit_time_cap
        for i in np.flatnonzero(~whole).tolist():  # rare: summarised again from the whole continued log
            result, log = complete_shot(batch.result(i), cfg)
            final[i] = result.state.packed()
            facts.read(log[None], np.array([len(log)]), rows_of[i:i + 1])
        n_events[rows_of] = batch.n_events
        return final

    def _spot_nine(self, balls: np.ndarray, in_hand: bool) -> None:
        """Spot the 9 in the packed balls of one table (R-SPOT-9), the cue ball left out when it goes in hand."""
        on = balls[:, 7] <= ON_TABLE_MAX  # the 9 is down (``rules.spot_nine`` would skip it anyway)
        if in_hand:
            on[0] = False
        positions = {b: (float(balls[b, 0]), float(balls[b, 1])) for b in np.flatnonzero(on).tolist()}
        state = BallState.from_packed(balls)
        state.place(9, *rules.spot_nine(positions, self.config.table, self.config.params.R))
        balls[:] = state.packed()

    def _score(self, k: int, after: np.ndarray) -> None:
        """Table k's rack ended: score it (R-MATCH) and deal the next rack unless the match is decided."""
        winner = int(after[_WINNER])
        self.won[k, winner] += 1
        self.next_breaker[k] = next_breaker(self.config.break_order, int(after[_BREAKER]), winner)
        self.done[k] = self.won[k, winner] >= self.config.race_to
        if not self.done[k]:
            self._new_rack(k)


class Game:
    """One match (a single rack when ``race_to`` = 1) between players 0 and 1: a ``TableBatch`` of one, seen as
    objects (``balls``, ``rack``, ``match``)."""

    def __init__(self, config: GameConfig, rng: np.random.Generator, first_breaker: int = 0,
                 noise: NoiseConfig = SILENT, scale: actions.ActionScale = actions.DEFAULT_SCALE) -> None:
        self.config = config  # a bad rng is refused by the deal (``rules.rack_order``)
        self.tables = TableBatch(config, [rng], noise, scale, breakers=[first_breaker])

    @classmethod
    def view(cls, tables: TableBatch) -> Game:
        """The game of a ``TableBatch`` of one (dealt already), shared, not copied."""
        game = cls.__new__(cls)
        game.config, game.tables = tables.config, tables
        return game

    # -- state ------------------------------------------------------------------------------------

    @property
    def balls(self) -> BallState:
        """A copy of the balls (``restore`` a snapshot to set them)."""
        return BallState.from_packed(self.tables.balls[0])

    @property
    def rack(self) -> rules.RackState:
        return rules.RackState.from_packed(self.tables.rack[0])

    @property
    def match(self) -> rules.Match:
        return self.tables.match(0)

    @property
    def last(self) -> Outcome | None:
        return self.tables.last[0]

    @property
    def over(self) -> bool:
        """The match (the rack, in a one-rack game) is decided."""
        return bool(self.tables.done[0])

    @property
    def to_move(self) -> int | None:
        """The player to decide next, or None when the game is over."""
        return None if self.over else int(self.tables.rack[0, _SHOOTER])

    def on_table(self) -> np.ndarray:
        """Boolean mask of balls 0–9 on the table (the cue ball is off it while in hand)."""
        return self.tables.balls[0, :, 7] <= ON_TABLE_MAX

    def snapshot(self) -> GameSnapshot:
        """A copy of the game's state, the generator's included."""
        return GameSnapshot(self.balls, self.rack, self.match, self.tables.rngs[0].bit_generator.state, self.last)

    def restore(self, snap: GameSnapshot) -> None:
        """Put the game back to ``snap`` (the generator too)."""
        t = self.tables
        t.balls[0], t.rack[0], t.won[0], t.next_breaker[0] = (snap.balls.packed(), snap.rack.packed(),
                                                              snap.match.racks_won, snap.match.breaker)
        t.rngs[0].bit_generator.state = snap.rng_state
        t.last[0], t.done[0] = snap.last, snap.match.over

    def clone(self) -> "Game":
        """An independent copy (its own generator in the same state): try decisions on it and throw it away."""
        t = self.tables  # the configuration and the recorded decisions are shared, not copied
        return Game.view(copy.deepcopy(t, {id(t.config): t.config, id(t.last): list(t.last)}))

    # -- decisions --------------------------------------------------------------------------------

    def observe(self, player: int) -> np.ndarray:
        """The observation of ``player`` (``nineball_env.observation``)."""
        return self.tables.encode(_ROW0, player)[0]

    def play(self, player: int, act: np.ndarray, rng: np.random.Generator | None = None,
             shot: physics.Shot | None = None) -> Outcome:
        """One turn of ``player`` from a checked action: decoded for the phase, execution noise drawn from ``rng``
        (default: the game's generator), simulated, ruled and applied. Every env and match plays so; a replay
        passes the recorded ``shot``, played as it is instead of the action's. Raises ValueError when it is not
        that player's turn (nothing changed) or a strict placement is illegal (nothing changed but the noise
        draws)."""
        if self.over:
            raise ValueError(f"the game is over (won by player {self.match.winner}): reset it (R-GAME-END)")
        if player != self.tables.rack[0, _SHOOTER]:
            raise ValueError(f"player {player} cannot act: it is player {self.rack.shooter}'s decision (R-CONTINUE)")
        shots = None if shot is None else np.array([[shot.V0, shot.phi, shot.theta, shot.a, shot.b]], dtype=np.float64)
        return self.tables.play(_ROW0, player, np.asarray(act, dtype=np.float64)[None], None if rng is None else [rng],
                                shots)[0]


_ROW0 = np.zeros(1, dtype=np.int64)
_OFF_TABLE = BallState.empty().packed()  # every ball off the table


def _true(mask: np.ndarray) -> list[int]:
    """The indices where a short boolean array is True (cheaper than ``np.flatnonzero`` for a few rows)."""
    return [i for i, v in enumerate(mask.tolist()) if v]
