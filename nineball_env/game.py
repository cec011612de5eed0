"""A game of nine-ball: the physics ball state, the rules' rack and match state, and the seeded generator.

This is the physics → rules adapter: a decision is simulated and its event-log rows ruled on by the
rules kernel (``rules.decide_log``); the ruling is then applied to the balls
(the 9 is spotted, a cue ball in hand is taken off the table) and finished racks go to the match.
Players are 0 and 1; the rules say who acts next.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

import physics
from nineball_env import placement as placing
from nineball_env import rules
from nineball_env import actions, observation
from nineball_env.actions import Decision
from nineball_env.noise import PRESETS, NoiseConfig, perturb
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, Motion, PhysicsParams, SimResult, Table

SILENT = PRESETS["none"]
MAX_CONTINUATIONS = 4  # extra simulate calls when a shot hits the event or time cap


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
        if isinstance(self.race_to, bool) or not isinstance(self.race_to, int) or self.race_to < 1:
            raise ValueError(f"race_to: expected a whole number of racks >= 1, got {self.race_to!r}")
        if self.break_order not in tuple(rules.BreakOrder):
            raise ValueError(f"break_order: expected one of {[b.value for b in rules.BreakOrder]}, "
                             f"got {self.break_order!r}")

    @classmethod
    def for_env(cls, match_race: int | None, break_order: str, strict_placement: bool, table: Table | None,
                params: PhysicsParams | None) -> GameConfig:
        """The configuration from an env's arguments (``match_race`` None: one rack; None table/params: defaults)."""
        if match_race is not None and (isinstance(match_race, bool) or not isinstance(match_race, int) or match_race < 1):
            raise ValueError(f"match_race: expected None (one rack) or a whole number >= 1, got {match_race!r}")
        return cls(table=table or DEFAULT_TABLE, params=params or DEFAULT_PARAMS, race_to=match_race or 1,
                   break_order=break_order, strict_placement=bool(strict_placement))

    @property
    def geometry(self) -> rules.RackGeometry:
        """The table numbers the rules place and spot balls with."""
        return _rack_geometry(self.table.width, self.table.length, self.params.R)


class Outcome(NamedTuple):
    """What one decision did: the rules' ruling in parts, and how the decision was played.

    The one record of a decision, for a ``Game`` and for each table of a ``TableBatch``.

    Attributes:
        player: who decided.
        declaration, fouls, cited, pocketed, off_table, nine_spotted: the ruling's (see ``rules.Ruling``).
        before, after: the rack before and right after the ruling: a ``RackState``, or its packed row (a list,
            ``RackState.packed``) for a batch's tables; ``ruling`` gives both as states.
        rack_winner: the player who won the rack if this decision ended it, else None.
        placement: where the cue ball was placed (ball in hand), else None.
        placement_adjusted: the requested placement was illegal and moved to the nearest legal spot.
        n_events: events the physics logged for the shot (0 for the push-out choice).
        result: the simulation (a ``Game``'s shots; None for the push-out choice), for rendering.
        given_ruling: the ``rules.Ruling`` itself when the decision was ruled as one (a ``Game``'s).
        shot: the cue parameters the shot was played with, execution noise included (a ``Game``'s shots), for
            records that re-simulate it.
    """

    player: int
    declaration: rules.Declaration
    fouls: tuple[rules.RuleId, ...]
    cited: tuple[rules.RuleId, ...]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]
    nine_spotted: bool
    before: rules.RackState | list[int]
    after: rules.RackState | list[int]
    rack_winner: int | None = None
    placement: tuple[float, float] | None = None
    placement_adjusted: bool = False
    n_events: int = 0
    result: SimResult | None = None
    given_ruling: rules.Ruling | None = None
    shot: physics.Shot | None = None

    @classmethod
    def of_ruling(cls, player: int, ruling: rules.Ruling, rack_winner: int | None = None,
                  placement: tuple[float, float] | None = None, placement_adjusted: bool = False, n_events: int = 0,
                  result: SimResult | None = None) -> Outcome:
        """The outcome of a decision ruled as ``ruling``."""
        return cls(player, ruling.declaration, ruling.fouls, ruling.cited, ruling.pocketed, ruling.off_table,
                   ruling.nine_spotted, ruling.before, ruling.after, rack_winner, placement, placement_adjusted,
                   n_events, result, ruling)

    @property
    def ruling(self) -> rules.Ruling:
        """The readable ruling (``rules.Ruling``); a batch table's is built here, its rack states validated."""
        if self.given_ruling is not None:
            return self.given_ruling
        before, after = (state if isinstance(state, rules.RackState) else
                         rules.RackState.from_packed(np.asarray(state, dtype=np.int64))
                         for state in (self.before, self.after))
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
        after = self.after
        row = after.packed().tolist() if isinstance(after, rules.RackState) else after
        return rules.describe_row(self.fouls, self.cited, self.nine_spotted, row)

    def __repr__(self) -> str:
        return (f"Outcome(player={self.player}, {self.declaration}: {self.text()}, placement={self.placement}, "
                f"adjusted={self.placement_adjusted}, n_events={self.n_events})")

    def __eq__(self, other: object) -> bool:  # the simulation and the ruling view are not compared
        return isinstance(other, Outcome) and self[:_COMPARED] == other[:_COMPARED]

    __hash__ = None  # type: ignore[assignment]


_COMPARED = Outcome._fields.index("result")


@dataclass(frozen=True, eq=False)
class PreparedShot:
    """A checked decision, from ``Game.prepare``: what to simulate before ``Game.finish`` rules on it.

    Attributes:
        player: who decides.
        rack: the rack state it was prepared in (``finish`` refuses it once the game moved on).
        declaration: shot, push-out, or the push-out choice (shoot / pass back).
        start: the balls to simulate from (the cue ball placed when in hand); None for the push-out choice.
        shot: the shot to simulate (noise already applied by the caller); None for the push-out choice.
        placement: where the cue ball was placed (ball in hand), else None.
        placement_adjusted: the requested placement was illegal and moved to the nearest legal spot.
    """

    player: int
    rack: rules.RackState
    declaration: rules.Declaration
    start: BallState | None = None
    shot: physics.Shot | None = None
    placement: tuple[float, float] | None = None
    placement_adjusted: bool = False


@dataclass(frozen=True)
class GameSnapshot:
    """Everything needed to put a game back where it was (the generator's state included)."""

    balls: BallState
    rack: rules.RackState
    match: rules.Match
    rng_state: dict
    last: Outcome | None


@functools.lru_cache(maxsize=16)
def _rack_geometry(width: float, length: float, ball_radius: float) -> rules.RackGeometry:
    """The rules' (frozen) view of a table, built once per table size."""
    return rules.RackGeometry(width, length, ball_radius)


@functools.lru_cache(maxsize=16)
def _rack_slots(table: Table, params: PhysicsParams) -> np.ndarray:
    """The diamond's slot centres for a table and ball size (computed once)."""
    slots = physics.rack_positions(table, params)
    slots.flags.writeable = False
    return slots


def rack_balls(order: tuple[int, ...], table: Table, params: PhysicsParams) -> BallState:
    """Balls on the diamond slots in ``order`` (R-RACK), the cue ball in hand (off the table)."""
    balls = BallState.empty()
    idx = list(order)
    balls.pos[idx] = _rack_slots(table, params)
    balls.motion[idx] = int(Motion.STATIONARY)
    return balls


class Game:
    """One match (a single rack when ``race_to`` = 1) between players 0 and 1."""

    def __init__(self, config: GameConfig, rng: np.random.Generator, first_breaker: int = 0) -> None:
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng: expected a numpy.random.Generator, got {type(rng).__name__}")
        self.config = config
        self.geometry = config.geometry  # the rules' view of the table, built once
        self.rng = rng
        self.match = rules.Match(race_to=config.race_to, break_order=rules.BreakOrder(config.break_order),
                                 breaker=first_breaker)
        self.rack, order = self.match.new_rack(rng)
        self.balls = rack_balls(order, config.table, config.params)
        self.last: Outcome | None = None

    # -- state ------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The match (the rack, in a one-rack game) is decided."""
        return self.match.over

    @property
    def to_move(self) -> int | None:
        """The player to decide next, or None when the game is over."""
        return None if self.over else self.rack.shooter

    def on_table(self) -> np.ndarray:
        """Boolean mask of balls 0–9 on the table (the cue ball is off it while in hand)."""
        return self.balls.on_table()

    def snapshot(self) -> GameSnapshot:
        """A copy of the game's state, the generator's included."""
        return GameSnapshot(self.balls.copy(), self.rack, self.match, self.rng.bit_generator.state, self.last)

    def restore(self, snap: GameSnapshot) -> None:
        """Put the game back to ``snap`` (the generator too)."""
        self.balls = snap.balls.copy()
        self.rack, self.match, self.last = snap.rack, snap.match, snap.last
        self.rng.bit_generator.state = snap.rng_state

    def clone(self) -> "Game":
        """An independent copy (its own generator in the same state): try decisions on it and throw it away."""
        twin = copy.copy(self)
        twin.rng = np.random.Generator(type(self.rng.bit_generator)())
        twin.restore(self.snapshot())
        return twin

    # -- decisions --------------------------------------------------------------------------------

    def decode(self, act: np.ndarray, scale: actions.ActionScale = actions.DEFAULT_SCALE) -> Decision:
        """What the checked action ``act`` means in the current phase (unused components are ignored)."""
        rack, cfg = self.rack, self.config
        return actions.decode(act, ball_in_hand=rack.ball_in_hand, push_out_allowed=rack.phase is rules.Phase.PUSH_OUT_ALLOWED,
                              choice=rack.phase is rules.Phase.PUSH_OUT_CHOICE, table=cfg.table, params=cfg.params,
                              scale=scale)

    def observe(self, player: int) -> np.ndarray:
        """The observation of ``player`` (``nineball_env.observation``)."""
        t = self.config.table
        return observation.encode(self.balls.pos, self.balls.on_table(), self.rack, self.match, player, t.width,
                                  t.length)

    def play(self, player: int, act: np.ndarray, scale: actions.ActionScale = actions.DEFAULT_SCALE,
             noise: NoiseConfig = SILENT, rng: np.random.Generator | None = None) -> Outcome:
        """One turn of ``player`` from a checked action: decode it for the phase, add execution noise drawn from
        ``rng`` (default: the game's generator) to its shot, then ``apply`` it. Every env and match plays so."""
        decision = self.decode(act, scale)
        if decision.shot is not None and not noise.silent:
            shot = perturb(decision.shot, noise, self.rng if rng is None else rng, self.config.params)
            decision = replace(decision, shot=shot)
        return self.apply(player, decision)

    def apply(self, player: int, decision: Decision) -> Outcome:
        """Play ``decision`` for ``player``: simulate, rule, apply. Raises ValueError (nothing changed) when it
        is not that player's turn, the decision does not fit the phase, or a strict placement is illegal.

        The same as ``finish(prepare(player, decision), <the prepared shot simulated>)``."""
        prepared = self.prepare(player, decision)
        result = None
        if prepared.shot is not None:
            cfg = self.config
            result = physics.simulate(prepared.start, prepared.shot, cfg.table, cfg.params,
                                      max_events=cfg.max_events, max_time=cfg.max_time)
        return self.finish(prepared, result)

    def prepare(self, player: int, decision: Decision) -> "PreparedShot":
        """Check ``decision`` for ``player`` and place the cue ball: the shot to simulate (``shot``, from
        ``start``), or none for the push-out choice. Changes nothing; raises ValueError as ``apply`` does.
        Simulate ``shot`` from ``start`` (alone or in a batch) and hand the result to ``finish``."""
        rack = self.rack
        if self.over:
            raise ValueError(f"the game is over (won by player {self.match.winner}): reset it (R-GAME-END)")
        if player != rack.shooter:
            raise ValueError(f"player {player} cannot act: it is player {rack.shooter}'s decision (R-CONTINUE)")
        if rack.phase is rules.Phase.PUSH_OUT_CHOICE:
            declaration = rules.Declaration.PASS_BACK if decision.pass_back else rules.Declaration.SHOOT
            return PreparedShot(player, rack, declaration)
        if decision.shot is None:
            raise ValueError(f"player {player} must shoot in phase {rack.phase}, not choose (R-PUSH-CHOICE)")
        start, spot, adjusted = self.balls, None, False
        if rack.ball_in_hand is not rules.BallInHand.NONE:
            spot, adjusted = self._placement(decision.placement)
            start = self.balls.copy()
            start.place(0, *spot)
        elif not self.balls.on_table()[0]:
            raise RuntimeError("internal: the cue ball is off the table but nobody has ball in hand")
        declaration = rules.Declaration.PUSH_OUT if (
            decision.push_out and rack.phase is rules.Phase.PUSH_OUT_ALLOWED) else rules.Declaration.SHOT
        return PreparedShot(player, rack, declaration, start, decision.shot, spot, adjusted)

    def finish(self, prepared: "PreparedShot", result: SimResult | None) -> Outcome:
        """Rule and apply a ``prepare``d decision given ``result``, the simulation of ``prepared.shot`` from
        ``prepared.start`` (None for the push-out choice); a result that hit the physics event/time cap is
        continued to rest. ``prepared`` must come from this game's current state."""
        if prepared.rack is not self.rack:
            raise ValueError("prepared: the game changed since this decision was prepared")
        if prepared.shot is None:
            if result is not None:
                raise ValueError("result: the push-out choice has no shot to simulate")
            return self._finish(rules.decide(self.rack, (), prepared.declaration), prepared.player)
        if result is None:
            raise ValueError("result: expected the simulation of the prepared shot, got None")
        result, rows = self._complete(result)
        ruling = rules.decide_log(self.rack, rows, prepared.declaration)
        self.balls = result.state.copy()
        outcome = self._finish(ruling, prepared.player, prepared.placement, prepared.placement_adjusted,
                               len(result.events), result)
        return outcome._replace(shot=prepared.shot)

    def _placement(self, requested: tuple[float, float] | None) -> tuple[tuple[float, float], bool]:
        """The legal cue-ball spot for a ball-in-hand request (R-BIH, R-BREAK-POS) and whether it was moved."""
        cfg = self.config
        if requested is None:
            raise ValueError("placement: the player has ball in hand and must place the cue ball (R-BIH)")
        kitchen = self.rack.ball_in_hand is rules.BallInHand.KITCHEN
        on = self.balls.on_table()
        on[0] = False
        points = self.balls.pos[on]  # the object balls on the table (not the cue ball)
        x, y = float(requested[0]), float(requested[1])
        if placing.is_free(x, y, points, cfg.table, cfg.params, kitchen):
            return (x, y), False
        if cfg.strict_placement:
            where = "in the kitchen (R-BREAK-POS)" if kitchen else "on the table (R-BIH)"
            raise ValueError(f"placement: cue ball at ({x:.4f}, {y:.4f}) m is not a free spot {where}: "
                             "it touches a ball, a pocket or the rail")
        return placing.nearest_free(x, y, points, cfg.table, cfg.params, kitchen), True

    def _simulate(self, start: BallState, shot: physics.Shot) -> tuple[SimResult, np.ndarray]:
        """Run the shot to rest (continuing past the event/time caps) and return all its log rows."""
        cfg = self.config
        return self._complete(physics.simulate(start, shot, cfg.table, cfg.params, max_events=cfg.max_events,
                                               max_time=cfg.max_time))

    def _complete(self, result: SimResult) -> tuple[SimResult, np.ndarray]:
        """``complete_shot`` with this game's configuration."""
        return complete_shot(result, self.config)

    def _finish(self, ruling: rules.Ruling, player: int, spot: tuple[float, float] | None = None,
                adjusted: bool = False, n_events: int = 0, result: SimResult | None = None) -> Outcome:
        """Apply ``ruling`` to the balls (spot the 9, take a cue ball in hand), the rack and the match."""
        after = ruling.after
        if ruling.nine_spotted:
            on = self.balls.on_table()
            on[9] = False
            if after.ball_in_hand is not rules.BallInHand.NONE:
                on[0] = False  # spotting comes before the incoming player places the cue ball (R-SPOT-9)
            positions = dict(zip(np.flatnonzero(on).tolist(), map(tuple, self.balls.pos[on].tolist())))
            self.balls.place(9, *rules.spot_nine(positions, self.geometry))
        if after.ball_in_hand is not rules.BallInHand.NONE:
            self.balls.remove(0)
        self.rack = after
        winner = None
        if after.over:
            winner = after.winner
            self.match = self.match.record(after)
            if not self.match.over:
                self.rack, order = self.match.new_rack(self.rng)
                self.balls = rack_balls(order, self.config.table, self.config.params)
        self.last = Outcome.of_ruling(player, ruling, winner, spot, adjusted, n_events, result)
        return self.last


def complete_shot(result: SimResult, cfg: GameConfig) -> tuple[SimResult, np.ndarray]:
    """Continue a first simulation past the event/time caps (at most ``MAX_CONTINUATIONS`` more calls,
    then stop what still moves); the result to rest and the log rows of every call (times running on)."""
    if not (result.hit_event_cap or result.hit_time_cap):
        return result, result.events.rows
    parts = [result.events.rows]
    final, offset, capped = result.state, result.duration, True
    for _ in range(MAX_CONTINUATIONS):
        if not capped:
            break
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
