"""Shared builders for the env tests: hand-built positions, scripted opponents, readable actions."""

from __future__ import annotations

import math
from typing import Callable, Iterable

import numpy as np

import physics
from agents.shots.aim import direction_deg, ghost_ball
from nineball_env import actions, rules
from nineball_env.aiming import pocket_aims
from nineball_env.game import GameSnapshot

TABLE = physics.DEFAULT_TABLE
R = physics.DEFAULT_PARAMS.R
W, L = TABLE.width, TABLE.length
FOOT_LEFT = 4  # pocket index of the foot-left corner (x = 0, y = L)


def position(env, balls: dict[int, tuple[float, float]], *, phase: str = "normal", shooter: int = 0,
             bih: str | None = None, counts: tuple[int, int] = (0, 0), breaker: int = 0,
             match: rules.Match | None = None) -> None:
    """Put ``env`` (reset already) into a hand-built position: ``balls`` on the table (leave out a cue ball in hand)."""
    game = env.unwrapped._game if hasattr(env, "unwrapped") else env._game
    if bih is None:
        bih = "kitchen" if phase == "break" else "none"
    on = frozenset(b for b in balls if b != 0)
    rack = rules.RackState(breaker, shooter, on, rules.Phase(phase), rules.BallInHand(bih), counts)
    snap = GameSnapshot(physics.place_balls(balls), rack, match or rules.Match(race_to=1, breaker=breaker),
                        game.tables.rngs[0].bit_generator.state, None)
    (env.unwrapped if hasattr(env, "unwrapped") else env).set_state(snap)


def act(phi: float = 90.0, V0: float = 2.0, *, placement: tuple[float, float] | None = None,
        bih: str = "anywhere", push_out: bool = False, pass_back: bool = False, b: float = 0.0) -> np.ndarray:
    """The action for a readable shot (and placement / flags)."""
    return actions.shot_to_action(physics.Shot(V0=V0, phi=phi, b=b), placement=placement, ball_in_hand=bih,
                                  push_out=push_out, pass_back=pass_back)


def pot_action(cue: tuple[float, float], obj: tuple[float, float], pocket: int = FOOT_LEFT, V0: float = 3.0,
               **kw) -> np.ndarray:
    """A straight shot sending the ball at ``obj`` into ``pocket`` from a cue ball at ``cue``."""
    ghost = ghost_ball(np.array(obj), pocket_aims(TABLE)[pocket], R)
    return act(direction_deg(np.array(cue), ghost), V0, **kw)


def on_line(target: tuple[float, float], start: tuple[float, float], dist: float) -> tuple[float, float]:
    """The point ``dist`` from ``target`` on the way back towards ``start``."""
    d = np.array(start) - np.array(target)
    d /= math.hypot(*d)
    p = np.array(target) + d * dist
    return (float(p[0]), float(p[1]))


class Scripted:
    """An opponent that plays its actions in turn (the last one repeats), recording what it saw."""

    def __init__(self, plays: Iterable[np.ndarray] | Callable[[np.ndarray], np.ndarray]) -> None:
        self.plays = plays if callable(plays) else list(plays)
        self.seen: list[np.ndarray] = []

    def act(self, obs: np.ndarray) -> np.ndarray:
        self.seen.append(obs)
        if callable(self.plays):
            return self.plays(obs)
        return self.plays[min(len(self.seen) - 1, len(self.plays) - 1)]


#: A foul for whoever plays it with ball in hand: a soft shot from the head-left area towards the head rail
#: that touches no ball (R-FOUL-WRONG-BALL) — placement near (0.2, 0.2), aim straight at the head cushion.
MISS = act(phi=-90.0, V0=0.6, placement=(0.3, 0.3))
