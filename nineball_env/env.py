"""NineBall-v0: one learner against an opponent policy, one decision of the learner per step."""

from __future__ import annotations

import copy
from typing import Any, Mapping

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gymnasium.utils import seeding

from nineball_env import actions, observation, opponents, rewards, turns
from nineball_env.aiming import AimingPolicy
from nineball_env.game import Game, GameConfig, GameSnapshot, TableBatch
from nineball_env.turns import Seats
from nineball_env.noise import NoiseConfig, make_noise
from nineball_env.render import RENDER_MODES, GameScreen, check_render_mode
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Table

class GameEnv:
    """What NineBall-v0 and the AEC env share: a game configured from their keyword arguments, dealt on
    ``reset``, rendered, and its state saved and restored for search agents."""

    PLAYERS: tuple[str, str]  # the names of players 0 and 1 (``first_breaker`` is one of them or "random")

    def _configure(self, render_mode: str | None, first_breaker: str, match_race: int | None, break_order: str,
                   noise: str | Mapping[str, float] | NoiseConfig | None, strict_placement: bool,
                   action_scale: actions.ActionScale | None, table: Table | None, params: PhysicsParams | None) -> None:
        check_render_mode(render_mode)
        if first_breaker not in (*self.PLAYERS, "random"):
            raise ValueError(f"first_breaker: expected one of {(*self.PLAYERS, 'random')}, got {first_breaker!r}")
        if match_race is not None and (isinstance(match_race, bool) or not isinstance(match_race, int) or match_race < 1):
            raise ValueError(f"match_race: expected None (one rack) or a whole number >= 1, got {match_race!r}")
        self.first_breaker = first_breaker
        self.config = GameConfig(table=table or DEFAULT_TABLE, params=params or DEFAULT_PARAMS, race_to=match_race or 1,
                                 break_order=break_order, strict_placement=bool(strict_placement))
        self.noise = make_noise(noise)
        self.scale = action_scale or actions.DEFAULT_SCALE
        self.render_mode = render_mode
        self._game: Game | None = None
        self._screen = GameScreen(render_mode, self.config.table, self.config.params) if render_mode else None

    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            gym.logger.warn('render() called without a render_mode: pass render_mode="rgb_array" or "human"')
            return None
        return self._screen.render(self._require_game())  # type: ignore[union-attr]

    def close(self) -> None:
        if self._screen is not None:
            self._screen.close()

    def get_state(self) -> GameSnapshot:
        """A snapshot of the game (balls, rack, match and the env's generator) to come back to with ``set_state``.
        The opponent is not part of it (the default opponent has no state); ``clone()`` copies everything."""
        return self._require_game().snapshot()

    def set_state(self, state: GameSnapshot) -> None:
        """Return to a snapshot taken with ``get_state`` on an env with the same configuration."""
        if not isinstance(state, GameSnapshot):
            raise ValueError(f"state: expected a snapshot from get_state(), got {type(state).__name__}")
        self._require_game().restore(state)

    def breaker_code(self) -> int:
        """``first_breaker`` as the turn reads it: the player's index, or -1 for "random"."""
        return -1 if self.first_breaker == "random" else self.PLAYERS.index(self.first_breaker)

    def draw_breaker(self) -> int:
        """The first breaker of a new deal (``first_breaker``; "random" draws from ``self.np_random``)."""
        code = self.breaker_code()
        return int(self.np_random.integers(2)) if code < 0 else code

    def clone(self) -> "GameEnv":
        """An independent deep copy of the env (game, generator and opponent), without a render window."""
        return copy.deepcopy(self)

    def _require_game(self) -> Game:
        if self._game is None:
            raise RuntimeError("call reset() before step(), render() or get_state()")
        return self._game


class NineBallEnv(GameEnv, gym.Env):
    """Nine-ball against an opponent policy: every decision a player makes is an action.

    ## Description
    A rack (or a race-to-N match) of nine-ball (docs/rules.md) on a 9-ft table with event-based
    physics. The learner is player 0; the opponent's decisions run inside ``step``, and the rules
    decide who acts next (a player who pockets legally shoots again). One step is one decision of
    the learner: a shot — with the cue-ball placement when it has ball in hand (in the kitchen on the
    break, anywhere after a foul) and the push-out declaration when one is allowed — or, after
    the opponent's legal push-out, the choice to shoot or pass the shot back.

    ## Action Space
    ``Box(-1, 1, (9,), float32)``, the same in every phase: aim, speed, side and vertical tip offset,
    elevation, the cue-ball placement and the push-out and pass-back flags, each component with its
    range and the phase that reads it in ``nineball_env.actions`` (the others are ignored);
    ``shot_to_action`` / ``action_to_shot`` there convert readable shots. An action outside the space,
    NaN or infinite raises ``ValueError`` and changes nothing. A placement that touches a ball, a pocket
    or lies outside the region moves to the nearest legal spot (``info["placement_adjusted"]``), or
    raises with ``strict_placement=True``.

    ## Observation Space
    ``Box(0, 1, (54,), float32)``, from the learner's point of view: ball positions and which balls
    are on the table, the lowest ball, the phase, ball in hand, foul counts and warnings, the score,
    who is to move and who broke (the slices in ``nineball_env.observation``).

    ## Rewards
    +1 when the learner wins a rack, −1 when it loses one (by the 9, three fouls), 0 otherwise.
    Shaping terms (``reward_shaping``: ``pot``, ``foul``, ``opponent_pot``, ``opponent_foul``, per
    event) are off by default. ``info["reward_parts"]`` splits every reward.

    ## Starting State
    A tight rack (1 on the foot spot, 9 in the centre, the rest shuffled by the env's generator),
    the cue ball in the breaker's hand in the kitchen. The first breaker is chosen by
    ``first_breaker``; when the opponent breaks, its decisions run in ``reset``. A deal in which the
    opponent wins before the learner's first decision is dealt again (``info["redeals"]``).

    ## Episode End
    Terminated when the rack (``match_race=None``) or the match is decided. Truncated by the
    time limit of ``gymnasium.make("NineBall-v0")`` (200 learner decisions). In a process that
    has not imported ``nineball_env`` (e.g. SB3's ``SubprocVecEnv`` workers) use the id
    ``"nineball_env:NineBall-v0"``, which imports it first.

    ## Information
    Every step's ``info`` has the same keys: ``ruling`` (``declaration``, ``foul``, ``fouls`` and
    ``cited`` rule IDs, ``text``), ``pocketed``, ``placement`` ((nan, nan) without ball in hand),
    ``placement_adjusted``, ``n_events``, ``voided``, ``opponent`` (``decisions``, ``fouls``, ``pocketed``,
    ``rulings``), ``phase``, ``ball_in_hand``, ``foul_counts``, ``score``, ``racks`` (winners of the
    racks that ended in the step), ``redeals`` and ``reward_parts``.

    ## Arguments
    * ``opponent``: agent with ``act(obs)``, SB3-style model with ``predict(obs)``, or callable
      ``(obs, info) -> action`` (``nineball_env.opponents``); default ``AimingPolicy()``.
    * ``match_race``: None for one rack, or N for a race to N racks.
    * ``first_breaker``: "learner", "opponent" or "random" (seeded). ``break_order``: "alternate"/"winner".
    * ``noise``: "none", "icga", a dict of sigmas (phi, V0, theta [deg, m/s], a, b [m]) or a ``NoiseConfig``.
    * ``reward_shaping``: dict of shaping weights (see Rewards). ``strict_placement``: raise on illegal placements.
    * ``render_mode``: None, "rgb_array" or "human" (needs pygame). ``table``, ``params``, ``action_scale``.

    ## Version History
    * v0: initial version.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}
    PLAYERS = ("learner", "opponent")

    def __init__(self, render_mode: str | None = None, *, opponent: opponents.Opponent | None = None,
                 match_race: int | None = None, first_breaker: str = "random", break_order: str = "alternate",
                 noise: str | Mapping[str, float] | NoiseConfig | None = "none",
                 reward_shaping: Mapping[str, float] | rewards.RewardShaping | None = None,
                 strict_placement: bool = False, action_scale: actions.ActionScale | None = None,
                 table: Table | None = None, params: PhysicsParams | None = None) -> None:
        self._configure(render_mode, first_breaker, match_race, break_order, noise, strict_placement, action_scale,
                        table, params)
        self.shaping = rewards.make_shaping(reward_shaping)
        opponent = opponents.check_opponent(
            opponent if opponent is not None else AimingPolicy(self.config.table, self.config.params))
        self.action_space = spaces.Box(-1.0, 1.0, (actions.N_ACTION,), np.float32)
        self.observation_space = observation.observation_space()
        self._seats = Seats.of([opponent], self.config, self.breaker_code())
        self._tables = batch_of(self.config, [seeding.np_random()[0]], self.noise, self.scale, self.shaping,
                                self._seats)

    # -- the generator: the table's own (``TableBatch.rngs``), which Gymnasium's ``reset(seed=...)`` replaces --------

    @property
    def _np_random(self) -> np.random.Generator:  # gymnasium.Env's attribute, here the table's generator itself
        return self._tables.rngs[0]

    @_np_random.setter
    def _np_random(self, rng: np.random.Generator | None) -> None:
        if rng is not None:  # (gymnasium.Env's class default)
            self._tables.set_rng(0, rng)

    @property
    def opponent(self) -> opponents.Opponent:
        """The opponent (assign another to change it: it plays from the next decision on)."""
        return self._seats.opponents[0]

    @opponent.setter
    def opponent(self, opponent: opponents.Opponent) -> None:
        self._seats = Seats.of([opponents.check_opponent(opponent)], self.config, self.breaker_code())
        self._tables = batch_of(self.config, list(self._tables.rngs), self.noise, self.scale, self.shaping,
                                self._seats, self._tables)
        if self._game is not None:
            self._game = Game.view(self._tables)

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        tables = self._tables
        turns.step(tables, self._seats, _NONE, None, _TABLE0)
        if self._game is None:
            self._game = Game.view(tables)
        info = turns.infos(tables, _LONE, _RESET)[0]
        if self.render_mode == "human":
            self.render()
        return tables.obs[0].copy(), info

    def step(self, action):
        act = actions.check_action(action)  # validate: ValueError, nothing changed
        tables = self._require_game().tables
        if tables.done[0]:
            raise RuntimeError("the episode is over: call reset()")
        turns.step(tables, self._seats, _TABLE0, act[None])  # a rejected action changes nothing
        info = turns.infos(tables, _LONE, _STEPPED)[0]
        if self.render_mode == "human":
            self.render()
        return tables.obs[0].copy(), float(sum(info["reward_parts"].values())), bool(tables.done[0]), False, info


def batch_of(config: GameConfig, rngs: list[np.random.Generator], noise: NoiseConfig, scale: actions.ActionScale,
             shaping: rewards.RewardShaping, seats: Seats, old: TableBatch | None = None, **kwargs: Any) -> TableBatch:
    """The tables of an env: its configuration, the seats' compiled opponent (if any) and the reward shaping set in
    the compiled turn; ``old`` (the same number of tables) hands over its tables' state."""
    compiled = [k for k in range(len(seats.opponents)) if seats.kinds[k, turns.OPPONENT] == turns.Seat.AIMING]
    aiming = turns.aiming_parameters(seats.opponents[compiled[0]]) if compiled else None
    if compiled and any(turns.aiming_parameters(seats.opponents[k])[1] != aiming[1] for k in compiled):
        for k in compiled:  # aiming policies that break differently: asked as Python opponents
            seats.set_kind(k, turns.Seat.EXTERNAL)
        aiming = None
    tables = TableBatch(config, rngs, noise, scale, shaping=(shaping.pot, shaping.foul, shaping.opponent_pot,
                                                             shaping.opponent_foul),
                        first_breaker=seats.first_breaker, aiming=aiming, **kwargs)
    if old is not None:
        tables.balls[:], tables.rack[:], tables.won[:], tables.next_breaker[:], tables.done[:] = (
            old.balls, old.rack, old.won, old.next_breaker, old.done)
        for k in range(len(rngs)):
            tables.set_last(k, old.last(k))
    return tables


_TABLE0 = np.zeros(1, dtype=np.int64)
_LONE, _RESET, _STEPPED = [0], [False], [True]  # ``turns.infos``' arguments for the lone table
_NONE = np.zeros(0, dtype=np.int64)
