"""Helpers shared by the rules tests: build rack states and compare rulings field by field."""

from __future__ import annotations

from typing import Any, Iterable

from nineball_env.rules import BallInHand, Phase, RackState, Ruling, hit, rail

ALL = range(1, 10)

# A legal break: the 1 first, then four distinct object balls to a cushion (R-BREAK-LEGAL).
FOUR_TO_RAIL = (hit(0, 1, 0.10), hit(1, 2, 0.12), rail(2, 0.30), rail(3, 0.31), rail(4, 0.32), rail(5, 0.33))


def state(phase: str = "normal", shooter: int = 0, table: Iterable[int] = ALL, bih: str | None = None,
          counts: tuple[int, int] = (0, 0), breaker: int = 0) -> RackState:
    """A running rack state; ball in hand defaults to the kitchen on the break and to none otherwise."""
    phase_ = Phase(phase)
    if bih is None:
        bih = "kitchen" if phase_ is Phase.BREAK else "none"
    return RackState(breaker, shooter, frozenset(table), phase_, BallInHand(bih), counts)


def check(ruling: Ruling, **expected: Any) -> None:
    """Assert the given parts of a ruling: fouls, next, bih, phase, counts, table, spotted, winner, cites."""
    actual = {
        "fouls": {str(f) for f in ruling.fouls},
        "next": ruling.next_shooter,
        "bih": str(ruling.ball_in_hand),
        "phase": str(ruling.phase),
        "counts": ruling.foul_counts,
        "table": set(ruling.on_table),
        "spotted": ruling.nine_spotted,
        "winner": ruling.winner,
        "warnings": ruling.warnings,
    }
    for key, want in expected.items():
        if key == "cites":
            cited = {str(c) for c in ruling.cited}
            missing = {want} - cited if isinstance(want, str) else set(want) - cited
            assert not missing, f"ruling does not cite {missing}: {ruling.describe()}"
            continue
        if key == "fouls":
            want = {want} if isinstance(want, str) else set(want)
        if key == "table":
            want = set(want)
        assert actual[key] == want, f"{key}: expected {want!r}, got {actual[key]!r} in {ruling.describe()}"
