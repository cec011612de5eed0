"""The game of nine-ball, written once: ``TableBatch`` holds B tables as arrays and plays them with the compiled
turn (``kernels.turn``); a ``Game`` is a batch of one.

A decision (decode, noise, placement, physics, rules, spotting the 9, scoring, the next rack) and every decision of
a compiled opponent after it happen inside one numba call; Python is left with what Gymnasium needs and with
Python opponents, which are asked between calls (``turns``). Every decision leaves a record (``kernels.codes.RecI``
and ``RecF``); an ``Outcome`` is the readable view of one, its simulation re-run only when asked for
(``Outcome.result``). Players are 0 and 1; the rules say who acts next.
"""

from __future__ import annotations

import copy
import functools
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
import numba
import numpy as np

import physics
from nineball_env import actions, rules
from nineball_env.kernels.codes import (
    CFG_W, DECLARATIONS, MAX_CONTINUATIONS, N_ACTION, N_BALLS, OBS_SIZE, RACK_W, RECF_W, RECI_W, Cfg,
    PhaseCode, RecF, RecI, Seat, Status,
)
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.draws import GEN_W, generator_row
from nineball_env.kernels.observe import encode_rows
from nineball_env.kernels.rack import deal as deal_kernel
from nineball_env.kernels.rack import score as score_kernel
from nineball_env.kernels.shot import physics_address
from nineball_env.kernels.turn import play_turns
from nineball_env.noise import LIMITS, PRESETS, NoiseConfig
from nineball_env.placement import GAP
from nineball_env.rules.facts import SIMULTANEOUS_S
from nineball_env.rules.ruling import cited_rules, describe_row, foul_rules
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, Motion, PhysicsParams, SimResult, Table
from physics.api import MAX_EVENTS_LIMIT, check_caps, params_array
from physics.kernels.codes import LOG_W
from physics.validate import OVERLAP_TOL

SILENT = PRESETS["none"]
REPLAY_TIME_FACTOR = 10.0  # the default time cap of a shot replayed from the air: this many times ``max_time``
ON_TABLE_MAX = int(Motion.ROLLING)  # motion codes <= this are on the table
_SHOOTER, _PHASE, _IN_HAND, _WINNER = int(C.SHOOTER), int(C.PHASE), int(C.IN_HAND), int(C.WINNER)
_OVER, _BREAK = int(PhaseCode.RACK_OVER), int(PhaseCode.BREAK)
_FULL = int(Status.FULL)
_RECORDS = 8  # decision records per table to start with (a step that needs more makes room)


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
    # The caps of a shot replayed because ``max_events``/``max_time`` stopped it with a ball in the air (no shot can
    # be continued from there); still in the air then, the shot is void. None: MAX_EVENTS_LIMIT, 10 x max_time.
    replay_max_events: int | None = None
    replay_max_time: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.table, Table):
            raise ValueError(f"table: expected a physics.Table, got {type(self.table).__name__}")
        if not isinstance(self.params, PhysicsParams):
            raise ValueError(f"params: expected a physics.PhysicsParams, got {type(self.params).__name__}")
        rules.Match(self.race_to, self.break_order)  # ValueError for a bad race_to or break_order (R-MATCH)
        check_caps(self.max_events, self.max_time)
        events, time = self.replay_caps
        if isinstance(events, (bool, np.bool_)) or not isinstance(events, (int, np.integer)) or not (
                self.max_events <= events <= MAX_EVENTS_LIMIT):
            raise ValueError(f"replay_max_events: expected an integer in max_events..{MAX_EVENTS_LIMIT} "
                             f"({self.max_events}..{MAX_EVENTS_LIMIT}), got {events!r}")
        if isinstance(time, (bool, np.bool_)) or not isinstance(time, (int, float, np.integer, np.floating)) or not (
                self.max_time <= time < math.inf):
            raise ValueError(f"replay_max_time: expected a finite number of seconds >= max_time ({self.max_time}), "
                             f"got {time!r}")

    @property
    def replay_caps(self) -> tuple[int, float]:
        """(max_events, max_time) of a shot replayed because a cap stopped it with a ball in the air."""
        return (MAX_EVENTS_LIMIT if self.replay_max_events is None else self.replay_max_events,
                REPLAY_TIME_FACTOR * self.max_time if self.replay_max_time is None else self.replay_max_time)


class Outcome:
    """What one decision did: the rules' ruling in parts, and how the decision was played; a readable view of the
    compiled turn's record of it (``kernels.codes.RecI``, ``RecF``).

    Attributes:
        player: who decided.
        declaration, fouls, cited, pocketed, off_table, nine_spotted: the ruling's (see ``rules.Ruling``).
        before, after: the rack before and right after the ruling, packed (a list, ``RackState.packed``);
            ``ruling`` gives both as states.
        rack_winner: the player who won the rack if this decision ended it, else None.
        placement: where the cue ball was placed (ball in hand), else None.
        placement_adjusted: the requested placement was illegal and moved to the nearest legal spot.
        n_events: events the physics logged for the shot (0 for the push-out choice; of the replay, if replayed).
        replayed: a cap stopped the shot with a ball in the air, so it was simulated again with the replay caps
            (``GameConfig.replay_caps``).
        voided: ... and it was in the air even then: the shot is void, no ruling (no fouls, nothing pocketed, the
            rack after it the rack before), the table as before it and the same player to shoot.
        shot: the cue parameters the shot was played with, execution noise included (None for the push-out choice).
        result: the simulation of the shot (None for the push-out choice), run again when first asked for.
    """

    __slots__ = ("_i", "_f", "_config", "_result")

    def __init__(self, record_i: list[int], record_f: np.ndarray, config: GameConfig) -> None:
        self._i, self._f, self._config = record_i, record_f, config  # the record's ints as a list: fast to read
        self._result: SimResult | None = None

    @property
    def player(self) -> int:
        return self._i[_PLAYER]

    @property
    def declaration(self) -> rules.Declaration:
        return DECLARATIONS[self._i[_DECLARATION]]

    @property
    def fouls(self) -> tuple[rules.RuleId, ...]:
        return foul_rules(self._i[_FOULS])

    @property
    def cited(self) -> tuple[rules.RuleId, ...]:
        return cited_rules(tuple(self._i[_CITED:_CITED + self._i[_N_CITED]]))

    @property
    def pocketed(self) -> tuple[int, ...]:
        return tuple(self._i[_POCKETED:_POCKETED + self._i[_N_POCKETED]])

    @property
    def off_table(self) -> tuple[int, ...]:
        return tuple(self._i[_OFF:_OFF + self._i[_N_OFF]])

    @property
    def nine_spotted(self) -> bool:
        return bool(self._i[_SPOTTED])

    @property
    def before(self) -> list[int]:
        return self._i[_BEFORE:_BEFORE + RACK_W]

    @property
    def after(self) -> list[int]:
        return self._i[_AFTER:_AFTER + RACK_W]

    @property
    def rack_winner(self) -> int | None:
        return self._i[_AFTER + _WINNER] if self._i[_AFTER + _PHASE] == _OVER else None

    @property
    def placement(self) -> tuple[float, float] | None:
        return (float(self._f[_PLACE_X]), float(self._f[_PLACE_Y])) if self._i[_PLACED] else None

    @property
    def placement_adjusted(self) -> bool:
        return bool(self._i[_PLACED] and self._i[_ADJUSTED])

    @property
    def n_events(self) -> int:
        return self._i[_N_EVENTS]

    @property
    def replayed(self) -> bool:
        return bool(self._i[_REPLAYED])

    @property
    def voided(self) -> bool:
        return bool(self._i[_VOIDED])

    @property
    def shot(self) -> physics.Shot | None:
        if not self._i[_SHOT]:
            return None
        return physics.Shot(*self._f[_STRIKE:_STRIKE + 5].tolist())

    @property
    def start(self) -> BallState | None:
        """The balls the shot started from (the cue ball placed), None for the push-out choice."""
        if not self._i[_SHOT]:
            return None
        return BallState.from_packed(self._f[_START:].reshape(N_BALLS, 9).copy())

    @property
    def result(self) -> SimResult | None:
        if self._result is None and self._i[_SHOT]:
            self._result = simulate_shot(self.start, self.shot, self._config)[0]
        return self._result

    @property
    def ruling(self) -> rules.Ruling:
        """The readable ruling (``rules.Ruling``), its rack states validated."""
        before, after = (rules.RackState.from_packed(np.asarray(s, dtype=np.int64)) for s in (self.before, self.after))
        return rules.Ruling(before, self.declaration, self.fouls, self.cited, self.pocketed, self.off_table,
                            self.nine_spotted, after)

    @property
    def foul(self) -> bool:
        """The decision was a foul."""
        return self._i[_FOULS] != 0

    @property
    def legal_pots(self) -> int:
        """Object balls pocketed on a legal shot (not a push-out): what reward shaping counts."""
        if self.foul or self.declaration is not rules.Declaration.SHOT:
            return 0
        return sum(1 for b in self.pocketed if b != 0)

    def text(self) -> str:
        """The ruling in one line (``rules.Ruling.describe``), without building the ruling."""
        if self.voided:
            return VOID_TEXT
        return describe_row(self.fouls, self.cited, self.nine_spotted, self.after)

    def __repr__(self) -> str:
        return (f"Outcome(player={self.player}, {self.declaration}: {self.text()}, placement={self.placement}, "
                f"adjusted={self.placement_adjusted}, n_events={self.n_events}"
                + (", voided" if self.voided else ", replayed" if self.replayed else "") + ")")

    def __eq__(self, other: object) -> bool:  # the simulation is not compared
        return isinstance(other, Outcome) and self._i[:_SHOT] == other._i[:_SHOT] and self.placement == other.placement

    __hash__ = None  # type: ignore[assignment]


# the record's columns as plain ints (an IntEnum member costs a lookup in Python)
(_PLAYER, _DECLARATION, _FOULS, _N_CITED, _CITED, _N_POCKETED, _POCKETED, _N_OFF, _OFF, _SPOTTED, _BEFORE, _AFTER,
 _PLACED, _ADJUSTED, _N_EVENTS, _SHOT, _REPLAYED, _VOIDED) = (int(c) for c in RecI)
VOID_TEXT = "void: a ball was still in the air at the replay caps, no ruling"
_PLACE_X, _PLACE_Y, _STRIKE, _START = (int(c) for c in RecF)


@dataclass(frozen=True)
class GameSnapshot:
    """Everything needed to put a game back where it was (the generator's state included)."""

    balls: BallState
    rack: rules.RackState
    match: rules.Match
    rng_state: dict
    last: Outcome | None


def simulate_shot(start: BallState, shot: physics.Shot, cfg: GameConfig) -> tuple[SimResult, np.ndarray]:
    """A decision's shot as the compiled turn plays it (``kernels.turn.strike_shot``): simulated with the caps and
    continued past them on the cloth (``complete_shot``); stopped by a cap with a ball in the air, replayed from
    the start with ``cfg.replay_caps``. Returns the result and its log rows; the result is ``in_flight`` when the
    replay was stopped in the air too (the shot is void)."""
    result, rows = complete_shot(physics.simulate(start, shot, cfg.table, cfg.params, max_events=cfg.max_events,
                                                  max_time=cfg.max_time), cfg.max_events, cfg.max_time, cfg)
    if result.in_flight:
        events, time = cfg.replay_caps
        result, rows = complete_shot(physics.simulate(start, shot, cfg.table, cfg.params, max_events=events,
                                                      max_time=time), events, time, cfg)
    return result, rows


def complete_shot(result: SimResult, max_events: int, max_time: float,
                  cfg: GameConfig) -> tuple[SimResult, np.ndarray]:
    """``kernels.turn.complete_shot`` on a ``physics.simulate`` result: continued past the event/time caps on the
    cloth (at most ``MAX_CONTINUATIONS`` more calls with the same caps, then whatever still moves is stopped); the
    result to rest and the log rows of every call (times running on). A cap that stops it with a ball in the air
    ends it there, the result ``in_flight`` (``simulate_shot`` replays it)."""
    if not (result.hit_event_cap or result.hit_time_cap) or result.in_flight:
        return result, result.events.rows
    parts = [result.events.rows]
    final, offset, capped = result.state, result.duration, True
    while capped and len(parts) <= MAX_CONTINUATIONS:
        more = physics.simulate(final, None, cfg.table, cfg.params, max_events=max_events, max_time=max_time)
        shifted = more.events.rows.copy()
        shifted[:, 0] += offset
        parts.append(shifted)
        if more.in_flight:
            return SimResult(result.initial, more.state, result.events, result.hit_event_cap, result.hit_time_cap,
                             in_flight=True), np.concatenate(parts)
        final, offset, capped = more.state, offset + more.duration, more.hit_event_cap or more.hit_time_cap
    if capped and not final.at_rest():  # give up: stop whatever still moves where it is
        moving = final.on_table() & (final.motion != int(Motion.STATIONARY))
        final.vel[moving] = 0.0
        final.spin[moving] = 0.0
        final.motion[moving] = int(Motion.STATIONARY)
    if final is not result.state:
        result = SimResult(result.initial, final, result.events, result.hit_event_cap, result.hit_time_cap)
    return result, np.concatenate(parts)


@functools.lru_cache(maxsize=16)
def _layouts(table: Table, params: PhysicsParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The diamond's slot centres (9, 2), the fresh rack of each breaker (2, RACK_W) and the balls all off the table
    (10, 9), computed once per table and ball size."""
    slots = np.ascontiguousarray(physics.rack_positions(table, params), dtype=np.float64)
    starts = np.stack([rules.RackState.start(b).packed() for b in (0, 1)]).astype(np.int64)
    off = BallState.empty().packed()
    for a in (slots, starts, off):
        a.flags.writeable = False
    return slots, starts, off


def turn_config(config: GameConfig, noise: NoiseConfig, scale: actions.ActionScale,
                shaping: tuple[float, float, float, float], first_breaker: int, break_speed: float) -> np.ndarray:
    """The compiled turn's configuration row (``kernels.codes.Cfg``)."""
    t, p = config.table, config.params
    cfg = np.zeros(CFG_W)
    cfg[Cfg.R], cfg[Cfg.WIDTH], cfg[Cfg.LENGTH], cfg[Cfg.HEAD_Y] = p.R, t.width, t.length, t.head_string_y
    cfg[Cfg.RACE_TO] = config.race_to
    cfg[Cfg.WINNER_BREAKS] = config.break_order == rules.BreakOrder.WINNER
    cfg[Cfg.STRICT] = config.strict_placement
    cfg[Cfg.NOISY] = not noise.silent
    cfg[Cfg.SIGMA:Cfg.SIGMA + 5] = noise.sigmas
    cfg[Cfg.SCALE:Cfg.SCALE + 4] = scale.row
    cfg[Cfg.LIMITS:Cfg.LIMITS + 4] = LIMITS
    cfg[Cfg.SIMULTANEOUS] = SIMULTANEOUS_S
    cfg[Cfg.GAP] = GAP
    cfg[Cfg.FIRST_BREAKER] = first_breaker
    cfg[Cfg.SHAPING:Cfg.SHAPING + 4] = shaping
    cfg[Cfg.BREAK_SPEED] = break_speed
    cfg[Cfg.MAX_TIME] = config.max_time
    cfg[Cfg.FOOT_X], cfg[Cfg.FOOT_Y] = t.foot_spot
    cfg[Cfg.REPLAY_EVENTS], cfg[Cfg.REPLAY_TIME] = config.replay_caps
    return cfg


class TableBatch:
    """``n`` matches with one configuration; table k draws from ``rngs[k]`` (rack shuffles, breaker, noise), held by
    reference and read by the kernels in place (``kernels.draws``).

    Args:
        config: the game configuration of every table.
        rngs: one generator per table.
        noise: execution noise of every decision.
        scale: action scale.
        log_capacity: events kept per table in a shot's log (a longer shot is simulated again with room).
        threads: threads a turn of many tables runs on (None: one per CPU numba uses, ``NUMBA_NUM_THREADS``).
        breakers: the first breaker of each table (None: deal nothing yet, ``deal`` does it).
        shaping: the reward shaping weights (pot, foul, opponent_pot, opponent_foul) the turn's reward parts use.
        first_breaker: who breaks a deal the turn redeals: 0, 1 or -1 (drawn from the table's generator).
        aiming: the parameters (pocket aims (6, 2), break speed) of a compiled aiming opponent, if one plays.
    """

    def __init__(self, config: GameConfig, rngs: list[np.random.Generator], noise: NoiseConfig = SILENT,
                 scale: actions.ActionScale = actions.DEFAULT_SCALE, log_capacity: int = 256,
                 threads: int | None = None, breakers: list[int] | None = None, *,
                 shaping: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0), first_breaker: int = -1,
                 aiming: tuple[np.ndarray, float] | None = None) -> None:
        n = len(rngs)
        if n < 1:
            raise ValueError("rngs: expected one generator per table, got none")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, (int, np.integer))
                                    or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS):
            raise ValueError(f"threads: expected 1..{numba.config.NUMBA_NUM_THREADS}, got {threads!r}")
        if isinstance(log_capacity, bool) or not isinstance(log_capacity, (int, np.integer)) or log_capacity < 1:
            raise ValueError(f"log_capacity: expected a whole number >= 1, got {log_capacity!r}")
        self.config, self.noise, self.scale = config, noise, scale
        self.log_capacity, self.threads = int(log_capacity), threads
        self._pool: ThreadPoolExecutor | None = None  # the helper threads of a turn on ``threads`` threads
        self.balls = np.zeros((n, N_BALLS, 9))
        self.rack = np.zeros((n, RACK_W), dtype=np.int64)
        self.won = np.zeros((n, 2), dtype=np.int64)
        self.next_breaker = np.zeros(n, dtype=np.int64)  # the match's breaker: of this rack, then of the next
        self.done = np.zeros(n, dtype=np.bool_)  # the match is decided
        # what a turn reads and writes besides the tables
        self._rngs = list(rngs)
        self._gens = np.zeros((n, GEN_W), dtype=np.int64)
        for k, rng in enumerate(self._rngs):
            generator_row(rng, self._gens[k])
        self._acts = np.zeros((n, N_ACTION))
        self._has_act = np.zeros(n, dtype=np.bool_)
        self._shots = np.zeros((n, 5))
        self._has_shot = np.zeros(n, dtype=np.bool_)
        self.dealt = np.zeros(n, dtype=np.bool_)  # dealt this step, the learner yet to decide (a redeal may follow)
        self._to_deal = np.zeros(n, dtype=np.bool_)  # to be dealt by the next turn first (``deal_drawn``)
        self.rec_i = np.zeros((n, _RECORDS, RECI_W), dtype=np.int64)  # this step's decisions, in order, per table
        self.rec_f = np.zeros((n, _RECORDS, RECF_W))
        self.n_rec = np.zeros(n, dtype=np.int64)
        self.n_opp = np.zeros(n, dtype=np.int64)  # the opponent's decisions in a row
        self.parts = np.zeros((n, 5))  # this step's reward parts (``rewards.REWARD_PARTS``)
        self.redeals = np.zeros(n, dtype=np.int64)
        self.status = np.zeros(n, dtype=np.int64)
        self.obs = np.zeros((n, OBS_SIZE), dtype=np.float32)  # the learner's observation after each table's turn
        self._stop = np.full((n, 2), int(Seat.STOP), dtype=np.int64)  # both players stop the turn (``play``)
        self._logs = np.empty((n, min(self.log_capacity, config.max_events), LOG_W))
        t, p = config.table, config.params
        aims, break_speed = aiming if aiming is not None else (np.zeros((6, 2)), 0.0)
        self._cfg = turn_config(config, noise, scale, shaping, first_breaker, break_speed)
        self._static = (self._cfg, *_layouts(t, p), np.ascontiguousarray(aims, dtype=np.float64), t.segments, t.jaws,
                        np.ascontiguousarray(t.pockets, dtype=np.float64), params_array(p), t.rail, OVERLAP_TOL,
                        int(config.max_events))
        self._turn_args: tuple | None = None  # what every call of the compiled turn passes after ``seats`` (``_run``)
        self._call: tuple | None = None  # the latest call's arguments (``_run``)
        self._claimed = np.zeros(1, dtype=np.int64)
        for k, breaker in enumerate(breakers or ()):
            self.deal(k, breaker)

    def __getstate__(self) -> dict:
        """The tables without the generators' addresses (they mean nothing in a copy), the shot log buffer or the
        turn's scratch."""
        skip = ("_gens", "_logs", "_pool", "_turn_args", "_call", "_claimed")
        return {k: v for k, v in self.__dict__.items() if k not in skip}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("_to_deal", np.zeros(len(self._rngs), dtype=np.bool_))  # (a copy from before it)
        self._claimed = np.zeros(1, dtype=np.int64)
        self._gens = np.zeros((len(self._rngs), GEN_W), dtype=np.int64)
        for k, rng in enumerate(self._rngs):
            generator_row(rng, self._gens[k])
        self._logs = np.empty((len(self._rngs), min(self.log_capacity, self.config.max_events), LOG_W))
        self._pool = None
        self._turn_args = self._call = None

    # -- state --------------------------------------------------------------------------------------

    @property
    def rngs(self) -> tuple[np.random.Generator, ...]:
        """Each table's generator (``set_rng`` replaces one)."""
        return tuple(self._rngs)

    def set_rng(self, k: int, rng: np.random.Generator) -> None:
        """Table k draws from ``rng`` from now on (a new seed)."""
        generator_row(rng, self._gens[k])  # ValueError for what is not a Generator
        self._rngs[k] = rng

    @property
    def break_speed(self) -> float:
        """The compiled aiming opponent's break speed [m/s] (0 when none plays)."""
        return float(self._cfg[Cfg.BREAK_SPEED])

    def to_move(self, ks: np.ndarray, player: int) -> np.ndarray:
        """Which of tables ``ks`` await a decision of ``player``."""
        return (self.rack[ks, _SHOOTER] == player) & ~self.done[ks]

    def snapshot(self) -> tuple:
        """Copies of every table, generator state and latest decision (``restore`` puts them back)."""
        rows = np.arange(len(self._rngs)), np.maximum(self.n_rec - 1, 0)
        return (self.balls.copy(), self.rack.copy(), self.won.copy(), self.next_breaker.copy(),
                [rng.bit_generator.state for rng in self._rngs], np.minimum(self.n_rec, 1), self.rec_i[rows],
                self.rec_f[rows])

    def restore(self, snap: tuple) -> None:
        self.balls[:], self.rack[:], self.won[:], self.next_breaker[:] = snap[:4]
        for rng, state in zip(self._rngs, snap[4]):
            rng.bit_generator.state = state
        self.n_rec[:], self.rec_i[:, 0], self.rec_f[:, 0] = snap[5:]
        self.done[:] = self.won.max(axis=1) >= self.config.race_to

    def match(self, k: int) -> rules.Match:
        """Table k's match (score and next breaker) as the rules' frozen ``Match``."""
        cfg = self.config
        return rules.Match(cfg.race_to, cfg.break_order, int(self.next_breaker[k]), tuple(self.won[k].tolist()))

    # -- records ------------------------------------------------------------------------------------

    def outcome(self, k: int, i: int) -> Outcome:
        """Table k's i-th decision of this step (a copy of its record, read as an ``Outcome``)."""
        return Outcome(self.rec_i[k, i].tolist(), self.rec_f[k, i].copy(), self.config)

    def outcomes(self, k: int, first: int = 0) -> list[Outcome]:
        """Table k's decisions of this step from the ``first``-th on."""
        return [self.outcome(k, i) for i in range(first, int(self.n_rec[k]))]

    def last(self, k: int) -> Outcome | None:
        """Table k's latest decision since its deal, None before the first."""
        n = int(self.n_rec[k])
        return self.outcome(k, n - 1) if n else None

    def set_last(self, k: int, outcome: Outcome | None) -> None:
        """Make ``outcome`` table k's latest decision (a snapshot's)."""
        self.n_rec[k] = 0 if outcome is None else 1
        if outcome is not None:
            self.rec_i[k, 0], self.rec_f[k, 0] = outcome._i, outcome._f

    def begin(self, ks: np.ndarray | list[int]) -> None:
        """Tables ``ks`` start a step: no decisions, reward parts or redeals yet."""
        if len(self._rngs) == 1:  # a lone table: whole arrays are cheaper than fancy indexing
            self.n_rec[0] = self.n_opp[0] = self.redeals[0] = 0
            self.parts.fill(0.0)
            self.dealt[0] = self._to_deal[0] = False
            return
        if len(ks) <= _FEW:  # a few tables: a row at a time is cheaper than fancy indexing
            for k in ks.tolist() if isinstance(ks, np.ndarray) else ks:
                self.n_rec[k] = self.n_opp[k] = self.redeals[k] = 0
                self.parts[k] = 0.0
                self.dealt[k] = self._to_deal[k] = False
            return
        self.n_rec[ks] = 0
        self.n_opp[ks] = 0
        self.parts[ks] = 0.0
        self.redeals[ks] = 0
        self.dealt[ks] = False
        self._to_deal[ks] = False

    # -- dealing ------------------------------------------------------------------------------------

    def deal(self, k: int, breaker: int) -> None:
        """A new match on table k broken by ``breaker`` (its rack drawn from its generator, R-RACK)."""
        deal_kernel(k, int(breaker), self._gens[k], self.balls, self.rack, self.won, self.next_breaker, self.done,
                    *self._static[1:4])
        self.n_rec[k] = 0

    def deal_drawn(self, ks: np.ndarray) -> None:
        """New matches on tables ``ks``, each broken by the turn's ``first_breaker`` (drawn from the table's generator
        when it is -1, as ``integers(2)`` draws), dealt by the compiled turn that follows (``turn``; no call of their
        own: a reset is one call); it may deal them again (a redeal)."""
        if len(self._rngs) == 1:  # a lone table: whole arrays are cheaper than fancy indexing
            self._to_deal[0] = self.dealt[0] = True
            return
        self._to_deal[ks] = True
        self.dealt[ks] = True

    def _score(self, k: int, after: np.ndarray) -> None:
        """Table k's rack ended in ``after``: score it (R-MATCH) and deal the next rack unless the match is decided."""
        self.rack[k] = after
        score_kernel(k, self._gens[k], self.balls, self.rack, self.won, self.next_breaker, self.done, *self._static[:4])

    # -- observations -------------------------------------------------------------------------------

    def encode(self, ks: np.ndarray, player: int) -> np.ndarray:
        """The observation of ``player`` on tables ``ks`` (``nineball_env.observation``), (len(ks), 54) float32."""
        t = self.config.table
        obs = np.empty((len(ks), OBS_SIZE))
        encode_rows(self.balls, self.rack, self.won, np.asarray(ks, dtype=np.int64), player, self.config.race_to,
                    1.0 / t.width, 1.0 / t.length, obs)
        return obs.astype(np.float32)

    # -- decisions ----------------------------------------------------------------------------------

    def turn(self, order: np.ndarray, seats: np.ndarray, acts: np.ndarray | None = None,
             noise_rngs: list[np.random.Generator] | None = None, shots: np.ndarray | None = None) -> np.ndarray:
        """Play the turns of tables ``order`` (``kernels.turn``): the checked actions ``acts`` (a row for each of the
        first ``len(acts)`` tables of ``order``, for the player to move; None: no given action), then every decision
        of an AIMING seat of
        ``seats`` (n, 2), until a STOP or EXTERNAL seat is to move. ``noise_rngs`` draw the given actions' noise
        (default: the tables' generators); ``shots`` (rows V0, phi, theta, a, b) replace the given strikes, without
        noise. Returns the tables' ``Status``; raises the error of a table that failed (``raise_for``), the tables
        left as far as they got (the caller restores them)."""
        order = np.asarray(order, dtype=np.int64)
        lone = len(self._rngs) == 1  # a lone table: no fancy indexing
        if acts is not None and len(acts):
            if not lone and len(acts) <= _FEW:  # a few tables: a row at a time is cheaper than fancy indexing
                for i, k in enumerate(order[:len(acts)].tolist()):
                    self._acts[k] = acts[i]
                    self._has_act[k] = True
            else:
                acting = order[:len(acts)] if not lone else _ALL
                self._acts[acting] = acts
                self._has_act[acting] = True
        noise_gens = self._gens
        if noise_rngs is not None:
            noise_gens = self._gens.copy()
            for k, rng in zip(order.tolist(), noise_rngs):
                generator_row(rng, noise_gens[k])
        if shots is not None:
            self._shots[order[:len(shots)]] = shots
            self._has_shot[order[:len(shots)]] = True
        if order.size > 1 and (self.threads or numba.config.NUMBA_NUM_THREADS) > 1:
            # breaks (and new deals) cost ten shots: they go to the threads first
            order = order[np.argsort((self.rack[order, _PHASE] != _BREAK) & ~self._to_deal[order], kind="stable")]
        try:
            while self._run(order, seats, noise_gens):  # some tables stopped short: FULL ones get room and play on
                full = order[self.status[order] == _FULL]
                if not full.size:
                    self.raise_for(order)
                self._grow()
                order = full
        finally:
            if acts is not None:  # (a table that was over keeps no action for later)
                if not lone and len(order) <= _FEW:
                    for k in order.tolist():
                        self._has_act[k] = False
                else:
                    self._has_act[order if not lone else _ALL] = False
            if shots is not None:
                self._has_shot[:] = False
        return self.status

    def _run(self, order: np.ndarray, seats: np.ndarray, noise_gens: np.ndarray) -> int:
        """One pass of the compiled turn over ``order`` on ``threads`` threads (this one and pool workers, each
        claiming the next table when free); how many tables stopped short (FULL or an error)."""
        self._claimed[0] = 0  # the tables' shared counter (one pass of the turn at a time)
        args = self._call
        if args is None or args[0] is not order or args[8] is not seats or args[7] is not noise_gens:
            if self._turn_args is None:  # the same arrays on every call, until ``_grow`` replaces the records
                self._turn_args = self._table_args(physics_address())
            args = self._call = self._turn_call(order, seats, noise_gens, self._turn_args)  # (kept: a lone table
            # passes the same order, seats and generators every time)
        if order.size <= 1:
            return play_turns(*args)
        threads = self.threads or numba.config.NUMBA_NUM_THREADS
        helpers = min(threads, order.size) - 1
        if helpers <= 0:
            return play_turns(*args)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="nineball-turn")
        others = [self._pool.submit(play_turns, *args) for _ in range(helpers)]
        short = play_turns(*args)
        return short + sum(f.result() for f in others)

    def _table_args(self, address: int) -> tuple:
        """``play_turns``' arguments after the per-call ones: the tables' arrays and the physics at ``address``."""
        return (self.dealt, self.balls, self.rack, self.won, self.next_breaker, self.done, *self._static, address,
                self._logs, self.rec_i, self.rec_f, self.n_rec, self.n_opp, self.parts, self.redeals, self.status,
                self.obs)

    def _turn_call(self, order: np.ndarray, seats: np.ndarray, noise_gens: np.ndarray, table_args: tuple) -> tuple:
        """``play_turns``' arguments for one pass over ``order``."""
        return (order, self._claimed, self._acts, self._has_act, self._shots, self._has_shot, self._gens, noise_gens,
                seats, self._to_deal, *table_args)

    def compile_turn(self) -> None:
        """Compile (or load) the compiled turn for this batch's argument types without playing: the turn calls the
        physics through a C pointer, so this needs no compiled physics (a cold start compiles the two at once,
        ``agents.arena.warmup``)."""
        args = self._turn_call(np.empty(0, dtype=np.int64), self._stop, self._gens, self._table_args(0))
        play_turns.compile(tuple(play_turns.typeof_pyval(a) for a in args))

    def _grow(self) -> None:
        """Twice the room for decision records per table."""
        n, d = self.rec_i.shape[:2]
        for name in ("rec_i", "rec_f"):
            old = getattr(self, name)
            new = np.zeros((n, 2 * d, old.shape[2]), dtype=old.dtype)
            new[:, :d] = old
            setattr(self, name, new)
        self._turn_args = self._call = None

    def raise_for(self, ks: np.ndarray) -> None:
        """Raise the error of the first table of ``ks`` whose turn failed (``Status`` past OVER), if any."""
        bad = ks[self.status[ks] > _FULL]
        if not bad.size:
            return
        k = int(bad[0])
        code = Status(int(self.status[k]))
        if code == Status.STRICT:
            bih = _IN_HAND_WORDS[int(self.rack[k, _IN_HAND])]
            x, y = actions.action_to_placement(self._acts[k], bih, self.config.table, self.config.params)
            where = "in the kitchen (R-BREAK-POS)" if bih is rules.BallInHand.KITCHEN else "on the table (R-BIH)"
            raise ValueError(f"placement: cue ball at ({x:.4f}, {y:.4f}) m is not a free spot {where}: "
                             "it touches a ball, a pocket or the rail")
        if code == Status.NO_SPOT:
            raise ValueError("placement: no free spot for the cue ball in the region (R-BIH)")
        if code == Status.NO_NINE_SPOT:
            raise ValueError("no free point on the long centre line to spot the 9 (R-SPOT-9)")
        if code == Status.RUNAWAY:
            raise RuntimeError("the opponent made 1000 decisions in a row")
        if code == Status.REDEALS:
            raise RuntimeError(f"the opponent won {int(self.redeals[k])} deals before the learner's first decision")
        physics.simulate(BallState.from_packed(self.balls[k]), None, self.config.table, self.config.params)  # LAYOUT
        raise ValueError(f"table {k}: the physics refused the layout")

    def play(self, ks: np.ndarray, player: int, acts: np.ndarray,
             noise_rngs: list[np.random.Generator] | None = None, shots: np.ndarray | None = None) -> list[Outcome]:
        """One decision of ``player`` on each of tables ``ks`` (each awaiting ``player``): the checked actions ``acts``
        (one row per table), noise drawn from ``noise_rngs[i]`` (default each table's generator), or the strikes
        ``shots`` played as they are. Raises ValueError for an illegal strict placement (nothing changed but the
        noise draws, which the caller restores)."""
        ks = np.asarray(ks, dtype=np.int64)
        self.begin(ks)
        self.turn(ks, self._stop, np.asarray(acts, dtype=np.float64), noise_rngs, shots)
        return [self.outcome(k, 0) for k in ks.tolist()]


_IN_HAND_WORDS = tuple(rules.BallInHand)


class Game:
    """One match (a single rack when ``race_to`` = 1) between players 0 and 1: a ``TableBatch`` of one, seen as
    objects (``balls``, ``rack``, ``match``)."""

    def __init__(self, config: GameConfig, rng: np.random.Generator, first_breaker: int = 0,
                 noise: NoiseConfig = SILENT, scale: actions.ActionScale = actions.DEFAULT_SCALE) -> None:
        self.config = config  # a bad rng is refused by the batch (``draws.generator_row``)
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
        return self.tables.last(0)

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
        t.set_last(0, snap.last)
        t.done[0] = snap.match.over

    def clone(self) -> "Game":
        """An independent copy (its own generator in the same state): try decisions on it and throw it away."""
        t = self.tables  # the configuration is shared, not copied
        return Game.view(copy.deepcopy(t, {id(t.config): t.config}))

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
_FEW = 4  # up to this many tables, rows are set one at a time (numpy's fancy indexing costs ~2 us a call)
_ALL = slice(None)
