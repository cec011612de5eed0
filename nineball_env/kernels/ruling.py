"""``rules.decide`` for many tables at once, on integer-coded rack states (for the native vector env).

The rules engine (``nineball_env.rules``) is the reference: readable, frozen objects, one decision at
a time. The vector env keeps every table's rack as integers (phase, ball in hand, shooter, foul
counts, a bit mask of the object balls on the table) and rules a whole round of shots in one numba
call, from the ``shot_facts`` summaries. Each branch below mirrors ``rules.ruling`` (``break_fouls``,
``push_out_fouls``, ``shot_fouls``, ``_outcome``, ``_choice``) line by line; a test rules thousands of
random states and summaries both ways and demands identical rulings, cited rules in order included.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from nineball_env.rules import BallInHand, Declaration, Phase, RuleId

# Integer codes (tests check them against the enums).
PHASES: tuple[Phase, ...] = (Phase.BREAK, Phase.PUSH_OUT_ALLOWED, Phase.PUSH_OUT_CHOICE, Phase.NORMAL, Phase.RACK_OVER)
BALL_IN_HAND: tuple[BallInHand, ...] = (BallInHand.NONE, BallInHand.KITCHEN, BallInHand.ANYWHERE)
DECLARATIONS: tuple[Declaration, ...] = (Declaration.SHOT, Declaration.PUSH_OUT, Declaration.SHOOT, Declaration.PASS_BACK)
RULES: tuple[RuleId, ...] = tuple(RuleId)  # code = position in the rulebook order
BREAK, PUSH_ALLOWED, PUSH_CHOICE, NORMAL, RACK_OVER = 0, 1, 2, 3, 4
BIH_NONE, BIH_KITCHEN, BIH_ANYWHERE = 0, 1, 2
SHOT, PUSH_OUT, SHOOT, PASS_BACK = 0, 1, 2, 3
NO_PLAYER = -1
MAX_CITED = 8

R_CONTINUE, R_WIN_9 = 5, 6
R_BREAK_FIRST, R_BREAK_LEGAL, R_BREAK_SCRATCH, R_BREAK_JUMP, R_BREAK_FOUL_BIH, R_BREAK_9, R_BREAK_CONTINUE = (
    8, 9, 10, 11, 12, 13, 14)
R_PUSH_FREE, R_PUSH_POCKETED, R_PUSH_CHOICE = 17, 18, 19
R_FOUL_PENALTY, R_FOUL_WRONG_BALL, R_FOUL_NO_RAIL, R_FOUL_SCRATCH, R_FOUL_JUMP = 20, 21, 22, 23, 24
R_BIH, R_SPOT_9, R_THREE_FOULS, R_WARNING = 26, 27, 28, 29
NINE_BIT = 1 << 9

#: Columns of the integer rack state array (n, RACK_W).
SHOOTER, PHASE, IN_HAND, ON_BITS, COUNT0, COUNT1, BREAKER, WINNER, ENDED_BY = range(9)
RACK_W = 9


@njit(cache=True)
def _cite(cited, n_cited, k, rule):
    cited[k, n_cited[k]] = rule
    n_cited[k] += 1


@njit(cache=True)
def rule_batch(rack, declaration, first_bits, cushion_bits, pocketed, n_pocketed, off, n_off,
               after, fouls, cited, n_cited, spotted):
    """Rule on one action per row: ``rack`` (n, RACK_W) before, ``declaration`` codes, the shot facts of
    ``shot_facts.LogSummaries`` (ignored for the push-out choice). Writes the rack after (``after``), the
    fouls as a bit mask over rule codes, the cited rule codes in order, and whether the 9 is spotted."""
    for k in range(rack.shape[0]):
        for j in range(RACK_W):
            after[k, j] = rack[k, j]
        fouls[k] = 0
        n_cited[k] = 0
        spotted[k] = False
        shooter = rack[k, SHOOTER]
        opponent = 1 - shooter
        phase = rack[k, PHASE]
        decl = declaration[k]
        if decl == SHOOT or decl == PASS_BACK:  # the choice after a legal push-out (R-PUSH-CHOICE)
            after[k, SHOOTER] = shooter if decl == SHOOT else opponent
            after[k, PHASE] = NORMAL
            after[k, IN_HAND] = BIH_NONE
            _cite(cited, n_cited, k, R_PUSH_CHOICE)
            continue
        on_bits = rack[k, ON_BITS]
        lowest = 1
        while not (on_bits >> lowest) & 1:
            lowest += 1
        gone_bits = 0
        obj_pocketed = False
        cue_lost = False
        nine_pocketed = False
        for i in range(n_pocketed[k]):
            b = pocketed[k, i]
            gone_bits |= 1 << b
            if b == 0:
                cue_lost = True
            else:
                obj_pocketed = True
            if b == 9:
                nine_pocketed = True
        obj_off = False
        for i in range(n_off[k]):
            b = off[k, i]
            gone_bits |= 1 << b
            if b == 0:
                cue_lost = True
            else:
                obj_off = True
        hit_lowest = (first_bits[k] >> lowest) & 1 == 1
        is_break = phase == BREAK
        is_push = decl == PUSH_OUT
        f = 0
        if is_break:  # break_fouls
            if not hit_lowest:
                f |= 1 << R_BREAK_FIRST
            n_cushioned = 0
            for b in range(1, 10):
                n_cushioned += (cushion_bits[k] >> b) & 1
            if not obj_pocketed and n_cushioned < 4:
                f |= 1 << R_BREAK_LEGAL
            if cue_lost:
                f |= 1 << R_BREAK_SCRATCH
            if obj_off:
                f |= 1 << R_BREAK_JUMP
        else:  # shot_fouls / push_out_fouls
            if not is_push:
                if not hit_lowest:
                    f |= 1 << R_FOUL_WRONG_BALL
                if first_bits[k] != 0 and not obj_pocketed and cushion_bits[k] == 0:
                    f |= 1 << R_FOUL_NO_RAIL
            if cue_lost:
                f |= 1 << R_FOUL_SCRATCH
            if obj_off:
                f |= 1 << R_FOUL_JUMP
        fouls[k] = f
        nine_down = (gone_bits >> 9) & 1 == 1
        remaining = on_bits & ~gone_bits
        if is_push:
            _cite(cited, n_cited, k, R_PUSH_FREE)
            if obj_pocketed:
                _cite(cited, n_cited, k, R_PUSH_POCKETED)
        after[k, ON_BITS] = remaining
        if f != 0:
            count = rack[k, COUNT0 + shooter] + 1
            after[k, COUNT0 + shooter] = count
            if count == 3:  # R-THREE-FOULS: the rack is lost, nothing is spotted
                _cite(cited, n_cited, k, R_THREE_FOULS)
                after[k, SHOOTER] = NO_PLAYER
                after[k, PHASE] = RACK_OVER
                after[k, IN_HAND] = BIH_NONE
                after[k, WINNER] = opponent
                after[k, ENDED_BY] = R_THREE_FOULS
                continue
            _cite(cited, n_cited, k, R_BREAK_FOUL_BIH if is_break else R_FOUL_PENALTY)
            _cite(cited, n_cited, k, R_BIH)
            if nine_down:
                if is_break and nine_pocketed:
                    _cite(cited, n_cited, k, R_BREAK_9)
                _cite(cited, n_cited, k, R_SPOT_9)
            if count == 2:
                _cite(cited, n_cited, k, R_WARNING)
            after[k, SHOOTER] = opponent
            after[k, PHASE] = NORMAL
            after[k, IN_HAND] = BIH_ANYWHERE
            if nine_down:
                after[k, ON_BITS] = remaining | NINE_BIT
                spotted[k] = True
            continue
        after[k, COUNT0 + shooter] = 0  # a legal shot or push-out clears the count
        if is_push:  # R-PUSH-POCKETED / R-PUSH-CHOICE
            if nine_down:
                _cite(cited, n_cited, k, R_SPOT_9)
            _cite(cited, n_cited, k, R_PUSH_CHOICE)
            after[k, SHOOTER] = opponent
            after[k, PHASE] = PUSH_CHOICE
            after[k, IN_HAND] = BIH_NONE
            if nine_down:
                after[k, ON_BITS] = remaining | NINE_BIT
                spotted[k] = True
            continue
        if nine_pocketed:  # R-WIN-9
            if is_break:
                _cite(cited, n_cited, k, R_BREAK_9)
            _cite(cited, n_cited, k, R_WIN_9)
            after[k, SHOOTER] = NO_PLAYER
            after[k, PHASE] = RACK_OVER
            after[k, IN_HAND] = BIH_NONE
            after[k, WINNER] = shooter
            after[k, ENDED_BY] = R_WIN_9
            continue
        _cite(cited, n_cited, k, R_BREAK_CONTINUE if is_break else R_CONTINUE)
        after[k, SHOOTER] = shooter if obj_pocketed else opponent
        after[k, PHASE] = PUSH_ALLOWED if is_break else NORMAL
        after[k, IN_HAND] = BIH_NONE


def rack_row(state) -> np.ndarray:
    """A ``rules.RackState`` as one integer row (RACK_W,)."""
    row = np.zeros(RACK_W, dtype=np.int64)
    row[SHOOTER] = NO_PLAYER if state.shooter is None else state.shooter
    row[PHASE] = PHASES.index(state.phase)
    row[IN_HAND] = BALL_IN_HAND.index(state.ball_in_hand)
    row[ON_BITS] = sum(1 << b for b in state.on_table)
    row[COUNT0], row[COUNT1] = state.foul_counts
    row[BREAKER] = state.breaker
    row[WINNER] = NO_PLAYER if state.winner is None else state.winner
    row[ENDED_BY] = -1 if state.ended_by is None else RULES.index(state.ended_by)
    return row


def rack_state(row: np.ndarray):
    """An integer row back as a validated ``rules.RackState``."""
    from nineball_env.rules import RackState
    r = [int(v) for v in row]
    return RackState(breaker=r[BREAKER], shooter=None if r[SHOOTER] < 0 else r[SHOOTER],
                     on_table=frozenset(b for b in range(1, 10) if r[ON_BITS] >> b & 1), phase=PHASES[r[PHASE]],
                     ball_in_hand=BALL_IN_HAND[r[IN_HAND]], foul_counts=(r[COUNT0], r[COUNT1]),
                     winner=None if r[WINNER] < 0 else r[WINNER], ended_by=None if r[ENDED_BY] < 0 else RULES[r[ENDED_BY]])
