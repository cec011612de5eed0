"""Matches (R-MATCH): a race to N racks, alternating or winner breaks; foul counts never carry over."""

from __future__ import annotations

import numpy as np
import pytest
from rules_testkit import state

from nineball_env.rules import BreakOrder, IllegalAction, Match, RackState, decide, forfeit, hit, pocket


def _win(rack: RackState, player: int) -> RackState:
    """End ``rack`` with a win for ``player`` (the loser concedes, R-FORFEIT)."""
    return forfeit(rack, 1 - player).after


def test_r_match_race_to_n_with_alternating_breaks() -> None:
    rng = np.random.default_rng(3)
    match = Match(race_to=3)
    breakers, winners = [], [0, 0, 1, 0]
    for winner in winners:
        rack, _ = match.new_rack(rng)
        breakers.append(rack.breaker)
        match = match.record(_win(rack, winner))
    assert breakers == [0, 1, 0, 1]
    assert match.racks_won == (3, 1) and match.winner == 0 and match.over
    with pytest.raises(IllegalAction, match="R-MATCH"):
        match.new_rack(rng)
    with pytest.raises(IllegalAction, match="R-MATCH"):
        match.record(_win(RackState.start(match.breaker), 1))


def test_r_match_winner_breaks() -> None:
    rng = np.random.default_rng(4)
    match = Match(race_to=2, break_order="winner", breaker=1)
    assert match.break_order is BreakOrder.WINNER
    breakers = []
    for winner in (1, 0, 0):
        rack, _ = match.new_rack(rng)
        breakers.append(rack.breaker)
        match = match.record(_win(rack, winner))
    assert breakers == [1, 1, 0] and match.racks_won == (2, 1) and match.winner == 0


def test_r_match_only_a_finished_rack_of_the_due_breaker_is_recorded() -> None:
    match = Match()
    with pytest.raises(IllegalAction, match="R-GAME-END"):
        match.record(RackState.start(0))
    with pytest.raises(IllegalAction, match="R-MATCH"):
        match.record(_win(RackState.start(1), 0))


@pytest.mark.parametrize("kwargs", [dict(race_to=0), dict(race_to=2.5), dict(race_to=True), dict(breaker=2),
                                    dict(break_order="loser"), dict(racks_won=(5, 5)), dict(racks_won=(-1, 0)),
                                    dict(racks_won=(6, 0))])
def test_r_match_rejects_nonsense(kwargs) -> None:
    with pytest.raises(ValueError):
        Match(**kwargs)


def test_r_three_fouls_counts_never_carry_into_the_next_rack() -> None:
    rng = np.random.default_rng(5)
    match = Match(race_to=2)
    rack = state(counts=(2, 2), shooter=0)  # both players on two fouls ...
    rack = decide(rack, [hit(0, 1, .1), hit(1, 9, .2), pocket(9, 0, .5)]).after  # ... and player 0 wins
    assert rack.winner == 0 and rack.foul_counts == (0, 2)
    match = match.record(rack)
    nxt, _ = match.new_rack(rng)
    assert nxt.foul_counts == (0, 0) and nxt.breaker == 1 and nxt.phase == "break"
