"""NineBallVectorEnv: ``num_envs`` NineBall-v0 tables stepped together with the batch physics kernel.

A ``gymnasium.vector.VectorEnv`` with the single-agent semantics of ``NineBall-v0`` (one learner
decision per step, the opponent's decisions inside the step, the same spaces, rewards, infos and
the 200-decision time limit). In ``step`` every table's learner shot is simulated by ONE
``physics.simulate_batch`` call; then the opponents' decisions run in rounds — every table whose
opponent is to move decides, and their shots are batch-simulated together — until each table
awaits the learner or is over. Resets (and the autoreset of finished tables) deal and play the
opponent's break the same way.

Autoreset mode: ``NEXT_STEP`` (``metadata["autoreset_mode"]``): the step after a table terminates or
truncates resets it (its action is ignored, reward 0, terminated/truncated False, the reset's info).
``reset(options={"reset_mask": mask})`` resets only the masked tables.

Seeding: ``reset(seed=s)`` seeds table k with ``s + k`` (a list seeds table by table), exactly as
``SyncVectorEnv`` seeds its sub-envs; each table owns its generator (rack shuffle, breaker,
execution noise), so table k replays ``gymnasium.make("NineBall-v0")`` reset with seed ``s + k``
and given the same actions, noise included (the batch kernel is bit-identical to ``physics.simulate``).

Implementation: each table is an unwrapped ``NineBallEnv`` (its ``_decide`` and ``_info`` are
reused). A decision goes through ``Game.prepare`` (checks, cue-ball placement: the shot and its
start state), the prepared shots of all tables through one ``physics.simulate_batch_packed`` call,
their logs through one ``shot_facts.summarize_logs`` call, and each table's summary through
``Game.finish_summary`` (rules, apply) — the path ``Game.apply`` takes for a single env, run once
per decision (a capped shot or a truncated log goes through ``Game.finish`` with its full result). Observations are encoded for all tables at once and
infos batched key by key (as ``VectorEnv._add_info`` would, table by table).
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import physics
from physics import BallState
from nineball_env import actions, observation, opponents, rewards, shot_facts
from nineball_env.env import LEARNER, MAX_OPPONENT_DECISIONS, MAX_REDEALS, OPPONENT, NineBallEnv
from nineball_env.game import Game, Outcome, PreparedShot
from nineball_env.noise import perturb_rows
from nineball_env.rules import Phase

DEFAULT_MAX_EPISODE_STEPS = 200  # NineBall-v0's registration (read from the registry when available)


def _registered_max_steps() -> int:
    try:
        steps = gym.spec("NineBall-v0").max_episode_steps
    except Exception:  # noqa: BLE001 - not registered: fall back to the documented limit
        steps = None
    return int(steps) if steps else DEFAULT_MAX_EPISODE_STEPS


class NineBallVectorEnv(VectorEnv):
    """``num_envs`` NineBall-v0 tables in one process, shots simulated in batches (see the module docstring).

    Args:
        num_envs: number of tables.
        max_episode_steps: learner decisions before truncation (default: NineBall-v0's registration, 200).
        threads: numba threads for ``physics.simulate_batch`` (None: numba's default).
        log_capacity: events kept per table in the batch log (longer logs are re-simulated alone).
        **env_kwargs: ``NineBallEnv`` keyword arguments (``opponent``, ``match_race``, ``noise``, ...)
            applied to every table. An ``opponent`` with ``seed()`` is deep-copied per table (each is
            re-seeded from its table's generator); any other opponent object is shared, and one with
            ``act_batch`` (the default ``AimingPolicy``) or an SB3 model decides for all its tables in one call.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, *, max_episode_steps: int | None = None, threads: int | None = None,
                 log_capacity: int = 256, **env_kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs: expected a whole number >= 1, got {num_envs!r}")
        if env_kwargs.get("render_mode") is not None:
            raise ValueError("render_mode: NineBallVectorEnv does not render; use NineBallEnv for that")
        env_kwargs.pop("render_mode", None)
        self.num_envs = int(num_envs)
        self.max_episode_steps = int(max_episode_steps) if max_episode_steps is not None else _registered_max_steps()
        if self.max_episode_steps < 1:
            raise ValueError(f"max_episode_steps: expected >= 1, got {max_episode_steps!r}")
        self.threads = threads
        self.log_capacity = int(log_capacity)
        opp = env_kwargs.pop("opponent", None)
        per_table = opp is not None and callable(getattr(opp, "seed", None))
        self.envs: list[NineBallEnv] = [
            NineBallEnv(opponent=copy.deepcopy(opp) if per_table else opp, **env_kwargs) for _ in range(self.num_envs)]
        self.config = self.envs[0].config
        if opp is None:  # the default AimingPolicy has no state: one for every table, so it decides in one batch
            for env in self.envs[1:]:
                env.opponent = self.envs[0].opponent
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._elapsed = np.zeros(self.num_envs, dtype=np.int64)
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._started = False

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        seeds = self._seeds(seed)
        mask = None if not options or "reset_mask" not in options else np.asarray(options["reset_mask"])
        if mask is not None:
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"reset_mask: expected a boolean array of shape ({self.num_envs},), got {mask!r}")
            if not self._started and not mask.all():
                raise RuntimeError("the first reset() must reset every table")
        ks = list(range(self.num_envs)) if mask is None else np.flatnonzero(mask).tolist()
        for k in ks:
            gym.Env.reset(self.envs[k], seed=seeds[k])
        infos = self._reset_tables(ks, {})
        self._started = True
        obs = self._observations()
        return obs, self._batch_infos([infos[k] for k in ks], ks)

    def step(self, actions_in):
        acts = self._check_actions(actions_in)  # ValueError, nothing changed
        if not self._started:
            raise RuntimeError("call reset() before step()")
        saved = [(env._game, env._game.snapshot()) for env in self.envs]
        saved_counters = (self._elapsed.copy(), self._autoreset.copy())
        resetting = np.flatnonzero(self._autoreset).tolist()
        stepping = np.flatnonzero(~self._autoreset).tolist()
        try:
            mine = self._apply_batch(self._decisions(stepping, LEARNER, acts[stepping]))
            infos = self._reset_tables(resetting, {}, stepping)
            theirs = self._last_theirs
        except BaseException:
            for env, (game, snap) in zip(self.envs, saved):
                env._game = game
                game.restore(snap)
            self._elapsed, self._autoreset = saved_counters
            raise
        B = self.num_envs
        reward = np.zeros(B, dtype=np.float64)
        terminated = np.zeros(B, dtype=bool)
        truncated = np.zeros(B, dtype=bool)
        for k in stepping:
            env = self.envs[k]
            parts = rewards.reward_parts([mine[k], *theirs[k]], LEARNER, env.shaping)
            reward[k] = float(sum(parts.values()))
            terminated[k] = env._game.over
            self._elapsed[k] += 1
            truncated[k] = self._elapsed[k] >= self.max_episode_steps
            infos[k] = env._info(mine[k], theirs[k], parts, 0)
        self._autoreset = terminated | truncated
        return self._observations(), reward, terminated, truncated, self._batch_infos([infos[k] for k in range(B)],
                                                                                      list(range(B)))

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()

    # -- internals --------------------------------------------------------------------------------

    def _seeds(self, seed) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return [int(seed) + k for k in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed: expected an int, None or {self.num_envs} seeds, got {len(seeds)}")
        return seeds

    def _check_actions(self, actions_in) -> np.ndarray:
        try:
            arr = np.asarray(actions_in, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"actions: expected ({self.num_envs}, {actions.N_ACTION}) numbers in [-1, 1]") from None
        if arr.shape != (self.num_envs, actions.N_ACTION):
            raise ValueError(f"actions: expected shape ({self.num_envs}, {actions.N_ACTION}), got {arr.shape}")
        if not (-1.0 <= arr.min() and arr.max() <= 1.0):  # NaN fails it too
            for k in range(self.num_envs):
                try:
                    actions.check_action(arr[k])
                except ValueError as err:
                    raise ValueError(f"actions[{k}]: {err}") from None
        return arr

    def _observations(self, ks: Sequence[int] | None = None, player: int = LEARNER) -> np.ndarray:
        """``observation.encode`` for ``player`` on tables ``ks`` (default: all), (len(ks), 54) float32."""
        t = self.config.table
        return encode_batch([self.envs[k]._game for k in (range(self.num_envs) if ks is None else ks)], player,
                            t.width, t.length)

    def _batch_infos(self, infos: list[dict[str, Any]], ks: list[int]) -> dict[str, Any]:
        """``infos[i]`` of table ``ks[i]`` batched as ``VectorEnv._add_info`` does table by table (same arrays,
        dtypes, ``_key`` masks and key order), key by key; infos whose keys differ go through ``_add_info``."""
        if not ks:
            return {}
        keys = infos[0].keys()
        if any(info.keys() != keys for info in infos) or "final_obs" in keys:
            vec: dict[str, Any] = {}
            for k, info in zip(ks, infos):
                vec = self._add_info(vec, info, k)
            return vec
        B, out = self.num_envs, {}
        for key, first in infos[0].items():
            values = [info[key] for info in infos]
            if isinstance(first, dict):
                array = self._batch_infos(values, ks)
            elif type(first) in (int, float, bool) or issubclass(type(first), np.number):
                array = np.zeros(B, dtype=type(first))
                for k, v in zip(ks, values):
                    array[k] = v
            elif isinstance(first, np.ndarray):
                array = np.zeros((B, *first.shape), dtype=first.dtype)
                for k, v in zip(ks, values):
                    array[k] = v
            else:
                array = np.full(B, fill_value=None, dtype=object)
                for k, v in zip(ks, values):
                    array[k] = v
            mask = np.zeros(B, dtype=np.bool_)
            mask[ks] = True
            out[key], out[f"_{key}"] = array, mask
        return out

    def _deal(self, k: int) -> None:
        env = self.envs[k]
        breaker = {"learner": LEARNER, "opponent": OPPONENT}.get(env.first_breaker)
        if breaker is None:
            breaker = int(env.np_random.integers(2))
        env._game = Game(env.config, env.np_random, breaker)

    def _reset_tables(self, ks: list[int], infos: dict[int, dict], stepping: Sequence[int] = ()) -> dict[int, dict]:
        """Deal tables ``ks`` (their generators already seeded) and play every opponent decision due on
        tables ``ks`` and ``stepping`` together; redeal the deals the opponent wins outright (as NineBallEnv).
        Leaves the opponent outcomes of ``stepping`` in ``self._last_theirs``; returns the reset infos."""
        for k in ks:
            opponents.reseed(self.envs[k].opponent, self.envs[k].np_random)
            self._deal(k)
        theirs = self._opponent_turns(list(stepping) + list(ks))
        redeals = dict.fromkeys(ks, 0)
        redo = [k for k in ks if self.envs[k]._game.over]
        while redo:
            for k in redo:
                redeals[k] += 1
                if redeals[k] > MAX_REDEALS:
                    raise RuntimeError(f"the opponent won {redeals[k]} deals before the learner's first decision")
                self._deal(k)
            theirs.update(self._opponent_turns(redo))
            redo = [k for k in redo if self.envs[k]._game.over]
        zero = dict.fromkeys(rewards.REWARD_PARTS, 0.0)
        for k in ks:
            infos[k] = self.envs[k]._info(None, theirs[k], dict(zero), redeals[k])
            self._elapsed[k] = 0
            self._autoreset[k] = False
        self._last_theirs = theirs
        return infos

    def _opponent_turns(self, ks: list[int]) -> dict[int, list[Outcome]]:
        """The opponents' decisions on tables ``ks``, in rounds batch-simulated together, until each table
        awaits the learner or is over."""
        done: dict[int, list[Outcome]] = {k: [] for k in ks}
        active = [k for k in ks if self.envs[k]._game.to_move == OPPONENT]
        while active:
            seen = self._observations(active, OPPONENT)
            groups: dict[int, list[int]] = {}  # rows of ``active`` by opponent object: one batched query each
            for i, k in enumerate(active):
                if len(done[k]) >= MAX_OPPONENT_DECISIONS:
                    raise RuntimeError(f"the opponent made {MAX_OPPONENT_DECISIONS} decisions in a row")
                groups.setdefault(id(self.envs[k].opponent), []).append(i)
            acts = np.empty((len(active), actions.N_ACTION))
            for rows in groups.values():
                infos = []
                for i in rows:
                    rack = self.envs[active[i]]._game.rack
                    infos.append({"player": OPPONENT, "phase": str(rack.phase), "ball_in_hand": str(rack.ball_in_hand)})
                acts[rows] = opponents.query_batch(self.envs[active[rows[0]]].opponent, seen[rows], infos)
            moves = self._decisions(active, OPPONENT, acts)
            for k, outcome in self._apply_batch(moves).items():
                done[k].append(outcome)
            active = [k for k in active if self.envs[k]._game.to_move == OPPONENT]
        return done

    def _decisions(self, ks: list[int], player: int, acts: np.ndarray) -> list[tuple[int, int, actions.Decision]]:
        """What the checked actions ``acts`` (one row per table of ``ks``) mean for ``player``, execution noise
        included: ``NineBallEnv._decide`` table by table, with the shot decoding and noise done on all rows at
        once (the same floats; each table draws its noise from its own generator, in the same order)."""
        env0 = self.envs[0]
        rows = actions.shot_rows(acts, env0.scale)
        choice = [self.envs[k]._game.rack.phase is Phase.PUSH_OUT_CHOICE for k in ks]
        if not env0.noise.silent:
            errors = np.zeros((len(ks), 5))
            for i, k in enumerate(ks):
                if not choice[i]:
                    errors[i] = self.envs[k].np_random.standard_normal(5)
            rows = perturb_rows(rows, errors, env0.noise, self.config.params)
        return [(k, player, self.envs[k]._game.decode(acts[i], env0.scale, None if choice[i] else physics.Shot._trusted(*row)))
                for i, (k, row) in enumerate(zip(ks, rows.tolist()))]  # rows: decoded in range, noise clipped

    def _apply_batch(self, moves: list[tuple[int, int, actions.Decision]]) -> dict[int, Outcome]:
        """Apply one decision per table (``Game.prepare`` → one ``physics.simulate_batch_packed`` call for all
        the shots → ``Game.finish``)."""
        out: dict[int, Outcome] = {}
        shots: list[tuple[int, PreparedShot]] = []
        for k, player, decision in moves:
            game = self.envs[k]._game
            prepared = game.prepare(player, decision)
            if prepared.shot is None:  # the push-out choice: nothing to simulate
                out[k] = game.finish(prepared, None)
            else:
                shots.append((k, prepared))
        if shots:
            cfg = self.config
            states = np.stack([p.start.packed() for _, p in shots])
            rows = np.array([(s.V0, s.phi, s.theta, s.a, s.b) for s in (p.shot for _, p in shots)], dtype=np.float64)
            batch = physics.simulate_batch_packed(states, rows, cfg.table, cfg.params, max_events=cfg.max_events,
                                                  max_time=cfg.max_time, log_capacity=self.log_capacity,
                                                  threads=self.threads)
            facts = shot_facts.summarize_logs(batch.logs, batch.n_events)
            whole = (batch.n_events <= batch.logs.shape[1]) & ~batch.hit_event_cap & ~batch.hit_time_cap
            for i, (k, prepared) in enumerate(shots):
                game = self.envs[k]._game
                if whole[i]:  # the usual case: the log is complete and the balls are at rest
                    out[k] = game.finish_summary(prepared, BallState.from_packed(batch.states[i]), facts.summary(i),
                                                 int(batch.n_events[i]))
                else:  # a truncated log or a capped shot: the full result, continued to rest
                    out[k] = game.finish(prepared, batch.result(i))
        return out


_PHASE_INDEX = {p: 39 + i for i, p in enumerate(observation.PHASES)}
_IN_HAND_INDEX = {b: 43 + i for i, b in enumerate(observation.IN_HAND)}


def encode_batch(games: Sequence[Game], player: int, width: float, length: float) -> np.ndarray:
    """``observation.encode`` of ``player`` for every game at once, (len(games), 54) float32, bit for bit
    (the same float64 products, cast once)."""
    n = len(games)
    obs = np.zeros((n, observation.OBS_SIZE))
    if n == 0:
        return obs.astype(np.float32)
    balls = [g.balls for g in games]
    on = np.stack([b.motion for b in balls]) <= int(physics.Motion.ROLLING)  # BallState.on_table()
    pos = np.stack([b.pos for b in balls]).astype(np.float64, copy=False) * np.array([1.0 / width, 1.0 / length])
    pos[~on] = 0.0
    obs[:, 0:20] = pos.reshape(n, 20)
    obs[:, 20:30] = on
    other = 1 - player
    rows, cols = [], []  # the one-hot / flag entries set to 1
    for i, g in enumerate(games):
        rack, match = g.rack, g.match
        if rack.phase is not Phase.RACK_OVER:
            rows += (i, i)
            cols += (29 + min(rack.on_table), _PHASE_INDEX[rack.phase])
            if rack.shooter == player:
                rows.append(i)
                cols.append(52)
        rows.append(i)
        cols.append(_IN_HAND_INDEX[rack.ball_in_hand])
        mine, theirs = rack.foul_counts[player], rack.foul_counts[other]
        row = obs[i]
        if mine or theirs:
            row[46] = min(mine, 2) * 0.5
            row[47] = min(theirs, 2) * 0.5
            row[48] = float(mine == 2)
            row[49] = float(theirs == 2)
        if match.race_to > 1:
            row[50] = match.racks_won[player] / match.race_to
            row[51] = match.racks_won[other] / match.race_to
        if rack.breaker == player:
            rows.append(i)
            cols.append(53)
    obs[rows, cols] = 1.0
    return obs.astype(np.float32)


__all__ = ["NineBallVectorEnv", "encode_batch"]
