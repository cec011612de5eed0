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

from agents import protocol_kernels as K
from nineball_env import actions, observation
from nineball_env.kernels.codes import BALL_IN_HAND_NAMES, N_BALLS, OBS_SIZE, PHASE_NAMES, RACK_W, RackCol
from nineball_env.game import Game
from nineball_env.noise import NoiseConfig, make_noise
from nineball_env.rules import BallInHand, Phase, RackState
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, BallState, Motion, PhysicsParams, Table

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

        The observer is player 0; the opponent is player 1. ``from_observations`` of one row.
        """
        return cls.from_observations(np.asarray(obs)[None], table, params, noise, scale)[0]

    @classmethod
    def from_observations(cls, obs: np.ndarray, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                          noise: NoiseConfig | str | None = None, scale: actions.ActionScale = actions.DEFAULT_SCALE
                          ) -> list["TableView"]:
        """``from_observation`` of every row of ``obs`` (N, 54), the positions decoded and separated and the racks
        read in one compiled call (``observed``)."""
        pos, on, racks, _ = observed(obs, table, params)
        noise = make_noise(noise)
        return [cls(_balls(p, o), rack, 0, table, params, noise, scale) for p, o, rack in zip(pos, on, _racks(racks))]

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


def _balls(pos: np.ndarray, on: np.ndarray) -> BallState:
    """Balls at rest at ``pos`` (n, 2) [m] where ``on`` (n,), off the table elsewhere."""
    balls = BallState.empty(len(on))
    balls.pos[:] = pos  # 0 off the table, as ``BallState.empty``
    balls.motion[on] = int(Motion.STATIONARY)
    return balls


def _racks(rows: np.ndarray) -> list[RackState]:
    """Packed rack rows (``observed``) as ``RackState``s."""
    return [RackState(breaker=r[RackCol.BREAKER], shooter=0, on_table=frozenset(b for b in range(1, N_BALLS)
                                                                               if r[RackCol.ON_BITS] >> b & 1),
                      phase=_PHASES[r[RackCol.PHASE]], ball_in_hand=_IN_HAND[r[RackCol.IN_HAND]],
                      foul_counts=(r[RackCol.COUNT0], r[RackCol.COUNT1])) for r in rows.tolist()]


def observed(obs: np.ndarray, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What observations (N, 54) show a player who decides (player 0): ``observed_layouts``' ball centres (N, 10, 2)
    and on-table masks (N, 10), the rack states as packed rows (N, RACK_W) (``RackState.packed``, player 0 the
    shooter) and the lowest object ball on the table (N,), read in one compiled call
    (``agents.protocol_kernels.observed_rows``, as ``observation.decode`` reads one); ValueError once a rack is
    over (there is no decision to make)."""
    obs = checked_observations(obs)
    N = obs.shape[0]
    pos, on = np.empty((N, N_BALLS, 2)), np.empty((N, N_BALLS), dtype=np.bool_)
    racks, lowest = np.empty((N, RACK_W), dtype=np.int64), np.empty(N, dtype=np.int64)
    over = K.observed_rows(obs, *OBSERVED_COLUMNS, float(table.width), float(table.length), float(params.R), pos, on,
                           racks, lowest)
    if over >= 0:
        raise rack_over(over)
    return pos, on, racks, lowest


def rack_over(row: int) -> ValueError:
    """The error of an observation (row ``row`` of a batch) whose rack is over: there is no decision to make."""
    return ValueError(f"observation: the rack is over, there is no decision to make (row {row})")


_PHASES = tuple(Phase(name) for name in PHASE_NAMES)  # by PhaseCode: the observation's one-hot order
_IN_HAND = tuple(BallInHand(name) for name in BALL_IN_HAND_NAMES)


def observed_layouts(obs: np.ndarray, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Ball centres (N, 10, 2) [m] and on-table masks (N, 10) of observations (N, 54), nudged apart where the
    float32 rounding made balls overlap (touching balls end 10 nm apart): one call of the compiled
    ``agents.protocol_kernels.observed_layouts`` for all rows."""
    obs = checked_observations(obs)
    pos = np.empty((obs.shape[0], N_BALLS, 2))
    on = np.empty((obs.shape[0], N_BALLS), dtype=np.bool_)
    K.observed_layouts(obs, _POS_AT, _ON_AT, float(table.width), float(table.length), float(params.R), pos, on)
    return pos, on


def checked_observations(obs: np.ndarray) -> np.ndarray:
    """Observations as a C-contiguous float64 (N, OBS_SIZE) array, or ValueError for another shape."""
    obs = np.asarray(obs)
    if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
        raise ValueError(f"obs: expected shape (N, {OBS_SIZE}), got {obs.shape}")
    return np.ascontiguousarray(obs, dtype=np.float64)


_POS_AT = np.int64(observation.LAYOUT["pos"].start)
_ON_AT = np.int64(observation.LAYOUT["on_table"].start)
_PHASE, _HAND = observation.LAYOUT["phase"], observation.LAYOUT["in_hand"]
_FOULS_AT = np.int64(observation.LAYOUT["fouls"].start)
_BREAKER_AT = np.int64(observation.LAYOUT["breaker"].start)
#: ``protocol_kernels.observed_rows``' arguments from ``pos_at`` to ``breaker_at``: where the observation's parts are.
OBSERVED_COLUMNS = (_POS_AT, _ON_AT, _PHASE.start, np.int64(_PHASE.stop - _PHASE.start), _HAND.start,
                    np.int64(_HAND.stop - _HAND.start), _FOULS_AT, _BREAKER_AT)


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
        self._seed, self._rng = seed, None  # ``BaseAgent.seed``, not a subclass's (its parts may not exist yet)
        self.intent: str | None = None
        #: decisions taken per jump intent ("jump", "jump-pot") since the agent was made
        self.jumps: dict[str, int] = {k: 0 for k in JUMP_INTENTS}

    def seed(self, seed: int | None = None) -> None:
        """Re-seed ``rng``; the generator is made on its first use (an env re-seeds its opponent every reset, and
        deterministic agents never draw)."""
        self._seed, self._rng = seed, None

    @property
    def rng(self) -> np.random.Generator:
        """The agent's generator: ``np.random.default_rng`` of the latest seed, made when first asked for."""
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return self._rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        self._rng = rng

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
