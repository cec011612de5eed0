"""Rewards: +1 / −1 for a rack won / lost, plus optional shaping terms (all off by default)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from nineball_env.game import Outcome
from physics.checks import check_numbers, from_spec

REWARD_PARTS = ("rack", "pot", "foul", "opponent_pot", "opponent_foul")


@dataclass(frozen=True)
class RewardShaping:
    """Weights of the shaping terms, per event (use negative values for penalties).

    Attributes:
        pot: per object ball the learner pockets on a legal shot (push-outs do not count).
        foul: per foul of the learner.
        opponent_pot: per object ball the opponent pockets on a legal shot.
        opponent_foul: per foul of the opponent.
    """

    pot: float = 0.0
    foul: float = 0.0
    opponent_pot: float = 0.0
    opponent_foul: float = 0.0

    def __post_init__(self) -> None:
        check_numbers(self, label="reward_shaping[{!r}]")


def make_shaping(spec: Mapping[str, float] | RewardShaping | None) -> RewardShaping:
    """A RewardShaping from a dict of weights, a RewardShaping or None (no shaping)."""
    return from_spec(RewardShaping, spec, "reward_shaping")


def reward_parts(outcomes: Iterable[Outcome], learner: int, shaping: RewardShaping) -> dict[str, float]:
    """The reward of one step split into its parts (``REWARD_PARTS``); the reward is their sum."""
    parts = dict.fromkeys(REWARD_PARTS, 0.0)
    for o in outcomes:
        mine = o.player == learner
        if o.rack_winner is not None:
            parts["rack"] += 1.0 if o.rack_winner == learner else -1.0
        parts["pot" if mine else "opponent_pot"] += o.legal_pots * (shaping.pot if mine else shaping.opponent_pot)
        if o.foul:
            parts["foul" if mine else "opponent_foul"] += shaping.foul if mine else shaping.opponent_foul
    return parts
