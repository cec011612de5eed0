"""The turn driver of NineBall-v0, written once for the single env (a ``TableBatch`` of one) and the vector env.

A step, in order (each line names what does it):

1. the learner's actions are checked (``actions.check_action``; the vector env's ``_check_actions``);
2. tables that reset are dealt: an opponent with ``seed()`` is re-seeded from the table's generator and its table
   dealt alone (``TableBatch.deal``), the others by the compiled turn itself before their decisions
   (``TableBatch.deal_drawn`` marks them);
3. one call of the compiled turn (``TableBatch.turn``, ``kernels.turn.play_turns``) plays every table: the
   learner's decision (decode, noise, placement, physics, rules, the 9 spotted, the cue ball taken up, a rack
   scored and the next dealt), then each decision of a compiled opponent (``AimingPolicy``), until every table
   awaits the learner, is over, or awaits a Python opponent;
4. a Python opponent is asked in rounds, one batched query per opponent object per round
   (``opponents.query_batch``), each round played by another call of the compiled turn; a deal a Python opponent
   wins before the learner's first decision is dealt again here (the compiled turn redeals its own);
5. the observation (``TableBatch.encode``), the reward (the turn's reward parts, ``rewards.REWARD_PARTS``) and
   the infos, read off the turn's decision records (``infos``; the vector env's ``vector.step_infos``).

A *seat* is what a table has besides its tables' arrays: its opponent and who sits where (``Seats``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from nineball_env import opponents
from nineball_env.rewards import REWARD_PARTS
from nineball_env.aiming import AimingPolicy
from nineball_env.game import VOID_TEXT, GameConfig, Outcome, TableBatch
from nineball_env.kernels.codes import (
    BALL_IN_HAND_NAMES, DECLARATIONS, MAX_REDEALS, PHASE_NAMES, RACK_W, PhaseCode, RecF, RecI, Seat, Status,
)
from nineball_env.kernels.codes import RackCol as C
from nineball_env.rules.ruling import cited_rules, describe_row, foul_rules, rule_names

LEARNER, OPPONENT = 0, 1
_PHASE, _IN_HAND, _COUNT0 = int(C.PHASE), int(C.IN_HAND), int(C.COUNT0)  # plain ints: fast
_NO_PLACEMENT = (float("nan"), float("nan"))
DECLARATION_NAMES = tuple(str(d) for d in DECLARATIONS)
_OVER, _WINNER = int(PhaseCode.RACK_OVER), int(C.WINNER)
# the record's columns as plain ints (an IntEnum member costs a lookup in Python)
(_DECLARATION, _FOULS, _N_CITED, _CITED, _N_POCKETED, _POCKETED, _SPOTTED, _AFTER, _PLACED, _ADJUSTED, _N_EVENTS,
 _VOIDED) = (int(c) for c in (RecI.DECLARATION, RecI.FOULS, RecI.N_CITED, RecI.CITED, RecI.N_POCKETED,
                              RecI.POCKETED, RecI.SPOTTED, RecI.AFTER, RecI.PLACED, RecI.ADJUSTED, RecI.N_EVENTS,
                              RecI.VOIDED))
_PLACE_X, _PLACE_Y = int(RecF.PLACE_X), int(RecF.PLACE_Y)
_EXTERNAL = int(Status.EXTERNAL)


def compiled(opponent: Any, config: GameConfig) -> bool:
    """``opponent`` is the default aiming policy on this table, so the compiled turn decides for it."""
    return (type(opponent) is AimingPolicy and opponent.params == config.params
            and (opponent.table is config.table or opponent.table.spec == config.table.spec))


def aiming_parameters(opponent: AimingPolicy) -> tuple[np.ndarray, float]:
    """What the compiled turn needs of an ``AimingPolicy``: its pocket aims and break speed."""
    return opponent._aims, float(opponent.break_speed)


@dataclass
class Seats:
    """Who sits at B tables besides the learner: each table's opponent, the seat kinds (B, 2) of (learner,
    opponent) (``kernels.codes.Seat``), and who breaks a new deal (0, 1 or -1: drawn). Change a kind with
    ``set_kind`` (it keeps ``external`` up to date)."""

    opponents: list[Any]
    kinds: np.ndarray
    first_breaker: int
    external: bool = field(init=False)  # some table has a Python opponent (asked between calls of the compiled turn)

    def __post_init__(self) -> None:
        self.external = bool((self.kinds[:, OPPONENT] == _EXTERNAL).any())

    def set_kind(self, k: int, kind: int) -> None:
        """Table k's opponent seat becomes ``kind``."""
        self.kinds[k, OPPONENT] = kind
        self.external = bool((self.kinds[:, OPPONENT] == _EXTERNAL).any())

    @classmethod
    def of(cls, opponents_: list[Any], config: GameConfig, first_breaker: int) -> "Seats":
        kinds = np.zeros((len(opponents_), 2), dtype=np.int64)
        for k, opponent in enumerate(opponents_):
            kinds[k, OPPONENT] = Seat.AIMING if compiled(opponent, config) else Seat.EXTERNAL
        return cls(list(opponents_), kinds, int(first_breaker))

    def draw_breaker(self, rng: np.random.Generator) -> int:
        """The first breaker of a new deal ("random" draws from the table's generator ``rng``)."""
        return int(rng.integers(2)) if self.first_breaker < 0 else self.first_breaker


def step(tables: TableBatch, seats: Seats, stepping: np.ndarray, acts: np.ndarray | None,
         resetting: Sequence[int] = (), renew: np.ndarray | None = None) -> Finals | None:
    """Steps 2-4 of the module docstring: the learner's checked actions ``acts`` on tables ``stepping``, deals of
    tables ``resetting`` (their generators seeded already) and every opponent decision due on both. The decisions
    are left in the tables' records. On an error (a strict placement, a bad opponent action) the tables are put
    back as they were and it is raised.

    ``renew`` (a (B,) mask: the tables this step truncates) asks for a same-step autoreset: a stepping table whose
    step ends its match or is in ``renew`` is, as soon as its step ends, saved (``Finals``, returned) and dealt a
    new match whose opening decisions are played in the same rounds as the others' (one batched opponent query
    per round for all of them). Each table makes the same calls in the same order as a step and a reset apart."""
    stepping = np.asarray(stepping, dtype=np.int64)
    resetting = _NO_TABLES if len(resetting) == 0 else np.asarray(resetting, dtype=np.int64)
    order = stepping if not resetting.size else resetting if not stepping.size else np.concatenate([stepping,
                                                                                                  resetting])
    external = seats.external
    saved = tables.snapshot() if external or tables.config.strict_placement else None
    try:
        tables.begin(order)
        _deal(tables, seats, resetting)
        if not external and renew is None:  # one call of the compiled turn plays the whole step
            tables.turn(order, seats.kinds, acts)
            return None
        return _rounds(tables, seats, order, acts, resetting, renew)
    except BaseException:
        if saved is not None:
            tables.restore(saved)
        raise


_NO_TABLES = np.zeros(0, dtype=np.int64)


class Finals:
    """Where tables stood when their step ended, before a same-step autoreset dealt them again (``step``'s
    ``renew``): the learner's observation, the reward parts, the step's records, the rack, score and redeals, and
    whether the match was decided, under ``TableBatch``'s names so that ``infos`` and ``vector.step_infos`` read them
    as they read the tables. Rows of the tables in ``mask`` only (the others hold no records)."""

    def __init__(self, tables: TableBatch) -> None:
        B = tables.rack.shape[0]
        self.mask = np.zeros(B, dtype=np.bool_)
        zeros = [np.zeros(a.shape, a.dtype) for a in (tables.obs, tables.parts, tables.rack, tables.won,
                                                      tables.redeals, tables.done, tables.n_rec, tables.rec_i)]
        self.obs, self.parts, self.rack, self.won, self.redeals, self.done, self.n_rec, self.rec_i = zeros
        self.rec_f = np.zeros((B, 1, tables.rec_f.shape[2]))  # the placement of the step's first decision is all read

    def save(self, tables: TableBatch, ks: np.ndarray) -> None:
        """Keep tables ``ks`` as they stand now."""
        if self.rec_i.shape[1] < tables.rec_i.shape[1]:  # the tables made room for more records
            grown = np.zeros_like(tables.rec_i)
            grown[:, :self.rec_i.shape[1]] = self.rec_i
            self.rec_i = grown
        d = tables.rec_i.shape[1]
        for k in ks.tolist():  # a table or two a step: a row at a time is cheaper than fancy indexing
            self.mask[k] = True
            self.obs[k], self.parts[k], self.rack[k] = tables.obs[k], tables.parts[k], tables.rack[k]
            self.won[k], self.redeals[k], self.done[k], self.n_rec[k] = (tables.won[k], tables.redeals[k],
                                                                         tables.done[k], tables.n_rec[k])
            self.rec_i[k, :d] = tables.rec_i[k]
            self.rec_f[k, 0] = tables.rec_f[k, 0]


def _rounds(tables: TableBatch, seats: Seats, order: np.ndarray, acts: np.ndarray | None, resetting: np.ndarray,
            renew: np.ndarray | None) -> Finals | None:
    """Play tables ``order`` (begun, ``resetting`` dealt) to the end of the step: a call of the compiled turn, then
    rounds, each one batched query per Python opponent object for the tables awaiting one (``_opponent_actions``)
    and one call of the compiled turn for them and for the tables dealt since the last call: the tables ``renew``
    (see ``step``) deals again as their steps end, and a deal a Python opponent won before the learner's first
    decision, dealt again (at most ``MAX_REDEALS`` times). The rounds' bookkeeping is on plain lists (a handful of
    tables a round: cheaper than numpy's indexing)."""
    finals: Finals | None = None
    fresh = [False] * tables.rack.shape[0]  # dealt in this step, the learner yet to decide
    for k in resetting.tolist():
        fresh[k] = True
    renewing = None if renew is None else renew.tolist()
    play, given = order, acts
    while True:
        tables.turn(play, seats.kinds, given)
        status = tables.status.tolist()
        ks = play.tolist()
        active = [k for k in ks if status[k] == _EXTERNAL]  # (the others await no one: their steps ended)
        dealt: list[int] = []
        if len(active) < len(ks):
            done = tables.done.tolist()
            ended = [k for k in ks if status[k] != _EXTERNAL]
            lost = [k for k in ended if fresh[k] and done[k]] if seats.external else []
            if renewing is not None:
                over = [k for k in ended if not fresh[k] and (done[k] or renewing[k])]
                if over:
                    rows = np.array(over, dtype=np.int64)
                    if finals is None:
                        finals = Finals(tables)
                    finals.save(tables, rows)
                    tables.begin(rows)
                    _deal(tables, seats, rows)
                    for k in over:
                        fresh[k] = True
                    dealt += over
            if lost:
                _redeal(tables, seats, np.array(lost, dtype=np.int64))
                dealt += lost
        if active:
            rows = np.array(active, dtype=np.int64)
            given = _opponent_actions(tables, seats, rows)
            play = np.array(active + dealt, dtype=np.int64) if dealt else rows
        elif dealt:
            play, given = np.array(dealt, dtype=np.int64), None
        else:
            return finals


def _deal(tables: TableBatch, seats: Seats, ks: np.ndarray) -> None:
    """Deal tables ``ks``: an opponent with ``seed()`` is re-seeded first (``opponents.reseed``), one table at a
    time; the others are dealt in one call."""
    if not ks.size:
        return
    seeded = [k for k in ks.tolist() if callable(getattr(seats.opponents[k], "seed", None))]
    for k in seeded:
        rng = tables.rngs[k]
        opponents.reseed(seats.opponents[k], rng)
        tables.deal(k, seats.draw_breaker(rng))
        tables.dealt[k] = True
    if seeded:
        skip = set(seeded)
        plain = np.array([k for k in ks.tolist() if k not in skip], dtype=np.int64)
    else:
        plain = ks
    if plain.size:
        tables.deal_drawn(plain)  # (marks them dealt)


def _opponent_actions(tables: TableBatch, seats: Seats, active: np.ndarray) -> np.ndarray:
    """The actions of the Python opponents of tables ``active`` (each awaiting one): one batched query per
    opponent object."""
    seen = tables.encode(active, OPPONENT)
    ks = active.tolist()
    ops = seats.opponents
    first = ops[ks[0]]
    if all(ops[k] is first for k in ks):  # one opponent object for every table (a shared batched one): one query
        return _query(tables, first, seen, ks)
    groups: dict[int, list[int]] = {}  # rows of ``active`` by opponent object: one batched query each
    for i, k in enumerate(ks):
        groups.setdefault(id(ops[k]), []).append(i)
    acts = np.empty((active.size, 9))
    for rows in groups.values():
        acts[rows] = _query(tables, ops[ks[rows[0]]], seen[rows], [ks[i] for i in rows])
    return acts


def _query(tables: TableBatch, opponent: Any, seen: np.ndarray, ks: list[int]) -> np.ndarray:
    """The actions (n, 9) of ``opponent`` for observations ``seen`` of tables ``ks`` (``opponents.query_batch``; an
    opponent that decides row by row is told each table's info)."""
    infos = None if opponents.batched(opponent) else [  # what an opponent callable is told
        {"player": OPPONENT, "phase": PHASE_NAMES[tables.rack[k, _PHASE]],
         "ball_in_hand": BALL_IN_HAND_NAMES[tables.rack[k, _IN_HAND]]} for k in ks]
    return opponents.query_batch(opponent, seen, infos)


def _redeal(tables: TableBatch, seats: Seats, ks: np.ndarray) -> None:
    """Deal again tables ``ks``, whose deal a Python opponent won before the learner's first decision (the
    compiled turn redeals its own)."""
    for k in ks.tolist():
        redeals = int(tables.redeals[k]) + 1
        if redeals > MAX_REDEALS:
            raise RuntimeError(f"the opponent won {redeals} deals before the learner's first decision")
        tables.begin([k])
        tables.redeals[k] = redeals
        tables.deal(k, seats.draw_breaker(tables.rngs[k]))


# -- infos -------------------------------------------------------------------------------------------------------------


def infos(tables: TableBatch, ks: list[int], stepped: list[bool]) -> list[dict[str, Any]]:
    """The ``info`` of one step of each of tables ``ks``: the learner's decision (the first of the step where
    ``stepped``, none on a reset), the opponent's decisions after it, the state after them (learner first) and the
    reward parts (the step's where ``stepped``, zeros on a reset), read off the records. The tables' small arrays
    are read in one ``tolist`` each for all of ``ks`` (whole when ``ks`` is every table), a table's records in one;
    the ruling parts of a record come from a cache (``_ruling``); each info is one dict display (fresh dicts: an
    info is the caller's to change)."""
    B = tables.rack.shape[0]
    rows = _EVERY if (B == 1 or ks == list(range(B))) and len(ks) == B else ks
    ns, racks, wons = tables.n_rec[rows].tolist(), tables.rack[rows].tolist(), tables.won[rows].tolist()
    redeals = tables.redeals[rows].tolist()
    parts = tables.parts[rows].tolist() if True in stepped else None
    rec_i, rec_f = tables.rec_i, tables.rec_f
    out = []
    for i, mine_too in enumerate(stepped):
        k, n = ks[i], ns[i]
        records = rec_i[k, :n].tolist() if n else _NO_RECORDS
        fouls, pocketed, rulings, ended = 0, [], [], []
        for r in records[1:] if mine_too else records:  # the opponent's decisions
            if r[_FOULS]:
                fouls += 1
            if r[_N_POCKETED]:
                pocketed += r[_POCKETED:_POCKETED + r[_N_POCKETED]]
            rulings.append(_ruling(r)[1])
        for r in records:
            if r[_AFTER + _PHASE] == _OVER:
                ended.append(_RACK_WINNERS[r[_AFTER + _WINNER] == LEARNER])
        rack, won = racks[i], wons[i]
        if mine_too:
            r = records[0]
            placed = r[_PLACED]
            out.append({
                "ruling": _ruling(r)[0].copy(), "pocketed": tuple(r[_POCKETED:_POCKETED + r[_N_POCKETED]]),
                "placement": tuple(rec_f[k, 0, _PLACE_X:_PLACE_Y + 1].tolist()) if placed else _NO_PLACEMENT,
                "placement_adjusted": bool(placed and r[_ADJUSTED]), "n_events": r[_N_EVENTS],
                "voided": bool(r[_VOIDED]),
                "opponent": {"decisions": n - 1, "fouls": fouls, "pocketed": tuple(pocketed),
                             "rulings": tuple(rulings)},
                "phase": PHASE_NAMES[rack[_PHASE]], "ball_in_hand": BALL_IN_HAND_NAMES[rack[_IN_HAND]],
                "foul_counts": (rack[_COUNT0], rack[_COUNT0 + 1]), "score": (won[0], won[1]), "racks": tuple(ended),
                "redeals": redeals[i], "reward_parts": dict(zip(REWARD_PARTS, parts[i]))})
        else:
            out.append({
                "ruling": {"declaration": "", "foul": False, "fouls": (), "cited": (), "text": ""}, "pocketed": (),
                "placement": _NO_PLACEMENT, "placement_adjusted": False, "n_events": 0, "voided": False,
                "opponent": {"decisions": n, "fouls": fouls, "pocketed": tuple(pocketed), "rulings": tuple(rulings)},
                "phase": PHASE_NAMES[rack[_PHASE]], "ball_in_hand": BALL_IN_HAND_NAMES[rack[_IN_HAND]],
                "foul_counts": (rack[_COUNT0], rack[_COUNT0 + 1]), "score": (won[0], won[1]), "racks": tuple(ended),
                "redeals": redeals[i], "reward_parts": dict.fromkeys(REWARD_PARTS, 0.0)})
    return out


_NO_RECORDS: list[list[int]] = []
_EVERY = slice(None)
_RACK_WINNERS = ("opponent", "learner")  # by winner == LEARNER
_RULINGS: dict[tuple[int, ...], tuple[dict[str, Any], str]] = {}  # ``_ruling``'s cache
_RULINGS_MAX = 1 << 14


def _ruling(r: list[int]) -> tuple[dict[str, Any], str]:
    """A record's ruling as an info's ``ruling`` dict (to be copied: infos are the caller's to change) and the
    opponent's ruling line ("declaration: text"), cached by the record's ruling columns (declaration, fouls, cited,
    spotted, the rack after, voided): the same rulings come back often."""
    key = (*r[_DECLARATION:_N_POCKETED], r[_SPOTTED], r[_VOIDED], *r[_AFTER:_AFTER + RACK_W])
    hit = _RULINGS.get(key)
    if hit is None:
        if len(_RULINGS) >= _RULINGS_MAX:
            _RULINGS.clear()
        fouls, cited = foul_rules(r[_FOULS]), cited_rules(tuple(r[_CITED:_CITED + r[_N_CITED]]))
        text = _text(r)
        declaration = DECLARATION_NAMES[r[_DECLARATION]]
        hit = _RULINGS[key] = ({"declaration": declaration, "foul": r[_FOULS] != 0, "fouls": rule_names(fouls),
                                "cited": rule_names(cited), "text": text}, f"{declaration}: {text}")
    return hit


def _no_decision() -> dict[str, Any]:
    """``decision_info`` before the first decision (a fresh dict: infos are the caller's to change)."""
    return {"ruling": {"declaration": "", "foul": False, "fouls": (), "cited": (), "text": ""}, "pocketed": (),
            "placement": _NO_PLACEMENT, "placement_adjusted": False, "n_events": 0, "voided": False}


def _text(r: list[int]) -> str:
    """``Outcome.text`` of a record's ints (``_ruling`` caches it)."""
    if r[_VOIDED]:
        return VOID_TEXT
    return describe_row(foul_rules(r[_FOULS]), cited_rules(tuple(r[_CITED:_CITED + r[_N_CITED]])), bool(r[_SPOTTED]),
                        r[_AFTER:_AFTER + RACK_W])


def decision_info(outcome: Outcome | None) -> dict[str, Any]:
    """The part of an ``info`` about one decision (empty values before the first): the ruling, the balls it
    pocketed, where a cue ball in hand went ((nan, nan) without one), the events of the shot and whether it was
    void (``Outcome.voided``)."""
    if outcome is None:
        return _no_decision()
    return {"ruling": {"declaration": str(outcome.declaration), "foul": outcome.foul,
                       "fouls": rule_names(outcome.fouls), "cited": rule_names(outcome.cited),
                       "text": outcome.text()},
            "pocketed": outcome.pocketed, "placement": outcome.placement or _NO_PLACEMENT,
            "placement_adjusted": outcome.placement_adjusted, "n_events": outcome.n_events, "voided": outcome.voided}


def table_info(tables: TableBatch, k: int, me: int) -> dict[str, Any]:
    """The part of an ``info`` about table k after a step, seen by player ``me`` (its counts and score first)."""
    rack = tables.rack[k].tolist()
    won = tables.won[k].tolist()
    return {"phase": PHASE_NAMES[rack[_PHASE]], "ball_in_hand": BALL_IN_HAND_NAMES[rack[_IN_HAND]],
            "foul_counts": (rack[_COUNT0 + me], rack[_COUNT0 + 1 - me]), "score": (won[me], won[1 - me])}
