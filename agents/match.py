"""Head-to-head matches: two agents drive one ``Game`` symmetrically, with the same noise and the rules deciding turns.

Each match gets its own seed (``SeedSequence(seed, spawn_key=(index,))``) for the racks, the noise
and both agents, so a series gives the same results whatever the number of worker processes.
Breaks alternate within a match (R-MATCH) and the first breaker alternates between matches.
Matches run in this process, in a local process pool (``jobs``) or on a ``MatchBackend`` (Ray:
``agents.ray_backend``); the records are the same on all of them.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from typing import Iterator, Protocol, Sequence

import numpy as np

from agents.base import JUMP_INTENTS, Agent, BaseAgent, TableView
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


def match_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed sequence of match ``index`` in a series seeded with ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


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
    ``record_dir`` writes the match there to replay it (``agents.recording``).
    """
    game_ss, noise_ss, a_ss, b_ss = match_seed(seed, index).spawn(4)
    breaker = index % 2 if first_breaker is None else first_breaker
    game = Game(config.game_config(), np.random.default_rng(game_ss), breaker, config.noise, config.scale)
    noise_rng = np.random.default_rng(noise_ss)
    players = (agent_a, agent_b)
    for agent, ss in ((agent_a, a_ss), (agent_b, b_ss)):
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
    """The match's ``agents.recording.Recorder`` (its first rack recorded), or None when not recording."""
    if record_dir is None:
        return None
    from agents.recording import Recorder, record_path

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


# -- series --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesResult:
    """The matches of agent A against agent B, in index order."""

    name_a: str
    name_b: str
    config: MatchConfig
    seed: int
    matches: tuple[MatchRecord, ...]

    def tally(self, player: int) -> Tally:
        """Summed tally of agent A (0) or B (1) over every match."""
        total = Tally()
        for m in self.matches:
            total = total + m.tallies[player]
        return total

    @property
    def wins(self) -> tuple[int, int]:
        """Matches won by A and by B."""
        a = sum(1 for m in self.matches if m.winner == 0)
        return a, len(self.matches) - a


#: One match to play: (spec of A, spec of B, config, series seed, match index).
MatchJob = tuple[str, str, MatchConfig, int, int, str | None]


class MatchBackend(Protocol):
    """Somewhere else to play matches (``agents.ray_backend.RayBackend``)."""

    def submit(self, jobs: Sequence[MatchJob]) -> Iterator[MatchRecord]:
        """Start every job now; the iterator yields their records as they finish, in any order."""
        ...


def series_jobs(spec_a: str, spec_b: str, n_matches: int, config: MatchConfig, seed: int,
                record_dir: str | None = None) -> list[MatchJob]:
    """The jobs of one series, match 0 first (each writes its record to ``record_dir`` when given)."""
    return [(spec_a, spec_b, config, seed, i, record_dir) for i in range(n_matches)]


def _run_one(job: MatchJob) -> MatchRecord:
    """Worker entry: build both agents from their specs and play one match."""
    from agents.registry import make_agent

    spec_a, spec_b, config, seed, index, record_dir = job
    return play_match(make_agent(spec_a), make_agent(spec_b), config, seed, index, record_dir=record_dir)


def _check_counts(n_matches: int, jobs: int) -> None:
    if isinstance(n_matches, bool) or not isinstance(n_matches, int) or n_matches < 1:
        raise ValueError(f"matches: expected a whole number >= 1, got {n_matches!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs: expected a whole number >= 1, got {jobs!r}")


def run_series(spec_a: str, spec_b: str, n_matches: int, config: MatchConfig, seed: int = 0, jobs: int = 1,
               progress: bool = True, agents: tuple[Agent, Agent] | None = None,
               backend: MatchBackend | None = None, record_dir: str | None = None) -> SeriesResult:
    """Play ``n_matches`` races between the agents named by ``spec_a`` and ``spec_b`` (``agents.registry``).

    ``jobs`` > 1 plays matches in worker processes (each builds its own agents); ``backend`` plays
    them there instead (``jobs`` is then ignored); ``agents`` passes ready-made agents (single
    process). A tqdm bar shows the running score when ``progress``. ``record_dir`` writes one file per
    match there (``agents.recording``; replay with ``nineball replay``).
    """
    _check_counts(n_matches, jobs)
    if backend is not None:
        return _collect(spec_a, spec_b, config, seed, n_matches,
                        backend.submit(series_jobs(spec_a, spec_b, n_matches, config, seed, record_dir)), progress)
    from agents.registry import make_agent

    if agents is None and jobs == 1:
        agents = (make_agent(spec_a), make_agent(spec_b))
    return _collect(spec_a, spec_b, config, seed, n_matches,
                    _records(spec_a, spec_b, n_matches, config, seed, jobs, agents, record_dir), progress)


def _collect(spec_a: str, spec_b: str, config: MatchConfig, seed: int, n_matches: int,
             stream: Iterator[MatchRecord], progress: bool) -> SeriesResult:
    """Gather a series' records (any order) under its progress bar, then sort them by match index."""
    records: list[MatchRecord] = []
    bar = _progress(n_matches, f"{spec_a} vs {spec_b}", progress)
    try:
        for record in stream:
            records.append(record)
            if bar is not None:
                a = sum(1 for r in records if r.winner == 0)
                bar.set_postfix_str(f"{a}-{len(records) - a}")
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    records.sort(key=lambda r: r.index)
    return SeriesResult(spec_a, spec_b, config, seed, tuple(records))


def _records(spec_a: str, spec_b: str, n: int, config: MatchConfig, seed: int, jobs: int,
             agents: tuple[Agent, Agent] | None, record_dir: str | None = None) -> Iterator[MatchRecord]:
    if agents is not None:
        for i in range(n):
            yield play_match(agents[0], agents[1], config, seed, i, record_dir=record_dir)
        return
    from agents.registry import LEARNED, parse_spec

    jobs = min(jobs, n, os.cpu_count() or 1)
    # Children that run torch must not be forked from a parent whose torch threads already started, nor from
    # a Ray driver (a forked child inherits its threads and sockets and dies on its SIGTERM): spawn them.
    learned = any(parse_spec(spec)[0] in LEARNED for spec in (spec_a, spec_b))
    method = "spawn" if learned or _ray_driver() or "fork" not in mp.get_all_start_methods() else "fork"
    with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context(method)) as pool:
        yield from pool.map(_run_one, series_jobs(spec_a, spec_b, n, config, seed, record_dir))


def _ray_driver() -> bool:
    """Ray is running in this process (imported and initialised; never imported here)."""
    ray = sys.modules.get("ray")
    return bool(ray is not None and getattr(ray, "is_initialized", lambda: False)())


def _progress(total: int, desc: str, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="match", leave=False, dynamic_ncols=True)


def round_robin(specs: Sequence[str], n_matches: int, config: MatchConfig, seed: int = 0, jobs: int = 1,
                progress: bool = True, backend: MatchBackend | None = None) -> list[SeriesResult]:
    """Every pair of ``specs`` plays ``n_matches`` races (pair p uses seed ``seed + p``).

    On a ``backend`` every pairing's matches are submitted at once (a cluster stays busy across
    pairings); the results are gathered pairing by pairing, as locally.
    """
    pairs = [(specs[i], specs[j]) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    if backend is None:
        return [run_series(a, b, n_matches, config, seed + p, jobs, progress) for p, (a, b) in enumerate(pairs)]
    _check_counts(n_matches, jobs)
    streams = [backend.submit(series_jobs(a, b, n_matches, config, seed + p)) for p, (a, b) in enumerate(pairs)]
    return [_collect(a, b, config, seed + p, n_matches, stream, progress)
            for p, ((a, b), stream) in enumerate(zip(pairs, streams))]
