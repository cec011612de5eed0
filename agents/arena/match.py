"""One head-to-head match: two agents drive one ``Game`` symmetrically, with the same noise, the rules deciding turns.

Each match draws from its own seeds (``agents.arena.seeding``: the racks, the noise and both agents), so it plays
the same wherever it runs. Breaks alternate within a match (R-MATCH); the first breaker alternates between the
matches of a series (``agents.arena.series``). ``record_dir`` writes the match as it is played
(``agents.arena.recording``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields

import numpy as np

from agents.arena.recording import Recorder, record_path
from agents.arena.seeding import match_seeds
from agents.protocol import JUMP_INTENTS, Agent, BaseAgent, TableView
from nineball_env import actions, opponents
from nineball_env.game import Game, GameConfig, Outcome
from nineball_env.noise import NoiseConfig, make_noise
from nineball_env.rules import Declaration, Phase
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table

MAX_DECISIONS_PER_RACK = 2000  # a safety net: three fouls end every rack long before this


@dataclass(frozen=True)
class MatchConfig:
    """How the matches are played: race length, execution noise, break order, table and physics."""

    race_to: int = 3
    noise: NoiseConfig = field(default_factory=lambda: make_noise("icga"))
    break_order: str = "alternate"
    table: Table = DEFAULT_TABLE
    params: PhysicsParams = DEFAULT_PARAMS
    scale: actions.ActionScale = actions.DEFAULT_SCALE

    def __post_init__(self) -> None:
        if isinstance(self.race_to, bool) or not isinstance(self.race_to, int) or self.race_to < 1:
            raise ValueError(f"race_to: expected a whole number of racks >= 1, got {self.race_to!r}")
        if not isinstance(self.noise, NoiseConfig):
            object.__setattr__(self, "noise", make_noise(self.noise))

    def game_config(self) -> GameConfig:
        return GameConfig(table=self.table, params=self.params, race_to=self.race_to, break_order=self.break_order)


@dataclass
class Tally:
    """What one player did over some racks (summed with ``+``).

    Attributes:
        racks, racks_won: racks played / won.
        decisions: every action taken (breaks, shots, push-outs, push-out choices).
        shots: ordinary shots (not breaks, not push-outs).
        legal_pots: ordinary shots that legally pocketed at least one object ball.
        pot_attempts, pots_made: shots the agent meant as pots (``intent == "pot"``; every ordinary
            shot for agents that do not say), and those that legally pocketed a ball.
        jump_attempts, jumps_legal: shots the agent meant as jumps (``intent`` "jump" or "jump-pot": over a ball
            blocking the lowest one), and those that were legal (the lowest ball hit first, no foul).
        jump_pot_attempts, jump_pots_made: jumps meant as pots ("jump-pot"), and those that legally pocketed a ball.
        fouls: fouls of every kind (break fouls included).
        breaks, legal_breaks, break_and_runs: racks broken, legal breaks, racks won from the break
            without the opponent ever coming to the table.
        think_s: seconds spent choosing actions.
    """

    racks: int = 0
    racks_won: int = 0
    decisions: int = 0
    shots: int = 0
    legal_pots: int = 0
    pot_attempts: int = 0
    pots_made: int = 0
    jump_attempts: int = 0
    jumps_legal: int = 0
    jump_pot_attempts: int = 0
    jump_pots_made: int = 0
    fouls: int = 0
    breaks: int = 0
    legal_breaks: int = 0
    break_and_runs: int = 0
    think_s: float = 0.0

    def __add__(self, other: "Tally") -> "Tally":
        return Tally(**{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)})

    def as_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class RackRecord:
    """One rack: who broke, who won and how (R-WIN-9, R-THREE-FOULS, ...), decisions taken, break-and-run."""

    breaker: int
    winner: int
    ended_by: str
    decisions: int
    break_and_run: bool


@dataclass(frozen=True)
class MatchRecord:
    """One match between player 0 (agent A) and player 1 (agent B)."""

    index: int
    first_breaker: int
    winner: int
    score: tuple[int, int]
    racks: tuple[RackRecord, ...]
    tallies: tuple[Tally, Tally]


def _act(agent: Agent, obs: np.ndarray, view: TableView) -> np.ndarray:
    """Ask ``agent`` for an action: nineball agents get the view, anything else plays as an env opponent."""
    if not isinstance(agent, BaseAgent):
        try:
            return opponents.query(agent, obs, None)
        except ValueError as err:
            raise ValueError(f"agent {getattr(agent, 'name', agent)!r}: {err}") from None
    action = agent.act(obs, view)
    arr = np.asarray(action, dtype=np.float64).reshape(-1)
    if arr.shape != (actions.N_ACTION,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"agent {getattr(agent, 'name', agent)!r}: expected {actions.N_ACTION} finite numbers, "
                         f"got {action!r}")
    return np.clip(arr, -1.0, 1.0)


def play_match(agent_a: Agent, agent_b: Agent, config: MatchConfig, seed: int = 0, index: int = 0,
               first_breaker: int | None = None, record_dir: str | None = None) -> MatchRecord:
    """Play one race between ``agent_a`` (player 0) and ``agent_b`` (player 1) and tally it.

    ``first_breaker`` defaults to ``index % 2`` (alternating between the matches of a series);
    ``record_dir`` writes the match there to replay it (``agents.arena.recording``).
    """
    seeds = match_seeds(seed, index)
    breaker = index % 2 if first_breaker is None else first_breaker
    game = Game(config.game_config(), np.random.default_rng(seeds.game), breaker, config.noise, config.scale)
    noise_rng = np.random.default_rng(seeds.noise)
    players = (agent_a, agent_b)
    for agent, ss in ((agent_a, seeds.agent_a), (agent_b, seeds.agent_b)):
        if hasattr(agent, "seed"):
            agent.seed(int(ss.generate_state(1)[0]))
    tallies = (Tally(), Tally())
    racks: list[RackRecord] = []
    rack_decisions = [0, 0]
    recorder = _recorder(record_dir, players, config, seed, index, breaker, game)
    while not game.over:
        player = game.to_move
        assert player is not None
        if sum(rack_decisions) >= MAX_DECISIONS_PER_RACK:
            raise RuntimeError(f"a rack ran past {MAX_DECISIONS_PER_RACK} decisions")
        rack = game.rack
        obs = game.observe(player)
        agent = players[player]
        start = time.perf_counter()
        action = _act(agent, obs, TableView.from_game(game, config.noise, config.scale))
        think = time.perf_counter() - start
        outcome = game.play(player, action, noise_rng)
        if recorder is not None:
            recorder.decision(game, player, action, outcome.shot, outcome)
        rack_decisions[player] += 1
        _tally(tallies[player], outcome, getattr(agent, "intent", None), think)
        if outcome.rack_winner is not None:
            after = outcome.ruling.after
            winner = outcome.rack_winner
            bnr = winner == after.breaker and rack_decisions[1 - winner] == 0
            racks.append(RackRecord(after.breaker, winner, str(after.ended_by), sum(rack_decisions), bnr))
            for p in (0, 1):
                tallies[p].racks += 1
            tallies[winner].racks_won += 1
            tallies[after.breaker].break_and_runs += int(bnr)
            rack_decisions = [0, 0]
    winner = game.match.winner
    assert winner is not None
    if recorder is not None:
        recorder.finish(game)
    return MatchRecord(index, breaker, winner, game.match.racks_won, tuple(racks), tallies)


def _recorder(record_dir: str | None, players: tuple[Agent, Agent], config: MatchConfig, seed: int, index: int,
              breaker: int, game: Game):
    """The match's ``Recorder`` (its first rack recorded), or None when not recording."""
    if record_dir is None:
        return None
    names = tuple(str(getattr(p, "name", type(p).__name__)) for p in players)
    recorder = Recorder(record_path(record_dir, index), names, config, seed, index, breaker)  # type: ignore[arg-type]
    recorder.start(game)
    return recorder


def _tally(tally: Tally, outcome: Outcome, intent: str | None, think: float) -> None:
    """Add one decision's outcome to its player's tally."""
    ruling = outcome.ruling
    tally.decisions += 1
    tally.think_s += think
    tally.fouls += int(ruling.foul)
    if ruling.before.phase is Phase.BREAK:
        tally.breaks += 1
        tally.legal_breaks += int(not ruling.foul)
        return
    if ruling.declaration is not Declaration.SHOT:
        return
    potted = not ruling.foul and any(b != 0 for b in ruling.pocketed)
    tally.shots += 1
    tally.legal_pots += int(potted)
    if intent in (None, "pot"):
        tally.pot_attempts += 1
        tally.pots_made += int(potted)
    elif intent in JUMP_INTENTS:
        tally.jump_attempts += 1
        tally.jumps_legal += int(not ruling.foul)
        if intent == "jump-pot":
            tally.jump_pot_attempts += 1
            tally.jump_pots_made += int(potted)
