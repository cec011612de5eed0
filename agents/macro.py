"""Macro actions for learning agents: choose a ranked pot (target ball and pocket) or a safety, then refine it.

Plain RL on the raw cue parameters is known to fail at pool: almost every random shot is a foul.
Here the policy picks one of ``N_SLOTS`` slots — the three easiest pots of the lowest ball
(``agents.shots.pot_options``, combinations on the 9 included) and a safety — and refines the
ghost-ball shot of that slot: aim offset, speed, draw/follow and side. Breaks follow ``GhostBallAgent``;
ball-in-hand placement and the safety shot do too by default, and a ``MacroStyle`` may take them from
``SearchAgent``'s candidates instead (the ball-in-hand spot whose slots leave the best position, the best of
its safety candidates). The observation gains
``SLOT_FEATURES`` numbers per slot, so the policy sees what each slot offers. With ``leaves=True`` it
gains ``LEAVE_FEATURES`` more: for each pot slot, the noise-free value (``agents.leaves.shot_value``:
pot and position) of the slot's shot at each speed × draw/follow point of ``LEAVE_GRID``, and that of
the safety — one look ahead at where each candidate leaves the cue ball, which the policy may refine.
``MacroPlanner.rerank`` lets a player check the policy's choice against those candidates under the game's
noise before playing it (the shipped agent ``learned`` does, with 6 samples).

========  ======================================================================================
index     macro action component (each in [-1, 1])
========  ======================================================================================
0         slot: ⌊(u+1)/2 · N_SLOTS⌋ — pots 0, 1, 2 (easiest first), 3 = safety
1         aim offset: u · AIM_RANGE degrees added to the throw-corrected ghost-ball aim
2         speed: the slot's ghost-ball speed × 2^(SPEED_OCTAVES · u)
3         vertical tip offset b = TIP_B · u (draw < 0 < follow)
4         side tip offset a = TIP_A · u
5         flag: u > 0 declares a push-out when one is allowed; after the opponent's push-out, passes back
========  ======================================================================================
"""

from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.base import TableView
from agents.ghost_ball import MAX_SPEED, MIN_SPEED, GhostBallAgent
from agents.leaves import shot_value
from agents.shots import PotOption, aim_sigma, corrected_phi, cue_spots, pot_options, rolling_speed_for
from nineball_env import actions, observation
from nineball_env.observation import OBS_SIZE
from nineball_env.rules import Phase
from physics import DEFAULT_PARAMS, DEFAULT_TABLE, PhysicsParams, Shot, Table

N_POTS = 3
N_SLOTS = N_POTS + 1
SAFETY = N_POTS
MACRO_DIM = 6
SLOT_FEATURES = 6  # valid, ease, cut/90, cue distance/length, object distance/length, combination
MACRO_OBS_SIZE = OBS_SIZE + N_SLOTS * SLOT_FEATURES
AIM_RANGE = 1.0  # [deg]
SPEED_OCTAVES = 1.3
TIP_B, TIP_A = 0.5, 0.3
#: (speed u, vertical tip u) macro components at which each pot slot's shot is simulated for the leave features.
LEAVE_GRID = tuple((speed, tip) for speed in (-0.6, 0.0, 0.6) for tip in (-1.0, 0.0, 1.0))
LEAVE_FEATURES = N_POTS * len(LEAVE_GRID) + 1


#: Ball-in-hand spots (Search's, at most two per pocket) compared by ``MacroStyle(placement="leave")``.
PLACEMENT_SPOTS = 4
#: Safety candidates (Search's hits and kicks) valued without noise, and the best few of them sampled under noise
#: (SAFETY_SAMPLES each, seeded by the observation), by ``MacroStyle(safety="search")``.
SAFETY_BUDGET, SAFETY_FINALISTS, SAFETY_SAMPLES = 24, 3, 4


@dataclass(frozen=True)
class MacroStyle:
    """Who decides what the policy does not: the ball-in-hand spot and the safety shot (the break is always
    GhostBall's: Search's break book, tried here, cut the shipped policy's break-and-runs from 17 % to 3 %).

    Attributes:
        placement: "ghost" (``GhostBallAgent.place``) or "leave": among Search's ball-in-hand spots and
            GhostBall's, the one whose best pot-slot leave value (``leave_values``) is highest.
        safety: "ghost" (``GhostBallAgent.safety``, refined by the macro components) or "search": the best of
            Search's safety candidates (noise-free values, then the finalists sampled under noise with a seed
            drawn from the observation), played as found (the macro refinements do not apply to it).
    """

    placement: str = "ghost"
    safety: str = "ghost"

    def __post_init__(self) -> None:
        for name, allowed in (("placement", ("ghost", "leave")), ("safety", ("ghost", "search"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name}: expected one of {', '.join(allowed)}, got {getattr(self, name)!r}")

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def parse(cls, spec: str) -> "MacroStyle":
        """A style from ``key=value,...`` (e.g. ``placement=leave,safety=search``); "" is the default."""
        fields: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, sep, value = part.partition("=")
            if not sep or key not in cls.__dataclass_fields__:
                raise ValueError(f"macro style: expected key=value with key one of "
                                 f"{', '.join(cls.__dataclass_fields__)}, got {part!r}")
            fields[key] = value
        return cls(**fields)


def macro_obs_size(leaves: bool = False) -> int:
    """Length of the macro observation: the env's, the slot features, and the leave features when ``leaves``."""
    return MACRO_OBS_SIZE + (LEAVE_FEATURES if leaves else 0)


class MacroPlanner:
    """Turns an observation into slot features, and a macro action into the env's 9-number action.

    Both are deterministic functions of the observation (the slots are recomputed, with a
    one-entry cache), so a saved policy plays the same wherever it runs.
    """

    def __init__(self, table: Table = DEFAULT_TABLE, params: PhysicsParams = DEFAULT_PARAMS,
                 noise: str = "icga", scale: actions.ActionScale = actions.DEFAULT_SCALE, leaves: bool = False,
                 style: MacroStyle | None = None) -> None:
        self.table, self.params, self.noise, self.scale, self.leaves = table, params, noise, scale, leaves
        self.style = style or MacroStyle()
        self.obs_size = macro_obs_size(leaves)
        self.ghost = GhostBallAgent()
        self._cache_key: bytes | None = None
        self._cache: tuple[TableView | None, np.ndarray | None, list[PotOption | None]] | None = None
        self._leaves: np.ndarray | None = None  # leave values of the cached observation
        self._safety: Shot | None = None  # Search-style safety of the cached observation
        self.last_slot: int | None = None

    def _seed(self) -> int:
        """A seed drawn from the current observation's bytes, so a noisy choice stays a function of the observation."""
        return zlib.crc32(self._cache_key or b"")

    def slots(self, obs: np.ndarray) -> tuple[TableView | None, np.ndarray | None, list[PotOption | None]]:
        """The view (None once the rack is over), the cue-ball spot chosen when in hand (else None), and the
        pot of each pot slot."""
        key = np.asarray(obs, dtype=np.float32).tobytes()
        if key == self._cache_key and self._cache is not None:
            return self._cache
        spot: np.ndarray | None = None
        pots: list[PotOption | None] = [None] * N_POTS
        view = None
        self._cache_key, self._cache, self._leaves, self._safety = key, None, None, None
        if observation.decode(obs, self.table.width, self.table.length)["phase"] != "rack-over":
            view = TableView.from_observation(obs, self.table, self.params, self.noise, self.scale)
        if view is not None and view.rack.phase not in (Phase.BREAK, Phase.PUSH_OUT_CHOICE):
            if view.cue_in_hand and self.style.placement == "leave":
                spot, pots, self._leaves = self._best_spot(view)
            else:
                spot = np.asarray(self.ghost.place(view), dtype=float) if view.cue_in_hand else None
                pots = self._pots(view, spot if spot is not None else view.balls.pos[0])
        self._cache = (view, spot, pots)
        return self._cache

    def _pots(self, view: TableView, cue: np.ndarray) -> list[PotOption | None]:
        """The pot slots from cue position ``cue``: the easiest ``N_POTS`` pots, None for empty slots."""
        found = pot_options(cue, view.balls.pos, view.on, view.rack.lowest, view.table, view.params,
                            aim_sigma(view.noise))
        return list(found[:N_POTS]) + [None] * max(0, N_POTS - len(found))

    def _best_spot(self, view: TableView) -> tuple[np.ndarray, list[PotOption | None], np.ndarray]:
        """Ball in hand, ``placement="leave"``: GhostBall's spot and Search's (``PLACEMENT_SPOTS``), the one whose
        best pot-slot leave value is highest (ties: the earlier); with its pot slots and leave values."""
        from agents.search import _diverse

        spots = [tuple(self.ghost.place(view))]
        found = cue_spots(view.balls.pos, view.on, view.rack.lowest, view.table, view.params, aim_sigma(view.noise))
        spots += [s for s in _diverse(found, PLACEMENT_SPOTS) if s not in spots]
        best = None
        for s in spots:
            cue = np.asarray(s, dtype=float)
            pots = self._pots(view, cue)
            values = self.leave_values(view, cue, pots, safety=False)
            score = float(values[:-1].max())
            if best is None or score > best[0]:
                best = (score, cue, pots, values)
        assert best is not None
        return best[1], best[2], best[3]

    def features(self, obs: np.ndarray) -> np.ndarray:
        """The observation with the slot features (and, with ``leaves``, the leave features) appended (float32 in
        [0, 1])."""
        view, spot, pots = self.slots(obs)
        extra = np.zeros((N_SLOTS, SLOT_FEATURES), dtype=np.float32)
        L = self.table.length
        for i, option in enumerate(pots):
            if option is not None:
                extra[i] = (1.0, option.ease, option.cut / 90.0, min(option.d_cue / L, 1.0),
                            min(option.d_obj / L, 1.0), float(option.combo))
        extra[SAFETY, 0] = 1.0
        parts = [np.asarray(obs, dtype=np.float32), extra.ravel()]
        if self.leaves:
            if self._leaves is None:
                self._leaves = self.leave_values(view, spot, pots, safety=False)
            out = self._leaves.copy()
            if view is not None and view.rack.phase not in (Phase.BREAK, Phase.PUSH_OUT_CHOICE):
                cue = spot if spot is not None else view.balls.pos[0]
                state = view.balls.copy()
                state.place(0, float(cue[0]), float(cue[1]))
                out[-1] = shot_value(view, state, self._safety_shot(view, cue, np.zeros(MACRO_DIM)))
            parts.append(out)
        return np.concatenate(parts)

    def leave_values(self, view: TableView | None, spot: np.ndarray | None, pots: list[PotOption | None],
                     safety: bool = True) -> np.ndarray:
        """``LEAVE_FEATURES`` noise-free shot values: each pot slot's shot at every ``LEAVE_GRID`` point (0 for an
        empty slot), then the safety's (0 unless ``safety``); all 0 on breaks, push-out choices and once the
        rack is over."""
        out = np.zeros(LEAVE_FEATURES, dtype=np.float32)
        if view is None or view.rack.phase in (Phase.BREAK, Phase.PUSH_OUT_CHOICE):
            return out
        cue = spot if spot is not None else view.balls.pos[0]
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        u = np.zeros(MACRO_DIM)
        for i, option in enumerate(pots):
            if option is None:
                continue
            for j, (speed, tip) in enumerate(LEAVE_GRID):
                u[2], u[3] = speed, tip
                out[i * len(LEAVE_GRID) + j] = shot_value(view, state, self._pot_shot(view, state, cue, option, u))
        if safety:
            u[2] = u[3] = 0.0
            out[-1] = shot_value(view, state, self._safety_shot(view, cue, u))
        return out

    def _pot_shot(self, view: TableView, state, cue: np.ndarray, option: PotOption, u: np.ndarray) -> Shot:
        """The pot of ``option`` refined by macro components ``u`` (from ``state``, the cue ball at ``cue``)."""
        factor = 2.0 ** (SPEED_OCTAVES * u[2])
        a, b = TIP_A * u[4], TIP_B * u[3]
        V = min(max(rolling_speed_for(option.d_cue, option.d_obj, option.cut, 0.6, view.params) * factor,
                    MIN_SPEED), MAX_SPEED)
        phi = corrected_phi(state, cue, option.target, option.direction, Shot(V0=V, phi=option.phi, a=a, b=b),
                            view.table, view.params, iterations=1)
        return Shot(V0=V, phi=phi + AIM_RANGE * u[1], a=a, b=b)

    def _safety_shot(self, view: TableView, cue: np.ndarray, u: np.ndarray) -> Shot:
        """GhostBall's safety from ``cue`` refined by macro components ``u``, or (``safety="search"``) the best
        of Search's safety candidates, as found."""
        if self.style.safety == "search":
            return self._search_safety(view, cue)
        factor = 2.0 ** (SPEED_OCTAVES * u[2])
        base = self.ghost.safety(view, cue)
        return Shot(V0=min(max(base.V0 * factor, MIN_SPEED), MAX_SPEED), phi=base.phi + AIM_RANGE * u[1],
                    a=TIP_A * u[4], b=TIP_B * u[3])

    def _search_safety(self, view: TableView, cue: np.ndarray) -> Shot:
        """The best of ``SAFETY_BUDGET`` Search safety candidates from ``cue``: valued once without noise, the best
        ``SAFETY_FINALISTS`` then ``SAFETY_SAMPLES`` times under noise; cached for the current observation."""
        if self._safety is not None:
            return self._safety
        from agents.search import SearchAgent
        from nineball_env.noise import perturb

        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        searcher = SearchAgent()
        shots = searcher._safety_candidates(view, state, SAFETY_BUDGET)
        first = sorted(((shot_value(view, state, s), k) for k, s in enumerate(shots)), key=lambda item: -item[0])
        rng = np.random.default_rng(self._seed())
        best: tuple[float, Shot] | None = None
        for _, k in first[:SAFETY_FINALISTS]:
            mean = float(np.mean([shot_value(view, state, perturb(shots[k], view.noise, rng, view.params))
                                  for _ in range(SAFETY_SAMPLES)]))
            if best is None or mean > best[0]:
                best = (mean, shots[k])
        assert best is not None
        self._safety = best[1]
        return self._safety

    def _decode(self, view: TableView, spot: np.ndarray | None, pots: list[PotOption | None], u: np.ndarray
                ) -> tuple[int, Shot]:
        """The slot macro components ``u`` select (an empty pot slot falls back to the first pot, else the safety)
        and the shot they decode to."""
        slot = min(int((u[0] + 1.0) / 2.0 * N_SLOTS), N_SLOTS - 1)
        if slot < N_POTS and pots[slot] is None:
            slot = 0 if pots[0] is not None else SAFETY
        cue = spot if spot is not None else view.balls.pos[0]
        if slot == SAFETY:
            return slot, self._safety_shot(view, cue, u)
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        option = pots[slot]
        assert option is not None
        return slot, self._pot_shot(view, state, cue, option, u)

    def rerank(self, obs: np.ndarray, macro: np.ndarray, samples: int) -> np.ndarray:
        """The macro action to play instead of ``macro``: among it, each pot slot's best ``LEAVE_GRID`` point (by its
        leave feature) and the safety, the one whose shot has the best mean ``shot_value`` over ``samples``
        simulations under the noise (seeded by the observation; ties keep ``macro``). Breaks and push-out
        choices keep ``macro``; so does ``samples`` 0."""
        u = np.clip(np.asarray(macro, dtype=np.float64).reshape(-1), -1.0, 1.0)
        view, spot, pots = self.slots(obs)
        if samples <= 0 or view is None or view.rack.phase in (Phase.BREAK, Phase.PUSH_OUT_CHOICE):
            return u
        if self._leaves is None:
            self._leaves = self.leave_values(view, spot, pots, safety=False)
        candidates = [u]
        for i, option in enumerate(pots):
            if option is not None:
                j = int(np.argmax(self._leaves[i * len(LEAVE_GRID):(i + 1) * len(LEAVE_GRID)]))
                candidates.append(np.array([-1.0 + (2 * i + 1) / N_SLOTS, 0.0, *LEAVE_GRID[j], 0.0, u[5]]))
        candidates.append(np.array([1.0, 0.0, 0.0, 0.0, 0.0, u[5]]))
        from nineball_env.noise import perturb

        cue = spot if spot is not None else view.balls.pos[0]
        state = view.balls.copy()
        state.place(0, float(cue[0]), float(cue[1]))
        rng = np.random.default_rng(self._seed() + 7)
        noise = rng.standard_normal((samples, 5))  # common random numbers: every candidate meets the same errors
        best, best_value = u, -1.0
        for c in candidates:
            _, shot = self._decode(view, spot, pots, c)
            value = 0.0
            for k in range(samples):
                value += shot_value(view, state, perturb(shot, view.noise, _Fixed(noise[k]), view.params))
            if value > best_value + 1e-12:
                best, best_value = c, value
        return best

    def action(self, obs: np.ndarray, macro: np.ndarray) -> np.ndarray:
        """The env action for macro action ``macro`` (``MACRO_DIM`` numbers, clipped to [-1, 1])."""
        u = np.clip(np.asarray(macro, dtype=np.float64).reshape(-1), -1.0, 1.0)
        if u.shape != (MACRO_DIM,):
            raise ValueError(f"macro action: expected {MACRO_DIM} numbers, got shape {u.shape}")
        view, spot, pots = self.slots(obs)
        if view is None:
            raise ValueError("observation: the rack is over, there is no decision to make")
        phase = view.rack.phase
        if phase is Phase.PUSH_OUT_CHOICE:
            self.last_slot = None
            return actions.choice_action(pass_back=bool(u[5] > 0.0))
        if phase is Phase.BREAK:
            self.last_slot = None
            return self.ghost.decide(view)
        slot, shot = self._decode(view, spot, pots, u)
        self.last_slot = slot
        in_hand = str(view.rack.ball_in_hand)
        placement = (float(spot[0]), float(spot[1])) if spot is not None else None
        return actions.shot_to_action(shot, placement=placement,
                                      ball_in_hand=in_hand if placement is not None else "anywhere",
                                      push_out=phase is Phase.PUSH_OUT_ALLOWED and bool(u[5] > 0.0),
                                      table=view.table, params=view.params, scale=view.scale)


class _Fixed:
    """A stand-in random generator whose ``standard_normal(5)`` returns fixed numbers (common random numbers)."""

    def __init__(self, normals: np.ndarray) -> None:
        self.normals = normals

    def standard_normal(self, size: int) -> np.ndarray:
        return self.normals[:size]


def macro_action_space() -> spaces.Box:
    return spaces.Box(-1.0, 1.0, (MACRO_DIM,), np.float32)


def macro_observation_space(leaves: bool = False) -> spaces.Box:
    return spaces.Box(0.0, 1.0, (macro_obs_size(leaves),), np.float32)


class MacroActionWrapper(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """NineBall-v0 with macro actions (see the module docstring) and the slot features in the observation.

    ``noise`` is the noise preset the slots' ease estimates assume (the env adds its own noise to every shot);
    ``leaves`` adds the leave features; ``style`` is the planner's ``MacroStyle``.
    """

    def __init__(self, env: gym.Env, noise: str = "icga", leaves: bool = False, style: MacroStyle | None = None
                 ) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, noise=noise, leaves=leaves, style=style)
        gym.Wrapper.__init__(self, env)
        base = env.unwrapped
        cfg = getattr(base, "config", None)
        self.planner = MacroPlanner(cfg.table if cfg else DEFAULT_TABLE, cfg.params if cfg else DEFAULT_PARAMS, noise,
                                    getattr(base, "scale", actions.DEFAULT_SCALE), leaves, style)
        self.action_space = macro_action_space()
        self.observation_space = macro_observation_space(leaves)
        self._obs: np.ndarray | None = None

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._obs = obs
        return self.planner.features(obs), dict(info, macro_slot=-1)

    def step(self, action):
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        obs, reward, terminated, truncated, info = self.env.step(self.planner.action(self._obs, action))
        self._obs = obs
        info = dict(info, macro_slot=self.planner.last_slot if self.planner.last_slot is not None else -1)
        return self.planner.features(obs), reward, terminated, truncated, info
