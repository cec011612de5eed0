"""The agent protocol: ``act(observation, view=None) -> action``, and the exact view searching agents may read.

Every agent returns the env's flat action (``nineball_env.actions``, 9 numbers in [-1, 1]) for
an observation (``nineball_env.observation``). The match runner also passes a ``TableView``: a
private copy of the balls, the rack and the noise model, for agents that simulate. Without one
(as an env opponent), such agents rebuild the view from the observation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from nineball_env import actions, observation
from nineball_env.game import Game
from nineball_env.noise import NoiseConfig, make_noise
from nineball_env.rules import BallInHand, Phase, RackState
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, PhysicsParams, Table

#: What an agent meant its last decision to be (``Agent.intent``), for the pot-success statistics.
INTENTS = ("break", "pot", "safety", "push-out", "choice", "jump", "jump-pot")
#: Intents of a jump shot: over a blocking ball at the lowest ball, or a jump pot.
JUMP_INTENTS = ("jump", "jump-pot")


@dataclass(frozen=True)
class TableView:
    """A private copy of the position for one decision: what a searching agent may read and simulate.

    Attributes:
        balls: ball state (the cue ball is off the table while it is in hand); a copy, free to modify.
        rack: the rules' rack state (phase, ball in hand, lowest ball, foul counts).
        player: the deciding player in ``rack`` (0 or 1).
        table, params: the table and physics constants the game is played with.
        noise: the execution noise every shot will get.
        scale: the action scale that maps actions to shots.
    """

    balls: BallState
    rack: RackState
    player: int
    table: Table = DEFAULT_TABLE
    params: PhysicsParams = DEFAULT_PARAMS
    noise: NoiseConfig = field(default_factory=NoiseConfig)
    scale: actions.ActionScale = actions.DEFAULT_SCALE

    @classmethod
    def from_game(cls, game: Game, noise: NoiseConfig, scale: actions.ActionScale = actions.DEFAULT_SCALE
                  ) -> "TableView":
        """The view of the player to move in ``game`` (balls copied, nothing shared)."""
        if game.to_move is None:
            raise ValueError("the game is over: nobody is to move")
        return cls(game.balls.copy(), game.rack, game.to_move, game.config.table, game.config.params, noise, scale)

    @classmethod
    def from_observation(cls, obs: np.ndarray, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                         noise: NoiseConfig | str | None = None, scale: actions.ActionScale = actions.DEFAULT_SCALE
                         ) -> "TableView":
        """A view rebuilt from an observation (float32 positions, nudged apart where rounding made balls overlap).

        The observer is player 0; the opponent is player 1.
        """
        o = observation.decode(obs, table.width, table.length)
        on = np.asarray(o["on_table"], dtype=bool)
        pos = np.asarray(o["pos"], dtype=np.float64)
        balls = BallState.empty(len(on))
        for b in np.flatnonzero(on):
            balls.place(int(b), float(pos[b, 0]), float(pos[b, 1]))
        _separate(balls, params.R)
        phase = o["phase"]
        in_hand = o["in_hand"]
        if phase == "rack-over":
            raise ValueError("observation: the rack is over, there is no decision to make")
        counts = tuple(min(int(c), 2) for c in o["fouls"])  # type: ignore[union-attr]
        breaker = 0 if o["breaker"] else 1
        rack = RackState(breaker=breaker, shooter=0, on_table=frozenset(int(b) for b in range(1, 10) if on[b]),
                         phase=Phase(phase), ball_in_hand=BallInHand(in_hand), foul_counts=counts)
        return cls(balls, rack, 0, table, params, make_noise(noise), scale)

    @property
    def cue_in_hand(self) -> bool:
        """The deciding player places the cue ball before shooting."""
        return self.rack.ball_in_hand is not BallInHand.NONE

    @property
    def on(self) -> np.ndarray:
        """Boolean mask of balls 0–9 on the table."""
        return self.balls.on_table()

    @property
    def my_fouls(self) -> int:
        """The deciding player's consecutive fouls (R-THREE-FOULS)."""
        return self.rack.foul_counts[self.player]


def _separate(balls: BallState, R: float) -> None:
    """Push apart balls that overlap after float32 rounding (touching balls stay 10 nm apart)."""
    on = np.flatnonzero(balls.on_table())
    for _ in range(5):
        moved = False
        for n, i in enumerate(on):
            for j in on[n + 1:]:
                d = balls.pos[j] - balls.pos[i]
                dist = float(np.hypot(*d))
                if dist < 2.0 * R + 1e-8:
                    u = d / dist if dist > 0 else np.array([1.0, 0.0])
                    push = (2.0 * R + 1e-8 - dist) / 2.0
                    balls.pos[i] -= u * push
                    balls.pos[j] += u * push
                    moved = True
        if not moved:
            return


@runtime_checkable
class Agent(Protocol):
    """What every nineball agent provides (the env also accepts it as an opponent)."""

    name: str

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        """The action (9 floats in [-1, 1]) for this player's decision."""
        ...

    def seed(self, seed: int | None = None) -> None:
        """Re-seed the agent's own generator (a no-op for deterministic agents)."""
        ...


class BaseAgent:
    """Shared plumbing: a name, a seeded generator, and ``intent`` (what the last decision was meant to be)."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.intent: str | None = None
        #: decisions taken per jump intent ("jump", "jump-pot") since the agent was made
        self.jumps: dict[str, int] = {k: 0 for k in JUMP_INTENTS}

    def seed(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, info: object = None) -> np.ndarray:
        """The env's callable-opponent form."""
        return self.act(obs)

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError


class ViewAgent(BaseAgent):
    """An agent that decides from a ``TableView``; rebuilt from the observation (with its config's
    ``assumed_noise``) when it plays as an env opponent and gets no view."""

    config: Any

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        view = view or TableView.from_observation(observation, noise=self.config.assumed_noise)
        return self.decide(view)

    def decide(self, view: TableView) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError
