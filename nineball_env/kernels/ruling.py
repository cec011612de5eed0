"""The rules of nine-ball on packed rack states: ``rule_batch`` rules one action per row, in numba.

This kernel IS the rules engine: ``nineball_env.rules.decide`` packs a ``RackState`` into one row,
calls it and unpacks the ``Ruling``; ``game.TableBatch`` (a lone ``Game`` is a batch of one) rules a
whole round of tables in one call. It reads the shot facts of ``kernels.facts`` (first contact,
cushions after it, balls pocketed / driven off, in order) and cites docs/rules.md by ``RuleCode``;
every branch below is one rule. Codes and columns come from ``kernels.codes``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nineball_env.kernels.codes import MAX_CITED, NO_PLAYER, RACK_W, BallInHandCode, DeclarationCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.codes import RuleCode as R
from nineball_env.kernels.facts import N_BALLS, summarize_rows

NINE_BIT = 1 << 9
_NO_PLAYER, _ROW0 = np.int64(NO_PLAYER), np.int64(0)  # typed, not literals: each callee compiles once
__all__ = ["MAX_CITED", "RACK_W", "rule_batch", "rule_log"]


@njit(cache=True)
def _cite(cited, n_cited, k, rule):
    cited[k, n_cited[k]] = rule
    n_cited[k] += 1


@njit(cache=True)
def _bits(balls, n, k):
    """The bit mask of the first ``n[k]`` balls of row k of ``balls``."""
    bits = 0
    for i in range(n[k]):
        bits |= 1 << balls[k, i]
    return bits


@njit(cache=True)
def _next(after, k, shooter, phase, in_hand):
    """Row k's next shooter, phase and ball in hand."""
    after[k, C.SHOOTER] = shooter
    after[k, C.PHASE] = phase
    after[k, C.IN_HAND] = in_hand


@njit(cache=True)
def _end(after, k, winner, rule):
    """Row k's rack is over (R-GAME-END): won by ``winner``, ended by ``rule``."""
    _next(after, k, _NO_PLAYER, PhaseCode.RACK_OVER, BallInHandCode.NONE)
    after[k, C.WINNER] = winner
    after[k, C.ENDED_BY] = rule


@njit(cache=True)
def _spot(after, k, nine_down):
    """Put the 9 back on row k's table when it went down (R-SPOT-9); whether it did."""
    if nine_down:
        after[k, C.ON_BITS] |= NINE_BIT
    return nine_down


@njit(cache=True)
def rule_batch(rack, declaration, first_bits, cushion_bits, pocketed, n_pocketed, off, n_off,
               after, fouls, cited, n_cited, spotted):
    """Rule on one action per row: ``rack`` (n, RACK_W) before, ``declaration`` codes, the shot facts of
    ``rules.facts.ShotFacts`` (ignored for the push-out choice). Writes the rack after (``after``), the
    fouls as a bit mask over rule codes, the cited rule codes in order, and whether the 9 is spotted."""
    for k in range(rack.shape[0]):
        for j in range(RACK_W):
            after[k, j] = rack[k, j]
        fouls[k] = 0
        n_cited[k] = 0
        spotted[k] = False
        shooter = rack[k, C.SHOOTER]
        opponent = 1 - shooter
        phase = rack[k, C.PHASE]
        decl = declaration[k]
        if decl == DeclarationCode.SHOOT or decl == DeclarationCode.PASS_BACK:  # R-PUSH-CHOICE
            next_shooter = shooter if decl == DeclarationCode.SHOOT else opponent
            _next(after, k, next_shooter, PhaseCode.NORMAL, BallInHandCode.NONE)
            _cite(cited, n_cited, k, R.PUSH_CHOICE)
            continue
        on_bits = rack[k, C.ON_BITS]
        lowest = 1
        while not (on_bits >> lowest) & 1:
            lowest += 1
        pocketed_bits = _bits(pocketed, n_pocketed, k)
        off_bits = _bits(off, n_off, k)
        gone_bits = pocketed_bits | off_bits
        cue_lost = gone_bits & 1 == 1
        obj_pocketed = pocketed_bits & ~1 != 0
        obj_off = off_bits & ~1 != 0
        nine_pocketed = pocketed_bits & NINE_BIT != 0
        hit_lowest = (first_bits[k] >> lowest) & 1 == 1
        is_break = phase == PhaseCode.BREAK
        is_push = decl == DeclarationCode.PUSH_OUT
        f = 0
        if is_break:  # R-BREAK-FIRST, R-BREAK-LEGAL, R-BREAK-SCRATCH, R-BREAK-JUMP
            if not hit_lowest:
                f |= 1 << R.BREAK_FIRST
            n_cushioned = 0
            for b in range(1, 10):
                n_cushioned += (cushion_bits[k] >> b) & 1
            if not obj_pocketed and n_cushioned < 4:
                f |= 1 << R.BREAK_LEGAL
            if cue_lost:
                f |= 1 << R.BREAK_SCRATCH
            if obj_off:
                f |= 1 << R.BREAK_JUMP
        else:  # R-FOUL-WRONG-BALL, R-FOUL-NO-RAIL (not on a push-out, R-PUSH-FREE), R-FOUL-SCRATCH, R-FOUL-JUMP
            if not is_push:
                if not hit_lowest:
                    f |= 1 << R.FOUL_WRONG_BALL
                if first_bits[k] != 0 and not obj_pocketed and cushion_bits[k] == 0:
                    f |= 1 << R.FOUL_NO_RAIL
            if cue_lost:
                f |= 1 << R.FOUL_SCRATCH
            if obj_off:
                f |= 1 << R.FOUL_JUMP
        fouls[k] = f
        nine_down = (gone_bits >> 9) & 1 == 1
        if is_push:
            _cite(cited, n_cited, k, R.PUSH_FREE)
            if obj_pocketed:
                _cite(cited, n_cited, k, R.PUSH_POCKETED)
        after[k, C.ON_BITS] = on_bits & ~gone_bits
        if f != 0:
            count = rack[k, C.COUNT0 + shooter] + 1
            after[k, C.COUNT0 + shooter] = count
            if count == 3:  # R-THREE-FOULS: the rack is lost, nothing is spotted
                _cite(cited, n_cited, k, R.THREE_FOULS)
                _end(after, k, opponent, R.THREE_FOULS)
                continue
            _cite(cited, n_cited, k, R.BREAK_FOUL_BIH if is_break else R.FOUL_PENALTY)
            _cite(cited, n_cited, k, R.BIH)
            if nine_down:
                if is_break and nine_pocketed:
                    _cite(cited, n_cited, k, R.BREAK_9)
                _cite(cited, n_cited, k, R.SPOT_9)
            if count == 2:
                _cite(cited, n_cited, k, R.WARNING)
            _next(after, k, opponent, PhaseCode.NORMAL, BallInHandCode.ANYWHERE)
            spotted[k] = _spot(after, k, nine_down)
            continue
        after[k, C.COUNT0 + shooter] = 0  # a legal shot or push-out clears the count
        if is_push:  # R-PUSH-POCKETED / R-PUSH-CHOICE
            if nine_down:
                _cite(cited, n_cited, k, R.SPOT_9)
            _cite(cited, n_cited, k, R.PUSH_CHOICE)
            _next(after, k, opponent, PhaseCode.PUSH_OUT_CHOICE, BallInHandCode.NONE)
            spotted[k] = _spot(after, k, nine_down)
            continue
        if nine_pocketed:  # R-WIN-9
            if is_break:
                _cite(cited, n_cited, k, R.BREAK_9)
            _cite(cited, n_cited, k, R.WIN_9)
            _end(after, k, shooter, R.WIN_9)
            continue
        _cite(cited, n_cited, k, R.BREAK_CONTINUE if is_break else R.CONTINUE)
        _next(after, k, shooter if obj_pocketed else opponent,
              PhaseCode.PUSH_OUT_ALLOWED if is_break else PhaseCode.NORMAL, BallInHandCode.NONE)


@njit(cache=True)
def rule_log(rows, rack_row, declaration, simultaneous):
    """The single-table path in one call: the facts of one shot's time-ordered log ``rows`` (``kernels.facts``)
    ruled by ``rule_batch`` from the packed rack ``rack_row`` with a ``DeclarationCode``. Returns the rack after,
    the fouls bit mask, the cited rule codes, whether the 9 is spotted, and the balls pocketed / driven off."""
    first_bits = np.zeros(1, dtype=np.int64)
    first_time = np.zeros(1)
    cushion_bits = np.zeros(1, dtype=np.int64)
    pocketed = np.zeros((1, N_BALLS), dtype=np.int64)
    n_pocketed = np.zeros(1, dtype=np.int64)
    off = np.zeros((1, N_BALLS), dtype=np.int64)
    n_off = np.zeros(1, dtype=np.int64)
    summarize_rows(rows, rows.shape[0], _ROW0, simultaneous, first_bits, first_time, cushion_bits, pocketed, n_pocketed,
                   off, n_off)
    after = np.empty((1, RACK_W), dtype=np.int64)
    fouls = np.empty(1, dtype=np.int64)
    cited = np.empty((1, MAX_CITED), dtype=np.int64)
    n_cited = np.empty(1, dtype=np.int64)
    spotted = np.empty(1, dtype=np.bool_)
    decl = np.full(1, declaration, dtype=np.int64)
    rule_batch(rack_row.reshape(1, RACK_W), decl, first_bits, cushion_bits, pocketed, n_pocketed, off, n_off,
               after, fouls, cited, n_cited, spotted)
    return (after[0], fouls[0], cited[0, : n_cited[0]].copy(), spotted[0], pocketed[0, : n_pocketed[0]].copy(),
            off[0, : n_off[0]].copy())
