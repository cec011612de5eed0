"""Evaluation statistics: Wilson score intervals for win rates, Elo ratings (Bradley–Terry) with bootstrap
intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """A proportion ``k``/``n`` with its Wilson score interval [lo, hi] (95 % by default)."""

    k: float
    n: int
    lo: float
    hi: float

    @property
    def p(self) -> float:
        return self.k / self.n if self.n else float("nan")

    def as_dict(self) -> dict[str, float]:
        return {"k": self.k, "n": self.n, "p": self.p, "lo": self.lo, "hi": self.hi}

    def __str__(self) -> str:
        if not self.n:
            return "-"
        return f"{100 * self.p:.1f}% [{100 * self.lo:.1f}, {100 * self.hi:.1f}]"


def wilson(k: float, n: int, z: float = Z95) -> Rate:
    """Wilson score interval for ``k`` successes in ``n`` trials (Wilson 1927); (0, 1) bounds when n = 0."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"wilson: expected 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return Rate(k, 0, 0.0, 1.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return Rate(k, n, lo, hi)


def bradley_terry(wins: np.ndarray, prior: float = 0.5, iterations: int = 1000, tol: float = 1e-10) -> np.ndarray:
    """Strengths γ (geometric mean 1) from a matrix ``wins[i, j]`` = games i won against j.

    Minorisation–maximisation (Hunter 2004). ``prior`` adds that many virtual wins each way to every
    pair that played, so an unbeaten player still gets a finite rating.
    """
    w = np.asarray(wins, dtype=float)
    m = w.shape[0]
    if w.shape != (m, m):
        raise ValueError(f"wins: expected a square matrix, got shape {w.shape}")
    played = (w + w.T) > 0
    w = w + prior * played
    n = w + w.T
    gamma = np.ones(m)
    total = w.sum(axis=1)
    for _ in range(iterations):
        denom = (n / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    return gamma


def elo(wins: np.ndarray, prior: float = 0.5, base: float = 1500.0) -> np.ndarray:
    """Elo ratings (mean ``base``) from a wins matrix: 400·log10 of the Bradley–Terry strengths."""
    gamma = bradley_terry(wins, prior)
    r = 400.0 * np.log10(gamma)
    return r - r.mean() + base


@dataclass(frozen=True)
class EloTable:
    """Elo ratings with bootstrap percentile intervals, one per player, in input order."""

    names: tuple[str, ...]
    rating: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    unit: str

    def as_dict(self) -> list[dict[str, float | str]]:
        return [{"agent": n, "elo": float(r), "lo": float(lo), "hi": float(hi)}
                for n, r, lo, hi in zip(self.names, self.rating, self.lo, self.hi)]


def elo_with_intervals(names: Sequence[str], games: Sequence[tuple[int, int, int, int]], rng: np.random.Generator,
                       n_boot: int = 200, prior: float = 0.5, unit: str = "racks", level: float = 0.95) -> EloTable:
    """Elo ratings from ``games`` = (i, j, wins of i, wins of j) per match, with a bootstrap over matches.

    Each bootstrap draw resamples, within every pair of players, its matches with replacement, so
    the racks of one match stay together.
    """
    m = len(names)
    games = list(games)

    def matrix(rows: Sequence[tuple[int, int, int, int]]) -> np.ndarray:
        w = np.zeros((m, m))
        for i, j, wi, wj in rows:
            w[i, j] += wi
            w[j, i] += wj
        return w

    rating = elo(matrix(games), prior)
    by_pair: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}
    for g in games:
        by_pair.setdefault((g[0], g[1]), []).append(g)
    draws = np.empty((n_boot, m))
    for b in range(n_boot):
        rows = []
        for pair_games in by_pair.values():
            idx = rng.integers(len(pair_games), size=len(pair_games))
            rows.extend(pair_games[i] for i in idx)
        draws[b] = elo(matrix(rows), prior)
    alpha = (1.0 - level) / 2.0
    lo = np.quantile(draws, alpha, axis=0) if n_boot else rating.copy()
    hi = np.quantile(draws, 1.0 - alpha, axis=0) if n_boot else rating.copy()
    return EloTable(tuple(names), rating, lo, hi, unit)
