"""A match: a race to N racks with alternating breaks (default) or winner breaks (R-MATCH)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from nineball_env.rules.state import as_player


class BreakOrder(StrEnum):
    """Who breaks the next rack (R-MATCH)."""

    ALTERNATE = "alternate"  # the players take turns (default)
    WINNER = "winner"  # the winner of the last rack breaks [decision]


@dataclass(frozen=True)
class Match:
    """Score of a race to ``race_to`` racks (``game.TableBatch`` scores the racks as they end).

    Attributes:
        race_to: racks needed to win the match.
        break_order: see ``BreakOrder``.
        breaker: the player who breaks the next (current) rack.
        racks_won: racks won by players 0 and 1.
    """

    race_to: int = 5
    break_order: BreakOrder = BreakOrder.ALTERNATE
    breaker: int = 0
    racks_won: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if isinstance(self.race_to, bool) or not isinstance(self.race_to, int) or self.race_to < 1:
            raise ValueError(f"race_to: expected a whole number of racks >= 1, got {self.race_to!r}")
        if self.break_order not in tuple(BreakOrder):
            raise ValueError(f"break_order: expected one of {[b.value for b in BreakOrder]}, got {self.break_order!r}")
        object.__setattr__(self, "break_order", BreakOrder(self.break_order))
        object.__setattr__(self, "breaker", as_player(self.breaker, "breaker"))
        won = tuple(int(w) for w in self.racks_won)
        if len(won) != 2 or min(won) < 0 or max(won) > self.race_to or min(won) == self.race_to:
            raise ValueError(f"racks_won: expected two scores in 0..{self.race_to}, at most one reaching it, "
                             f"got {self.racks_won!r}")
        object.__setattr__(self, "racks_won", won)

    @property
    def winner(self) -> int | None:
        """The player who reached ``race_to`` racks, or None while the match runs."""
        return self.racks_won.index(self.race_to) if self.race_to in self.racks_won else None

    @property
    def over(self) -> bool:
        """The match is decided."""
        return self.winner is not None


def next_breaker(break_order: str, breaker: int, winner: int) -> int:
    """Who breaks the rack after one that ``breaker`` broke and ``winner`` won (R-MATCH)."""
    return 1 - breaker if break_order == BreakOrder.ALTERNATE else winner
