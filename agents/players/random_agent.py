"""RandomAgent: uniform random actions, the floor every other agent must clear."""

from __future__ import annotations

import numpy as np

from agents.protocol import BaseAgent, TableView
from nineball_env.actions import N_ACTION


class RandomAgent(BaseAgent):
    """Every component uniform in [-1, 1] from the agent's own seeded generator (aim, speed, spin, placement, flags)."""

    name = "random"

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        action = self.rng.uniform(-1.0, 1.0, N_ACTION).astype(np.float32)
        self.intent = None
        return action
