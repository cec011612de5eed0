"""The turn driver of NineBall-v0, written once for the single env (a ``TableBatch`` of one) and the vector env.

A step plays the learner's decisions on its tables, then the opponent's (in rounds, one batched query of a
shared opponent per round) until each table awaits the learner or is over; a deal re-seeds the opponent,
deals a match and plays the opponent's break, dealing again when the opponent wins before the learner's
first decision. A *seat* is the ``NineBallEnv`` of a table: its ``opponent``, ``np_random`` and ``draw_breaker``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from nineball_env import actions, opponents, rules
from nineball_env.game import Outcome, TableBatch
from nineball_env.kernels.codes import BALL_IN_HAND, PHASES
from nineball_env.kernels.codes import RackCol as C

LEARNER, OPPONENT = 0, 1
MAX_OPPONENT_DECISIONS = 1000  # a safety net: the rules end every inning long before this
MAX_REDEALS = 100  # deals the opponent may win outright before reset gives up
_PHASE_NAMES = tuple(str(p) for p in PHASES)
_BALL_IN_HAND_NAMES = tuple(str(b) for b in BALL_IN_HAND)
_PHASE, _IN_HAND, _COUNT0, _COUNT1 = (int(c) for c in (C.PHASE, C.IN_HAND, C.COUNT0, C.COUNT1))  # plain ints: fast
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
    redo = _over(tables, ks)
    while redo:
        for k in redo:
            redeals[k] += 1
            if redeals[k] > MAX_REDEALS:
                raise RuntimeError(f"the opponent won {redeals[k]} deals before the learner's first decision")
            tables.deal(k, seats[k].draw_breaker())
        theirs.update(opponent_turns(tables, seats, redo))
        redo = _over(tables, redo)
    return theirs, redeals


def _over(tables: TableBatch, ks: Sequence[int]) -> list[int]:
    """The tables of ``ks`` whose match is decided."""
    arr = np.asarray(ks, dtype=np.int64)
    return arr[tables.over(arr)].tolist() if len(ks) else []


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
            infos = None if opponents.batched(opponent) else [
                opponent_info(_PHASE_NAMES[tables.rack[k, _PHASE]], _BALL_IN_HAND_NAMES[tables.rack[k, _IN_HAND]])
                for k in active[rows].tolist()]
            acts[rows] = opponents.query_batch(opponent, seen[rows], infos)
        for k, decision in zip(active.tolist(), tables.play(active, OPPONENT, acts)):
            done[k].append(decision)
        active = active[tables.to_move(active, OPPONENT)]
    return done


def opponent_info(phase: str, ball_in_hand: str) -> dict[str, Any]:
    """What an opponent callable is told beside its observation."""
    return {"player": OPPONENT, "phase": phase, "ball_in_hand": ball_in_hand}


def info(tables: TableBatch, k: int, mine: Outcome | None, theirs: list[Outcome], parts: dict[str, float],
         redeals: int) -> dict[str, Any]:
    """The ``info`` of one step of table k: the learner's decision ``mine`` (None on reset), the opponent's
    decisions ``theirs``, and the state after them (learner first)."""
    rack = tables.rack[k].tolist()
    won = tables.won[k].tolist()
    return {
        "ruling": ruling_info(mine),
        "pocketed": mine.pocketed if mine else (),
        "placement": mine.placement if mine and mine.placement else _NO_PLACEMENT,
        "placement_adjusted": bool(mine and mine.placement_adjusted),
        "n_events": mine.n_events if mine else 0,
        "opponent": {
            "decisions": len(theirs),
            "fouls": sum(o.foul for o in theirs),
            "pocketed": tuple(b for o in theirs for b in o.pocketed),
            "rulings": tuple(f"{o.declaration}: {o.text()}" for o in theirs),
        },
        "phase": _PHASE_NAMES[rack[_PHASE]],
        "ball_in_hand": _BALL_IN_HAND_NAMES[rack[_IN_HAND]],
        "foul_counts": (rack[_COUNT0], rack[_COUNT1]),
        "score": (won[LEARNER], won[OPPONENT]),
        "racks": tuple("learner" if o.rack_winner == LEARNER else "opponent"
                       for o in ([mine] if mine else []) + theirs if o.rack_winner is not None),
        "redeals": redeals,
        "reward_parts": parts,
    }


def ruling_info(outcome: Outcome | None) -> dict[str, Any]:
    """The ruling part of ``info`` (empty values before the learner's first decision)."""
    if outcome is None:
        return {"declaration": "", "foul": False, "fouls": (), "cited": (), "text": ""}
    return {"declaration": str(outcome.declaration), "foul": outcome.foul, "fouls": rules.rule_names(outcome.fouls),
            "cited": rules.rule_names(outcome.cited), "text": outcome.text()}
