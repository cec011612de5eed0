"""Series of matches between two agents, and round robins: where the matches run, and their results in index order.

Match ``index`` of a series seeded ``seed`` plays from its own seeds (``agents.arena.seeding``), so a series gives
the same results whatever the number of worker processes. Matches run in this process, in a local process pool
(``jobs``) or on a ``MatchBackend`` (Ray: ``agents.arena.ray_backend``); the records are the same on all of them.
Agents are named by their ``agents.registry`` specs, so every worker builds its own. On a cold numba cache the first
match is played here before the pool starts, so the kernels are compiled once, not once per worker.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Iterator, Protocol, Sequence

from agents.arena import kernel_cache
from agents.arena.match import MatchConfig, MatchRecord, Tally, play_match
from agents.protocol import Agent
from agents.registry import LEARNED, make_agent, parse_spec


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
    """Somewhere else to play matches (``agents.arena.ray_backend.RayBackend``)."""

    def submit(self, jobs: Sequence[MatchJob]) -> Iterator[MatchRecord]:
        """Start every job now; the iterator yields their records as they finish, in any order."""
        ...


def series_jobs(spec_a: str, spec_b: str, n_matches: int, config: MatchConfig, seed: int,
                record_dir: str | None = None) -> list[MatchJob]:
    """The jobs of one series, match 0 first (each writes its record to ``record_dir`` when given)."""
    return [(spec_a, spec_b, config, seed, i, record_dir) for i in range(n_matches)]


def _run_one(job: MatchJob) -> MatchRecord:
    """Worker entry: build both agents from their specs and play one match."""
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
    match there (``agents.arena.recording``; replay with ``nineball replay``).
    """
    _check_counts(n_matches, jobs)
    if backend is not None:
        return _collect(spec_a, spec_b, config, seed, n_matches,
                        backend.submit(series_jobs(spec_a, spec_b, n_matches, config, seed, record_dir)), progress)
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
    jobs = min(jobs, n, os.cpu_count() or 1)
    todo = series_jobs(spec_a, spec_b, n, config, seed, record_dir)
    if jobs > 1 and kernel_cache.cold():
        # On a cold numba cache every worker would compile the same kernels at once (minutes of every core): play
        # the first match here, which compiles them once and writes the cache the workers then load.
        yield _run_one(todo.pop(0))
    # Children that run torch must not be forked from a parent whose torch threads already started, nor from
    # a Ray driver (a forked child inherits its threads and sockets and dies on its SIGTERM): spawn them.
    learned = any(parse_spec(spec)[0] in LEARNED for spec in (spec_a, spec_b))
    method = "spawn" if learned or _ray_driver() or "fork" not in mp.get_all_start_methods() else "fork"
    with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context(method)) as pool:
        yield from pool.map(_run_one, todo)


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
