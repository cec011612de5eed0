"""Agents that jump: jump candidates from the closed-form flight, GhostBall and Search jumping a blocking ball,
nothing changed when the path is clear, and the match tallies counting jumps and their success."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import physics
from agents.arena.match import Tally, _tally
from agents.players.ghost_ball import GhostBallAgent, GhostBallConfig
from agents.players.search import SearchAgent, SearchConfig
from agents.protocol import JUMP_INTENTS, TableView
from agents.shots.jumps import jump_candidates, jump_height, jump_launch, jump_speed
from nineball_env import actions
from nineball_env.noise import make_noise
from nineball_env.rules import BallInHand, Declaration, Phase, RackState
from physics import EventKind as K

P = physics.DEFAULT_PARAMS
R = P.R

# the 1 straight up the table behind the 2, 30 cm in front of the cue ball: the path to the 1 is blocked
BLOCKED = {0: (0.6, 0.5), 1: (0.6, 1.3), 2: (0.6, 0.8), 3: (0.3, 2.0), 9: (1.0, 2.2)}


def _view(balls: dict[int, tuple[float, float]], noise: str = "icga") -> TableView:
    state = physics.place_balls(balls)
    on = frozenset(b for b in balls if b)
    rack = RackState(breaker=0, shooter=0, on_table=on, phase=Phase.NORMAL, ball_in_hand=BallInHand.NONE,
                     foul_counts=(0, 0))
    return TableView(state, rack, 0, noise=make_noise(noise))


def _first_hit(state: physics.BallState, shot: physics.Shot) -> tuple[int, bool]:
    """The first ball the cue ball touches, and whether it left the cloth on the way."""
    r = physics.simulate(state, shot)
    hit = next(int(e.ball_b if e.ball_a == 0 else e.ball_a) for e in r.events
               if e.kind == K.BALL_BALL and 0 in (e.ball_a, e.ball_b))
    flew = any(e.kind == K.BALL_AIRBORNE and e.ball_a == 0 for e in r.events)
    return hit, flew


def test_the_launch_predicts_the_simulated_first_landing() -> None:
    """``jump_launch`` is the physics' strike and slate bounce: the first landing lies 2·kh·kz·V²/g away."""
    for theta, b, V in ((45.0, 0.5, 5.0), (52.0, 0.5, 6.0), (60.0, 0.5, 7.5)):
        kh, kz = jump_launch(theta, b)
        r = physics.simulate(physics.place_balls({0: (0.6, 0.4)}), physics.Shot(V0=V, phi=90.0, theta=theta, b=b))
        i = next(i for i in range(len(r.events)) if r.events[i].kind == K.BALL_LANDING)
        assert r.events.state_a[i, 1] - 0.4 == pytest.approx(2 * kh * kz * V * V / P.g, rel=1e-9)
        assert jump_height(2 * kh * kz * V * V / P.g, V, (kh, kz), P.g) == pytest.approx(0.0, abs=1e-12)


def test_the_least_clearing_speed_is_where_the_flight_starts_to_clear_the_blocker() -> None:
    """Below ``jump_speed`` the jump hits the blocker; at it (and a little above) it clears it and hits the 1."""
    view = _view(BLOCKED)
    state = view.balls
    V = jump_speed(state.pos[0], state.pos[1], state.pos[[2]], 52.0, 0.5, P, clearance=0.0)
    assert V is not None and 3.0 < V < 8.0
    assert _first_hit(state, physics.Shot(V0=0.9 * V, phi=90.0, theta=52.0, b=0.5))[0] == 2
    assert _first_hit(state, physics.Shot(V0=1.05 * V, phi=90.0, theta=52.0, b=0.5)) == (1, True)


def test_no_jump_candidates_when_the_path_is_clear() -> None:
    view = _view({0: (0.6, 0.5), 1: (0.6, 1.3), 2: (0.9, 0.8), 9: (1.1, 2.2)})
    assert jump_candidates(view.balls.pos[0], view.balls.pos, view.on, 1) == []
    blocked = _view(BLOCKED)
    candidates = jump_candidates(blocked.balls.pos[0], blocked.balls.pos, blocked.on, 1)
    assert candidates and all(c.blockers == (2,) and 45.0 <= c.shot.theta <= 70.0 for c in candidates)
    assert all(c.shot.b == pytest.approx(min(math.sin(math.radians(c.shot.theta)), 0.5)) for c in candidates)
    assert {c.pocket is None for c in candidates} == {True, False}  # at the ball, and jump pots


@pytest.mark.parametrize("agent", [GhostBallAgent(),
                                   SearchAgent(SearchConfig(candidates=40, top=4, samples=4, refine=2, lookahead=0),
                                               seed=3)], ids=["ghost", "search"])
def test_a_blocked_agent_jumps_and_the_jump_hits_the_lowest_ball_first(agent) -> None:
    view = _view(BLOCKED)
    action = agent.decide(view)
    assert agent.intent in JUMP_INTENTS
    assert sum(agent.jumps.values()) == 1 and agent.jumps[agent.intent] == 1
    shot = actions.action_to_shot(action, view.scale)
    assert shot.theta >= 44.0
    assert _first_hit(view.balls, shot) == (1, True)  # over the 2, onto the 1


def test_a_clear_path_plays_exactly_as_without_jumps() -> None:
    """Where nothing blocks the lowest ball the jump search never runs: the same actions as the old agent."""
    positions = [
        {0: (0.6, 0.5), 1: (0.6, 1.3), 2: (0.9, 0.8), 9: (1.1, 2.2)},  # an easy pot
        {0: (0.2, 0.3), 1: (1.0, 2.3), 2: (0.7, 1.2), 3: (0.4, 1.9), 9: (0.9, 1.6)},  # a long cut: perhaps a safety
        {0: (0.6, 0.5), 1: (1.2, 2.4), 2: (0.1, 2.4), 9: (0.64, 2.45)},  # a hard one
        {0: (0.64, 2.4), 1: (0.64, R + 5e-4), 2: (0.5, 0.2), 3: (0.78, 0.2), 9: (0.3, 1.2)},  # a safety, path clear
    ]
    intents = set()
    for balls in positions:
        for new, old in ((GhostBallAgent(), GhostBallAgent(GhostBallConfig(jumps=False))),
                         (SearchAgent(SearchConfig(candidates=24, top=3, samples=3, refine=1, lookahead=0), seed=5),
                          SearchAgent(SearchConfig(candidates=24, top=3, samples=3, refine=1, lookahead=0, jumps=False),
                                      seed=5))):
            a, b = new.decide(_view(balls)), old.decide(_view(balls))
            assert np.array_equal(a, b) and new.intent == old.intent
            assert sum(new.jumps.values()) == 0
            intents.add(new.intent)
    assert intents == {"pot", "safety"}  # both branches that might jump were taken


def test_a_blocked_agent_without_jumps_does_not_jump() -> None:
    agent = GhostBallAgent(GhostBallConfig(jumps=False))
    agent.decide(_view(BLOCKED))
    assert agent.intent == "safety" and sum(agent.jumps.values()) == 0


def _outcome(foul: bool, pocketed: tuple[int, ...]) -> SimpleNamespace:
    ruling = SimpleNamespace(foul=foul, pocketed=pocketed, declaration=Declaration.SHOT,
                             before=SimpleNamespace(phase=Phase.NORMAL))
    return SimpleNamespace(ruling=ruling)


def test_jumps_and_their_success_are_counted() -> None:
    tally = Tally()
    for intent, foul, pocketed in (("jump", False, ()), ("jump", True, ()), ("jump-pot", False, (3,)),
                                   ("jump-pot", False, ()), ("jump-pot", True, (3,)), ("pot", False, (1,)),
                                   ("safety", False, ())):
        _tally(tally, _outcome(foul, pocketed), intent, 0.0)
    assert (tally.jump_attempts, tally.jumps_legal) == (5, 3)
    assert (tally.jump_pot_attempts, tally.jump_pots_made) == (3, 1)
    assert (tally.pot_attempts, tally.pots_made, tally.shots) == (1, 1, 7)
