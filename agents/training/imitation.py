"""Imitation of ``SearchAgent`` in the macro-action space: a dataset of Search's decisions, and behaviour cloning.

The data come from races of a recording Search player against GhostBall. The recorder plays Search's own
decisions, except that with ball in hand it searches from the spot the macro layer would choose
(``MacroPlanner.slots``), so every label is a decision the macro actions can express from that position.
Given a ``student`` (DAgger), the recorder labels every position with Search's decision but plays the
student's, so later rounds cover the positions the cloned policy itself gets into.
Each decision becomes the macro observation (leave features included) and a macro action with a mask of
the components that carry the label:

* a pot: the pot slot whose throw-corrected aim is nearest Search's aim (within ``AIM_RANGE``; a pot on a
  ball or pocket outside the slots is dropped), the aim offset, the speed ratio, draw/follow and side;
* a safety: the safety slot (its refinement is left free); a push-out or its refusal: the flag;
* the push-out choice: the flag (pass back or not); breaks are not labelled (the macro layer breaks as GhostBall).

``behaviour_clone`` fits an SB3 PPO actor's mean action to the labels (masked mean squared error), the warm
start ``agents.training.ppo --imitation-matches`` fine-tunes with PPO.
"""

from __future__ import annotations

import math
import multiprocessing as mp
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.arena.match import MatchConfig, play_match
from agents.learned.agent import LearnedAgent
from agents.learned.macro import (AIM_RANGE, MACRO_DIM, N_SLOTS, SAFETY, SPEED_OCTAVES, TIP_A, TIP_B, MacroPlanner,
                                  MacroStyle, macro_obs_size)
from agents.players.ghost_ball import GHOST_MAX_SPEED, GHOST_MIN_SPEED, GhostBallAgent
from agents.players.search import SearchAgent, SearchConfig
from agents.protocol import BaseAgent, TableView
from agents.shots.aim import corrected_phi
from agents.shots.pots import rolling_speed_for
from nineball_env import actions
from nineball_env.noise import make_noise
from nineball_env.rules import Phase
from physics import Shot

FLAG = 5  # the push-out flag's component


def slot_value(slot: int) -> float:
    """The macro component that selects ``slot`` (the centre of its bin)."""
    return -1.0 + (2 * slot + 1) / N_SLOTS


@dataclass
class Dataset:
    """Macro observations ``x`` (n, macro_obs_size), labels ``u`` (n, MACRO_DIM) and their masks ``m`` (1: labelled)."""

    x: np.ndarray
    u: np.ndarray
    m: np.ndarray
    dropped: dict[str, int]

    def __len__(self) -> int:
        return len(self.x)

    def save(self, path: str) -> None:
        np.savez_compressed(path, x=self.x, u=self.u, m=self.m, dropped_keys=np.array(list(self.dropped)),
                            dropped_counts=np.array(list(self.dropped.values()), dtype=np.int64))

    @classmethod
    def load(cls, path: str) -> "Dataset":
        with np.load(path, allow_pickle=False) as d:
            return cls(d["x"], d["u"], d["m"], dict(zip(d["dropped_keys"].tolist(), d["dropped_counts"].tolist())))

    @classmethod
    def concat(cls, parts: list["Dataset"]) -> "Dataset":
        n = macro_obs_size(True)
        dropped: Counter[str] = Counter()
        for p in parts:
            dropped.update(p.dropped)
        return cls(np.concatenate([p.x for p in parts]) if parts else np.zeros((0, n), np.float32),
                   np.concatenate([p.u for p in parts]) if parts else np.zeros((0, MACRO_DIM), np.float32),
                   np.concatenate([p.m for p in parts]) if parts else np.zeros((0, MACRO_DIM), np.float32),
                   dict(dropped))


def pot_label(planner: MacroPlanner, view: TableView, cue: np.ndarray, pots: list, shot: Shot
              ) -> tuple[np.ndarray, np.ndarray] | None:
    """The macro action (and mask) of pot ``shot`` from ``cue``: the slot whose corrected aim is nearest, or None."""
    state = view.balls.copy()
    state.place(0, float(cue[0]), float(cue[1]))
    best: tuple[float, int] | None = None
    for i, option in enumerate(pots):
        if option is None:
            continue
        phi = corrected_phi(state, cue, option.target, option.direction,
                            Shot(V0=shot.V0, phi=option.phi, a=shot.a, b=shot.b), view.table, view.params, iterations=1)
        d = (shot.phi - phi + 180.0) % 360.0 - 180.0
        if best is None or abs(d) < abs(best[0]):
            best = (d, i)
    if best is None or abs(best[0]) > AIM_RANGE:
        return None
    d, i = best
    option = pots[i]
    base = rolling_speed_for(option.d_cue, option.d_obj, option.cut, 0.6, view.params)
    V = min(max(shot.V0, GHOST_MIN_SPEED), GHOST_MAX_SPEED)
    u = np.zeros(MACRO_DIM)
    u[0], u[1] = slot_value(i), d / AIM_RANGE
    u[2] = math.log2(V / base) / SPEED_OCTAVES
    u[3], u[4] = shot.b / TIP_B, shot.a / TIP_A
    m = np.array([1, 1, 1, 1, 1, 0], dtype=np.float32)
    return np.clip(u, -1.0, 1.0).astype(np.float32), m


class SearchRecorder(BaseAgent):
    """Plays SearchAgent (ball in hand from the macro layer's spot), or ``student`` when given, and records
    Search's decision in every position as a macro label."""

    name = "search-recorder"

    def __init__(self, config: SearchConfig | None = None, seed: int | None = None,
                 student: BaseAgent | None = None, style: MacroStyle | None = None) -> None:
        super().__init__(seed)
        self.search = SearchAgent(config)
        self.student = student
        self.planner = MacroPlanner(leaves=True, style=style)
        self.x: list[np.ndarray] = []
        self.u: list[np.ndarray] = []
        self.m: list[np.ndarray] = []
        self.dropped: Counter[str] = Counter()

    def seed(self, seed: int | None = None) -> None:
        super().seed(seed)
        self.search.seed(seed)

    def dataset(self) -> Dataset:
        n = macro_obs_size(True)
        return Dataset(np.array(self.x, dtype=np.float32).reshape(-1, n),
                       np.array(self.u, dtype=np.float32).reshape(-1, MACRO_DIM),
                       np.array(self.m, dtype=np.float32).reshape(-1, MACRO_DIM), dict(self.dropped))

    def _record(self, obs: np.ndarray, u: np.ndarray, m: np.ndarray) -> None:
        self.x.append(self.planner.features(obs))
        self.u.append(u)
        self.m.append(m)

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        view = view or TableView.from_observation(observation)
        action = self._label(observation, view)
        return action if self.student is None else self.student.act(observation, view)

    def _label(self, observation: np.ndarray, view: TableView) -> np.ndarray:
        """Record Search's decision in this position; return its action."""
        search, phase = self.search, view.rack.phase
        if phase is Phase.BREAK:
            self.dropped["break"] += 1
            return search.decide(view)
        if phase is Phase.PUSH_OUT_CHOICE:
            action = search.decide(view)
            u, m = np.zeros(MACRO_DIM, np.float32), np.zeros(MACRO_DIM, np.float32)
            u[FLAG] = 1.0 if action[actions.A.PASS_BACK] > 0.0 else -1.0
            m[FLAG] = 1.0
            self._record(observation, u, m)
            return action
        _, spot, pots = self.planner.slots(observation)
        cue = np.asarray(spot if spot is not None else view.balls.pos[0], dtype=float)
        plan = search.plan(view, cue.copy())
        shot, push_out = plan.shot, False
        if phase is Phase.PUSH_OUT_ALLOWED and plan.value < search.config.push_below:
            push = search.push_out(view, cue)
            if push is not None and push.value > plan.value:
                shot, push_out = push.shot, True
        u, m = np.zeros(MACRO_DIM, np.float32), np.zeros(MACRO_DIM, np.float32)
        if push_out:
            u[FLAG], m[FLAG] = 1.0, 1.0
            self._record(observation, u, m)
        else:
            if phase is Phase.PUSH_OUT_ALLOWED:
                u[FLAG], m[FLAG] = -1.0, 1.0
            if plan.intent == "safety":
                u[0], m[0] = slot_value(SAFETY), 1.0
                self._record(observation, u, m)
            else:
                label = pot_label(self.planner, view, cue, pots, shot)
                if label is None:
                    self.dropped["pot outside the slots"] += 1
                else:
                    u[:FLAG], m[:FLAG] = label[0][:FLAG], label[1][:FLAG]
                    self._record(observation, u, m)
        in_hand = str(view.rack.ball_in_hand)
        placement = (float(cue[0]), float(cue[1])) if spot is not None else None
        return actions.shot_to_action(shot, placement=placement, ball_in_hand=in_hand if placement else "anywhere",
                                      push_out=push_out, table=view.table, params=view.params, scale=view.scale)


def _play(job: tuple[int, int, int, str, SearchConfig | None, str | None, str]) -> Dataset:
    """One race of a SearchRecorder against GhostBall (match ``index`` of a series seeded ``seed``), the
    recorder playing the exported policy at path ``student`` when given, its macro layer in style ``style``."""
    seed, index, race_to, noise, config, student, style = job
    recorder = SearchRecorder(config, student=LearnedAgent.load_numpy(student) if student else None,
                              style=MacroStyle.parse(style))
    players = (recorder, GhostBallAgent()) if index % 2 == 0 else (GhostBallAgent(), recorder)
    play_match(*players, MatchConfig(race_to=race_to, noise=make_noise(noise)), seed=seed, index=index)
    return recorder.dataset()


def generate(matches: int, seed: int, jobs: int = 1, race_to: int = 3, noise: str = "icga",
             config: SearchConfig | None = None, progress: bool = False, student: str | None = None,
             first: int = 0, style: str = "") -> Dataset:
    """Search's (``config``) labelled decisions from ``matches`` races against GhostBall (``jobs`` worker
    processes), matches ``first``, ``first + 1``, ... of the series seeded ``seed``; ``student``: the path of
    an exported policy (``agents.learned.numpy_policy``) that plays instead of Search (DAgger); ``style``: the macro
    layer's ``MacroStyle`` (``key=value,...``), whose ball-in-hand spots and features the labels use. The same arguments give
    the same dataset whatever ``jobs``."""
    if matches < 1 or jobs < 1 or first < 0:
        raise ValueError(f"matches, jobs, first: expected whole numbers >= 1, >= 1, >= 0, got {matches!r}, "
                         f"{jobs!r}, {first!r}")
    MacroStyle.parse(style)  # a bad style fails here, not in a worker
    work = [(seed, first + i, race_to, noise, config, student, style) for i in range(matches)]
    if jobs == 1:
        parts = []
        for job in work:
            parts.append(_play(job))
            if progress and (len(parts) % 25 == 0 or len(parts) == matches):
                print(f"imitation data: match {len(parts)}/{matches}, {sum(len(p) for p in parts)} labels", flush=True)
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn")) as pool:
            parts = []
            for part in pool.map(_play, work):
                parts.append(part)
                if progress and (len(parts) % 25 == 0 or len(parts) == matches):
                    print(f"imitation data: match {len(parts)}/{matches}, {sum(len(p) for p in parts)} labels",
                          flush=True)
    return Dataset.concat(parts)


def behaviour_clone(model: Any, data: Dataset, epochs: int, lr: float = 1e-3, batch_size: int = 256,
                    seed: int = 0) -> list[float]:
    """Fit ``model``'s (SB3 PPO ``MlpPolicy``) actor mean to the labels by masked mean squared error; the loss
    per epoch. Only the policy network and the action head are trained (the value network is PPO's)."""
    import torch

    policy = model.policy
    if tuple(model.observation_space.shape) != (data.x.shape[1],):
        raise ValueError(f"data: observations of {data.x.shape[1]} numbers, the model takes "
                         f"{model.observation_space.shape}")
    params = list(policy.mlp_extractor.policy_net.parameters()) + list(policy.action_net.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    x = torch.as_tensor(data.x, dtype=torch.float32)
    u = torch.as_tensor(data.u, dtype=torch.float32)
    m = torch.as_tensor(data.m, dtype=torch.float32)
    gen = torch.Generator().manual_seed(seed)
    losses = []
    policy.train()
    for _ in range(epochs):
        order = torch.randperm(len(x), generator=gen)
        total, weight = 0.0, 0.0
        for start in range(0, len(x), batch_size):
            idx = order[start: start + batch_size]
            mean = policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(x[idx], policy.pi_features_extractor)))
            err = (mean - u[idx]) ** 2 * m[idx]
            loss = err.sum() / m[idx].sum().clamp(min=1.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(err.sum().detach())
            weight += float(m[idx].sum())
        losses.append(total / max(weight, 1.0))
    policy.set_training_mode(False)
    return losses


__all__ = ["Dataset", "SearchRecorder", "behaviour_clone", "generate", "pot_label", "slot_value"]
