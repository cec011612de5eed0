"""Rewards: +1 / −1 for a rack won / lost, plus optional shaping terms (all off by default).

The compiled turn adds up each step's parts (``kernels.turn.play_decision``, in ``REWARD_PARTS`` order); the reward
is their sum."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

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
