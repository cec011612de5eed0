"""NineBallVectorEnv: ``num_envs`` NineBall-v0 tables stepped together, their games held as arrays.

A ``gymnasium.vector.VectorEnv`` with the single-agent semantics of ``NineBall-v0`` (the same spaces, rewards and
time limit); ``gymnasium.make_vec("NineBall-v0")`` builds it. The tables are one ``game.TableBatch`` and a step is
``turns.step`` on all of them: one call of the compiled turn plays every table's decisions, the default opponent's
included, the tables spread over threads; a Python opponent is asked once per round for all its tables
(an SB3 model's ``predict`` on the stacked observations).

Infos are arrays, one row per table, read off the turn's records with no Python per table (``step_infos``);
``table_info(k)`` gives table k's latest info in NineBall-v0's readable form (ruling texts included), on request.
A caller that reads ``table_info`` alone (the stable-baselines3 adapter, ``sb3_vec``) sets ``array_infos = False``:
steps and resets then return no infos of the env's own (``{}`` every time; a wrapper's keys still come).

Autoreset mode (``metadata["autoreset_mode"]``, chosen with ``autoreset_mode=``): ``NEXT_STEP`` (the default): the
step after a table terminates or truncates resets it (its action is ignored, reward 0, terminated/truncated False,
the reset's info). ``SAME_STEP``: the step that ends a table's episode deals its new rack and plays its opening
decisions in the same rounds as the other tables' (one batched opponent query per round for all of them, not a
reset round of its own); the table's observation and info are its new rack's, the final ones are in
``infos["final_obs"]`` (an object array, None for the others) and ``infos["final_info"]`` (arrays like the infos),
masked by ``_final_obs`` / ``_final_info``; ``final_table_info(k)`` gives one in NineBall-v0's form. Either way table
k plays the same racks and decisions. ``reset(options={"reset_mask": mask})`` resets only the masked tables.

Seeding: ``reset(seed=s)`` seeds table k with ``s + k`` (a list seeds table by table), as ``SyncVectorEnv``
seeds its sub-envs; each table owns its generator, so table k replays ``gymnasium.make("NineBall-v0")``
reset with seed ``s + k`` and given the same actions, noise included.
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from nineball_env import actions, opponents, rewards, turns
from nineball_env.env import NineBallEnv, batch_of
from nineball_env.kernels.codes import (
    BALL_IN_HAND_NAMES, DECLARATIONS, MAX_CITED, N_BALLS, PHASE_NAMES, PhaseCode, RecF, RecI, Seat,
)
from nineball_env.kernels.codes import RackCol as C
from nineball_env.turns import LEARNER, Seats

_DECLARATION_WORDS = np.array(["", *(str(d) for d in DECLARATIONS)], dtype=object)  # code + 1 -> word ("" for none)
_PHASE_WORDS = np.array(PHASE_NAMES, dtype=object)
_IN_HAND_WORDS = np.array(BALL_IN_HAND_NAMES, dtype=object)


class TableSeat:
    """What table k of a vector env has of its own (its opponent and generator), and the env's settings (``scale``,
    ``noise``, ``shaping``, ``config``, ...) read through: the small record that stands where a whole
    ``NineBallEnv`` per table used to (``NineBallVectorEnv.seats``)."""

    __slots__ = ("_venv", "_k")

    def __init__(self, venv: "NineBallVectorEnv", k: int) -> None:
        self._venv, self._k = venv, k

    @property
    def opponent(self) -> Any:
        return self._venv._seats.opponents[self._k]

    @opponent.setter
    def opponent(self, opponent: Any) -> None:
        self._venv.set_opponent(self._k, opponent)

    @property
    def np_random(self) -> np.random.Generator:
        return self._venv.tables.rngs[self._k]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._venv, name)


class NineBallVectorEnv(VectorEnv):
    """``num_envs`` NineBall-v0 tables in one process, played by the compiled turn (see the module docstring).

    Args:
        num_envs: number of tables.
        max_episode_steps: learner decisions before truncation (default: NineBall-v0's registration, 200).
        threads: threads the compiled turn runs on, each taking the next table as it gets free (None: one per CPU
            numba uses, ``NUMBA_NUM_THREADS``).
        log_capacity: events kept per table in a shot's log (a longer shot is simulated again with room).
        autoreset_mode: ``AutoresetMode.NEXT_STEP`` (default) or ``SAME_STEP``, or their values "NextStep",
            "SameStep" (see the module docstring).
        **env_kwargs: ``NineBallEnv`` keyword arguments (``opponent``, ``match_race``, ``noise``, ...)
            applied to every table. An ``opponent`` with ``act_batch`` is shared and decides for all its tables
            in one call (re-seeded, if it has ``seed()``, from each table's generator as that table deals); any
            other one with ``seed()`` is deep-copied per table (each re-seeded from its table's generator); any
            other opponent object is shared, and an SB3 model decides for all its tables in one call. The default opponent
            (``AimingPolicy``) decides inside the compiled turn.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int, *, max_episode_steps: int | None = None, threads: int | None = None,
                 log_capacity: int = 256, autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 **env_kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs: expected a whole number >= 1, got {num_envs!r}")
        if env_kwargs.pop("render_mode", None) is not None:
            raise ValueError("render_mode: NineBallVectorEnv does not render; use NineBallEnv for that")
        self.num_envs = int(num_envs)
        self.metadata = dict(type(self).metadata, autoreset_mode=_autoreset_mode(autoreset_mode))
        self.max_episode_steps = int(gym.spec("NineBall-v0").max_episode_steps if max_episode_steps is None
                                     else max_episode_steps)
        if self.max_episode_steps < 1:
            raise ValueError(f"max_episode_steps: expected >= 1, got {max_episode_steps!r}")
        opp = env_kwargs.pop("opponent", None)
        template = NineBallEnv(opponent=opp, **env_kwargs)  # checks the arguments; its settings serve every table
        self.config, self.noise, self.scale, self.shaping = (template.config, template.noise, template.scale,
                                                             template.shaping)
        self.first_breaker = template.first_breaker
        per_table = (opp is not None and callable(getattr(opp, "seed", None))
                     and not callable(getattr(opp, "act_batch", None)))  # a batched opponent serves every table
        shared = template.opponent  # the default AimingPolicy has no state: one for every table
        self._seats = Seats.of([copy.deepcopy(opp) if per_table else shared for _ in range(self.num_envs)],
                               self.config, template.breaker_code())
        self.tables = batch_of(self.config, [seeding.np_random()[0] for _ in range(self.num_envs)], self.noise,
                               self.scale, self.shaping, self._seats, log_capacity=int(log_capacity), threads=threads)
        self.seats = [TableSeat(self, k) for k in range(self.num_envs)]
        self.single_observation_space = template.observation_space
        self.single_action_space = template.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._elapsed = np.zeros(self.num_envs, dtype=np.int64)
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._stepped = np.zeros(self.num_envs, dtype=bool)  # the table's latest records start with the learner's
        self._started = False
        self._finals: turns.Finals | None = None  # where the tables that ended in the latest step stood (SAME_STEP)
        self._all = np.arange(self.num_envs)
        self._all_list = self._all.tolist()
        self.array_infos = True  # steps and resets return ``step_infos`` (False: ``{}``; see the module docstring)

    @property
    def envs(self) -> list[TableSeat]:
        """The tables' seats (``seats``), under the name of the per-table envs they replace."""
        return self.seats

    @property
    def autoreset_mode(self) -> AutoresetMode:
        """``metadata["autoreset_mode"]``; set it to change the mode (refused while a table awaits a NEXT_STEP
        autoreset)."""
        return self.metadata["autoreset_mode"]

    @autoreset_mode.setter
    def autoreset_mode(self, mode: AutoresetMode | str) -> None:
        mode = _autoreset_mode(mode)
        if mode != self.autoreset_mode and self._autoreset.any():
            raise RuntimeError("autoreset_mode: some tables await their NEXT_STEP autoreset; step or reset first")
        self.metadata["autoreset_mode"] = mode

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        seeds = self._seeds(seed)
        mask = None if not options or "reset_mask" not in options else np.asarray(options["reset_mask"])
        if mask is not None:
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ValueError(f"reset_mask: expected a boolean array of shape ({self.num_envs},), got {mask!r}")
            if not self._started and not mask.all():
                raise RuntimeError("the first reset() must reset every table")
        ks = self._all if mask is None else np.flatnonzero(mask)
        for k in ks.tolist():
            if seeds[k] is not None:
                self.tables.set_rng(k, seeding.np_random(seeds[k])[0])
        turns.step(self.tables, self._seats, ks[:0], None, ks)
        self._elapsed[ks] = 0
        self._autoreset[ks] = False
        self._stepped[ks] = False
        self._finals = None
        self._started = True
        return self.tables.obs.copy(), step_infos(self.tables, ks, self._stepped) if self.array_infos else {}

    def step(self, actions_in):
        acts = self._check_actions(actions_in)  # ValueError, nothing changed
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP:
            return self._step_same(acts)
        resetting = np.flatnonzero(self._autoreset)
        stepping = np.flatnonzero(~self._autoreset)
        turns.step(self.tables, self._seats, stepping, acts[stepping], resetting)
        p = self.tables.parts
        reward = np.where(self._autoreset, 0.0, (((p[:, 0] + p[:, 1]) + p[:, 2]) + p[:, 3]) + p[:, 4])
        self._elapsed[stepping] += 1
        self._elapsed[resetting] = 0
        self._stepped[:] = ~self._autoreset
        terminated = self.tables.done & self._stepped
        truncated = (self._elapsed >= self.max_episode_steps) & self._stepped
        self._autoreset = terminated | truncated
        infos = step_infos(self.tables, self._all, self._stepped) if self.array_infos else {}
        return self.tables.obs.copy(), reward, terminated, truncated, infos

    def _step_same(self, acts: np.ndarray):
        """``step`` in ``SAME_STEP`` mode: every table steps; those whose episode ends are dealt again in the same
        rounds (``turns.step``'s ``renew``), their final observations and infos kept aside (``turns.Finals``)."""
        truncated = self._elapsed + 1 >= self.max_episode_steps
        finals = turns.step(self.tables, self._seats, self._all, acts, renew=truncated)
        p = self.tables.parts
        if finals is None:
            ended = terminated = np.zeros(self.num_envs, dtype=bool)
        else:
            ended, terminated = finals.mask, finals.done & finals.mask
            p = np.where(ended[:, None], finals.parts, p)
        reward = (((p[:, 0] + p[:, 1]) + p[:, 2]) + p[:, 3]) + p[:, 4]
        self._elapsed += 1
        self._elapsed[ended] = 0
        self._stepped[:] = ~ended
        self._finals = finals
        infos = step_infos(self.tables, self._all, self._stepped) if self.array_infos else {}
        if finals is not None:
            final_obs = np.full(self.num_envs, None, dtype=object)
            for k in np.flatnonzero(ended).tolist():
                final_obs[k] = finals.obs[k].copy()
            infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()
            if self.array_infos:
                infos["final_info"] = step_infos(finals, np.flatnonzero(ended), ended)
                infos["_final_info"] = ended.copy()
        return self.tables.obs.copy(), reward, terminated, truncated.copy(), infos

    def final_table_info(self, k: int) -> dict[str, Any]:
        """Table k's final info of the latest step (``SAME_STEP`` mode, table k's episode ended in it) as NineBall-v0
        gives it (``table_info`` gives its new rack's)."""
        return self.final_table_infos([k])[0]

    def final_table_infos(self, ks: list[int]) -> list[dict[str, Any]]:
        """``final_table_info`` of each of tables ``ks``, read in one pass (``turns.infos``)."""
        for k in ks:
            if self._finals is None or not self._finals.mask[k]:
                raise ValueError(f"table {k}: its episode did not end in the latest step (same-step autoreset)")
        return turns.infos(self._finals, ks, [True] * len(ks)) if ks else []

    def set_opponent(self, k: int, opponent: Any) -> None:
        """Table k plays ``opponent`` from its next decision on (compiled when it is an aiming policy that breaks as
        the compiled one does, else asked from Python)."""
        opponent = opponents.check_opponent(opponent)
        kind = Seats.of([opponent], self.config, self._seats.first_breaker).kinds[0, turns.OPPONENT]
        if kind == Seat.AIMING and turns.aiming_parameters(opponent)[1] != self.tables.break_speed:
            kind = Seat.EXTERNAL
        self._seats.opponents[k] = opponent
        self._seats.set_kind(k, kind)

    def table_info(self, k: int) -> dict[str, Any]:
        """Table k's latest info (of its last step or reset) as NineBall-v0 gives it: ruling texts, opponent rulings
        and the racks by name, built on request from the turn's records."""
        return self.table_infos([k])[0]

    def table_infos(self, ks: list[int] | None = None) -> list[dict[str, Any]]:
        """``table_info`` of each of tables ``ks`` (None: every table), read in one pass (``turns.infos``)."""
        if ks is None:
            return turns.infos(self.tables, self._all_list, self._stepped.tolist())
        stepped = self._stepped.tolist()
        return turns.infos(self.tables, ks, [stepped[k] for k in ks]) if ks else []

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
        arr = actions.as_action_array(actions_in, "actions")  # TypeError for text, bools, complex numbers
        if arr.shape != (self.num_envs, actions.N_ACTION):
            raise ValueError(f"actions: expected shape ({self.num_envs}, {actions.N_ACTION}), got {arr.shape}")
        if not (-1.0 <= arr.min() and arr.max() <= 1.0):  # NaN fails it too
            for k in range(self.num_envs):
                try:
                    actions.check_action(arr[k])
                except ValueError as err:
                    raise ValueError(f"actions[{k}]: {err}") from None
        return arr


_MODES = {m.value: m for m in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)}


def _autoreset_mode(mode: Any) -> AutoresetMode:
    """``mode`` as the ``AutoresetMode`` it names (its member or value), or ValueError: NEXT_STEP and SAME_STEP are
    offered."""
    if isinstance(mode, AutoresetMode) and mode.value in _MODES:
        return mode
    if isinstance(mode, str) and not isinstance(mode, AutoresetMode) and mode in _MODES:
        return _MODES[mode]
    raise ValueError(f"autoreset_mode: expected AutoresetMode.NEXT_STEP or AutoresetMode.SAME_STEP (or "
                     f"{', '.join(map(repr, _MODES))}), got {mode!r}")


def step_infos(tables, ks: np.ndarray, stepped: np.ndarray) -> dict[str, Any]:
    """The infos of tables ``ks`` as arrays over all B tables (``_key`` masks mark ``ks``), from the turn's records:
    the learner's decision where ``stepped`` (its first record), the opponent's after it, the state after them.

    ========================  ================  =====================================================================
    key                       array             value for table k
    ========================  ================  =====================================================================
    ruling.declaration        (B,) object       the learner's declaration ("" on a reset)
    ruling.foul               (B,) bool         it was a foul
    ruling.fouls              (B,) int64        the fouls as a bit mask over rule codes (``rules.ruling.foul_rules``)
    ruling.cited              (B, 8) int64      the other cited rule codes in order, -1 after the last
    pocketed                  (B, 10) int64     the balls the learner pocketed in order, -1 after the last
    placement                 (B, 2) float64    where a cue ball in hand went, NaN without one
    placement_adjusted        (B,) bool         the requested spot was not free and moved
    n_events                  (B,) int64        events of the learner's shot
    voided                    (B,) bool         it was void: still in the air at the replay caps, no ruling
    opponent.decisions        (B,) int64        the opponent's decisions in the step
    opponent.fouls            (B,) int64        ... that were fouls
    opponent.pocketed         (B, 10) int64     times each ball went down on the opponent's decisions
    phase, ball_in_hand       (B,) object       after the step (``PHASE_NAMES``, ``BALL_IN_HAND_NAMES``)
    foul_counts, score        (B, 2) int64      (learner, opponent)
    racks                     (B, 2) int64      racks won in the step by (learner, opponent)
    redeals                   (B,) int64        deals dealt again on a reset
    reward_parts.<part>       (B,) float64      the reward's parts (``rewards.REWARD_PARTS``)
    ========================  ================  =====================================================================
    """
    B = tables.rack.shape[0]
    mask = np.zeros(B, dtype=np.bool_)
    mask[ks] = True
    n = tables.n_rec
    mine = tables.rec_i[:, 0]
    rec = tables.rec_i[:, :int(n.max())]  # the records in use
    at = np.arange(rec.shape[1])[None, :]
    live = at < n[:, None]
    ended = live & (rec[:, :, RecI.AFTER + C.PHASE] == int(PhaseCode.RACK_OVER))
    winner = rec[:, :, RecI.AFTER + C.WINNER]
    fouls = np.where(stepped, mine[:, RecI.FOULS], 0)
    placed = stepped & (mine[:, RecI.PLACED] != 0)
    placement = np.where(placed[:, None], tables.rec_f[:, 0, RecF.PLACE_X:RecF.PLACE_Y + 1], np.nan)
    table, col = np.nonzero(live & (at >= stepped[:, None]))  # the opponent's decisions
    theirs = rec[table, col]
    pocketed = theirs[:, RecI.POCKETED:RecI.POCKETED + N_BALLS]  # -1 after the last
    opp_pocketed = np.bincount((table[:, None] * N_BALLS + pocketed)[pocketed >= 0],
                               minlength=B * N_BALLS).reshape(B, N_BALLS)
    infos = {
        "ruling": {
            "declaration": _DECLARATION_WORDS[np.where(stepped, mine[:, RecI.DECLARATION] + 1, 0)],
            "foul": fouls != 0,
            "fouls": fouls,
            "cited": np.where(stepped[:, None], mine[:, RecI.CITED:RecI.CITED + MAX_CITED], -1),
        },
        "pocketed": np.where(stepped[:, None], mine[:, RecI.POCKETED:RecI.POCKETED + N_BALLS], -1),
        "placement": placement,
        "placement_adjusted": placed & (mine[:, RecI.ADJUSTED] != 0),
        "n_events": np.where(stepped, mine[:, RecI.N_EVENTS], 0),
        "voided": stepped & (mine[:, RecI.VOIDED] != 0),
        "opponent": {
            "decisions": n - stepped,
            "fouls": np.bincount(table[theirs[:, RecI.FOULS] != 0], minlength=B),
            "pocketed": opp_pocketed,
        },
        "phase": _PHASE_WORDS[tables.rack[:, C.PHASE]],
        "ball_in_hand": _IN_HAND_WORDS[tables.rack[:, C.IN_HAND]],
        "foul_counts": tables.rack[:, C.COUNT0:C.COUNT1 + 1].copy(),
        "score": tables.won.copy(),
        "racks": np.stack([(ended & (winner == LEARNER)).sum(axis=1), (ended & (winner != LEARNER)).sum(axis=1)], 1),
        "redeals": tables.redeals.copy(),
        "reward_parts": {name: np.where(stepped, tables.parts[:, j], 0.0)
                         for j, name in enumerate(rewards.REWARD_PARTS)},
    }
    return _masked(infos, mask)


def _masked(infos: dict[str, Any], mask: np.ndarray) -> dict[str, Any]:
    """``infos`` with Gymnasium's ``_key`` mask beside every key (nested dicts too)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        out[key] = _masked(value, mask) if isinstance(value, dict) else value
        out[f"_{key}"] = mask
    return out


__all__ = ["NineBallVectorEnv", "TableSeat", "step_infos"]
