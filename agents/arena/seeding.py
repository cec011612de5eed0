"""The seeds of a series: every match its own ``SeedSequence``, split into the four streams a match draws from.

Match ``index`` of a series seeded ``seed`` gets ``SeedSequence(seed, spawn_key=(index,))`` whatever process plays
it, so a series gives the same results on any number of workers or machines; the match splits it into the racks'
generator, the execution noise, and the two agents' seeds. A record replays a match from the first of them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class MatchSeeds(NamedTuple):
    """The independent streams of one match."""

    game: np.random.SeedSequence  #: rack shuffles and the game's own draws
    noise: np.random.SeedSequence  #: the execution noise of every shot
    agent_a: np.random.SeedSequence  #: player 0's agent
    agent_b: np.random.SeedSequence  #: player 1's agent


def match_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed sequence of match ``index`` in a series seeded with ``seed``."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


def match_seeds(seed: int, index: int) -> MatchSeeds:
    """The streams of match ``index`` in a series seeded with ``seed`` (``match_seed`` split four ways)."""
    return MatchSeeds(*match_seed(seed, index).spawn(4))
