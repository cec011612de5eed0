"""The turn driver of NineBall-v0, written once for the single env (a ``TableBatch`` of one) and the vector env.

A step plays the learner's decisions on its tables, then the opponent's (in rounds, one batched query of a
shared opponent per round) until each table awaits the learner or is over; a deal re-seeds the opponent,
deals a match and plays the opponent's break, dealing again when the opponent wins before the learner's
first decision. A *seat* is the ``NineBallEnv`` of a table: its ``opponent``, ``np_random`` and ``draw_breaker``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from nineball_env import actions, opponents
from nineball_env.game import Outcome, TableBatch
from nineball_env.kernels.codes import BALL_IN_HAND_NAMES, PHASE_NAMES
from nineball_env.kernels.codes import RackCol as C
from nineball_env.rules.ruling import rule_names

LEARNER, OPPONENT = 0, 1
MAX_OPPONENT_DECISIONS = 1000  # a safety net: the rules end every inning long before this
MAX_REDEALS = 100  # deals the opponent may win outright before reset gives up
_PHASE, _IN_HAND, _COUNT0 = int(C.PHASE), int(C.IN_HAND), int(C.COUNT0)  # plain ints: fast
_NO_PLACEMENT = (float("nan"), float("nan"))


def step(tables: TableBatch, seats: Sequence[Any], stepping: np.ndarray, acts: np.ndarray,
         resetting: Sequence[int] = ()) -> tuple[dict[int, Outcome], dict[int, list[Outcome]], dict[int, int]]:
    """The learner's checked actions ``acts`` on tables ``stepping``, then deals of tables ``resetting`` and the
    opponents' turns on both: (the learner's outcome, the opponent's outcomes, redeals) per table. On an error
    (a strict placement, a bad opponent action) the tables are put back as they were and it is raised."""
    saved = tables.snapshot()
    try:
        mine = dict(zip(stepping.tolist(), tables.play(stepping, LEARNER, acts)))
        theirs, redeals = deal(tables, seats, resetting, stepping.tolist())
    except BaseException:
        tables.restore(saved)
        raise
    return mine, theirs, redeals


def deal(tables: TableBatch, seats: Sequence[Any], ks: Sequence[int], stepping: Sequence[int] = ()
         ) -> tuple[dict[int, list[Outcome]], dict[int, int]]:
    """Deal tables ``ks`` (their generators already seeded) and play every opponent decision due on tables
    ``stepping`` and ``ks`` together; redeal the deals the opponent wins outright. The opponent's outcomes
    per table and the redeals per dealt table."""
    for k in ks:
        opponents.reseed(seats[k].opponent, seats[k].np_random)
        tables.deal(k, seats[k].draw_breaker())
    theirs = opponent_turns(tables, seats, [*stepping, *ks])
    redeals = dict.fromkeys(ks, 0)
    redo = [k for k in ks if tables.done[k]]
    while redo:
        for k in redo:
            redeals[k] += 1
            if redeals[k] > MAX_REDEALS:
                raise RuntimeError(f"the opponent won {redeals[k]} deals before the learner's first decision")
            tables.deal(k, seats[k].draw_breaker())
        theirs.update(opponent_turns(tables, seats, redo))
        redo = [k for k in redo if tables.done[k]]
    return theirs, redeals


def opponent_turns(tables: TableBatch, seats: Sequence[Any], ks: Sequence[int]) -> dict[int, list[Outcome]]:
    """The opponents' decisions on tables ``ks``, in rounds played together, until each table awaits the
    learner or is over."""
    done: dict[int, list[Outcome]] = {k: [] for k in ks}
    candidates = np.asarray(ks, dtype=np.int64)
    active = candidates[tables.to_move(candidates, OPPONENT)]
    while active.size:
        seen = tables.encode(active, OPPONENT)
        groups: dict[int, list[int]] = {}  # rows of ``active`` by opponent object: one batched query each
        for i, k in enumerate(active.tolist()):
            if len(done[k]) >= MAX_OPPONENT_DECISIONS:
                raise RuntimeError(f"the opponent made {MAX_OPPONENT_DECISIONS} decisions in a row")
            groups.setdefault(id(seats[k].opponent), []).append(i)
        acts = np.empty((active.size, actions.N_ACTION))
        for rows in groups.values():
            opponent = seats[int(active[rows[0]])].opponent
            infos = None if opponents.batched(opponent) else [  # what an opponent callable is told
                {"player": OPPONENT, "phase": PHASE_NAMES[tables.rack[k, _PHASE]],
                 "ball_in_hand": BALL_IN_HAND_NAMES[tables.rack[k, _IN_HAND]]} for k in active[rows].tolist()]
            acts[rows] = opponents.query_batch(opponent, seen[rows], infos)
        for k, decision in zip(active.tolist(), tables.play(active, OPPONENT, acts)):
            done[k].append(decision)
        active = active[tables.to_move(active, OPPONENT)]
    return done


def info(tables: TableBatch, k: int, mine: Outcome | None, theirs: list[Outcome], parts: dict[str, float],
         redeals: int) -> dict[str, Any]:
    """The ``info`` of one step of table k: the learner's decision ``mine`` (None on reset), the opponent's
    decisions ``theirs``, and the state after them (learner first)."""
    return {
        **decision_info(mine),
        "opponent": {
            "decisions": len(theirs),
            "fouls": sum(o.foul for o in theirs),
            "pocketed": tuple(b for o in theirs for b in o.pocketed),
            "rulings": tuple(f"{o.declaration}: {o.text()}" for o in theirs),
        },
        **table_info(tables, k, LEARNER),
        "racks": tuple("learner" if o.rack_winner == LEARNER else "opponent"
                       for o in ([mine] if mine else []) + theirs if o.rack_winner is not None),
        "redeals": redeals,
        "reward_parts": parts,
    }


def decision_info(outcome: Outcome | None) -> dict[str, Any]:
    """The part of an ``info`` about one decision (empty values before the first): the ruling, the balls it
    pocketed, where a cue ball in hand went ((nan, nan) without one) and the events of the shot."""
    if outcome is None:
        return {"ruling": {"declaration": "", "foul": False, "fouls": (), "cited": (), "text": ""}, "pocketed": (),
                "placement": _NO_PLACEMENT, "placement_adjusted": False, "n_events": 0}
    return {"ruling": {"declaration": str(outcome.declaration), "foul": outcome.foul,
                       "fouls": rule_names(outcome.fouls), "cited": rule_names(outcome.cited),
                       "text": outcome.text()},
            "pocketed": outcome.pocketed, "placement": outcome.placement or _NO_PLACEMENT,
            "placement_adjusted": bool(outcome.placement_adjusted), "n_events": outcome.n_events}


def table_info(tables: TableBatch, k: int, me: int) -> dict[str, Any]:
    """The part of an ``info`` about table k after a step, seen by player ``me`` (its counts and score first)."""
    rack = tables.rack[k].tolist()
    won = tables.won[k].tolist()
    return {"phase": PHASE_NAMES[rack[_PHASE]], "ball_in_hand": BALL_IN_HAND_NAMES[rack[_IN_HAND]],
            "foul_counts": (rack[_COUNT0 + me], rack[_COUNT0 + 1 - me]), "score": (won[me], won[1 - me])}
