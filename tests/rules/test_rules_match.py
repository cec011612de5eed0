"""Matches (R-MATCH): a race to N racks, alternating or winner breaks; foul counts never carry over."""

from __future__ import annotations

import numpy as np
import pytest
from rules_testkit import state

from nineball_env.game import GameConfig, TableBatch
from nineball_env.rules import BreakOrder, Match, RackState, decide, forfeit, hit, pocket


def _tables(race_to: int, break_order: str = "alternate", breaker: int = 0) -> TableBatch:
    """One table of a race to ``race_to`` (the game scores it: ``TableBatch`` is the one match implementation)."""
    return TableBatch(GameConfig(race_to=race_to, break_order=break_order), [np.random.default_rng(3)],
                      breakers=[breaker])


def _end(tables: TableBatch, after: RackState) -> None:
    """Table 0's rack ends in ``after``: scored, and the next rack dealt unless the match is decided."""
    tables.rack[0] = after.packed()
    tables._score(0, tables.rack[0])


def _win(tables: TableBatch, player: int) -> None:
    """End table 0's rack with a win for ``player`` (the loser concedes, R-FORFEIT)."""
    _end(tables, forfeit(RackState.from_packed(tables.rack[0]), 1 - player).after)


def test_r_match_race_to_n_with_alternating_breaks() -> None:
    tables, breakers = _tables(3), []
    for winner in (0, 0, 1, 0):
        assert not tables.done[0]
        breakers.append(RackState.from_packed(tables.rack[0]).breaker)
        _win(tables, winner)
    assert breakers == [0, 1, 0, 1]
    match = tables.match(0)
    assert match.racks_won == (3, 1) and match.winner == 0 and match.over and tables.done[0]


def test_r_match_winner_breaks() -> None:
    tables, breakers = _tables(2, "winner", breaker=1), []
    assert tables.match(0).break_order is BreakOrder.WINNER
    for winner in (1, 0, 0):
        breakers.append(RackState.from_packed(tables.rack[0]).breaker)
        _win(tables, winner)
    assert breakers == [1, 1, 0] and tables.match(0).racks_won == (2, 1) and tables.match(0).winner == 0


@pytest.mark.parametrize("kwargs", [dict(race_to=0), dict(race_to=2.5), dict(race_to=True), dict(breaker=2),
                                    dict(break_order="loser"), dict(racks_won=(5, 5)), dict(racks_won=(-1, 0)),
                                    dict(racks_won=(6, 0))])
def test_r_match_rejects_nonsense(kwargs) -> None:
    with pytest.raises(ValueError):
        Match(**kwargs)


def test_r_three_fouls_counts_never_carry_into_the_next_rack() -> None:
    tables = _tables(2)
    rack = state(counts=(2, 2), shooter=0)  # both players on two fouls ...
    rack = decide(rack, [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 0, .5)]).after  # ... and player 0 wins
    assert rack.winner == 0 and rack.foul_counts == (0, 2)
    _end(tables, rack)
    nxt = RackState.from_packed(tables.rack[0])
    assert nxt.foul_counts == (0, 0) and nxt.breaker == 1 and nxt.phase == "break"
