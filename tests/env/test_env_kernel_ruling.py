"""``kernels.ruling.rule_batch`` (the vector env's rules on integer racks) rules exactly as ``rules.decide``."""

from __future__ import annotations

import numpy as np

from nineball_env.kernels import ruling as rk
from nineball_env.rules import (BallInHand, Declaration, Phase, RackState, RuleId, ShotSummary, decide,
                                decide_summary)


def test_codes_match_the_enums() -> None:
    names = {"R_CONTINUE": RuleId.CONTINUE, "R_WIN_9": RuleId.WIN_9, "R_BREAK_FIRST": RuleId.BREAK_FIRST,
             "R_BREAK_LEGAL": RuleId.BREAK_LEGAL, "R_BREAK_SCRATCH": RuleId.BREAK_SCRATCH,
             "R_BREAK_JUMP": RuleId.BREAK_JUMP, "R_BREAK_FOUL_BIH": RuleId.BREAK_FOUL_BIH, "R_BREAK_9": RuleId.BREAK_9,
             "R_BREAK_CONTINUE": RuleId.BREAK_CONTINUE, "R_PUSH_FREE": RuleId.PUSH_FREE,
             "R_PUSH_POCKETED": RuleId.PUSH_POCKETED, "R_PUSH_CHOICE": RuleId.PUSH_CHOICE,
             "R_FOUL_PENALTY": RuleId.FOUL_PENALTY, "R_FOUL_WRONG_BALL": RuleId.FOUL_WRONG_BALL,
             "R_FOUL_NO_RAIL": RuleId.FOUL_NO_RAIL, "R_FOUL_SCRATCH": RuleId.FOUL_SCRATCH,
             "R_FOUL_JUMP": RuleId.FOUL_JUMP, "R_BIH": RuleId.BIH, "R_SPOT_9": RuleId.SPOT_9,
             "R_THREE_FOULS": RuleId.THREE_FOULS, "R_WARNING": RuleId.WARNING}
    for name, rule in names.items():
        assert rk.RULES[getattr(rk, name)] is rule, name
    assert [rk.PHASES[i] for i in (rk.BREAK, rk.PUSH_ALLOWED, rk.PUSH_CHOICE, rk.NORMAL, rk.RACK_OVER)] == [
        Phase.BREAK, Phase.PUSH_OUT_ALLOWED, Phase.PUSH_OUT_CHOICE, Phase.NORMAL, Phase.RACK_OVER]
    assert [rk.BALL_IN_HAND[i] for i in (rk.BIH_NONE, rk.BIH_KITCHEN, rk.BIH_ANYWHERE)] == list(BallInHand)
    assert [rk.DECLARATIONS[i] for i in (rk.SHOT, rk.PUSH_OUT, rk.SHOOT, rk.PASS_BACK)] == [
        Declaration.SHOT, Declaration.PUSH_OUT, Declaration.SHOOT, Declaration.PASS_BACK]


def _random_state(rng: np.random.Generator) -> RackState:
    on = frozenset(b for b in range(1, 9) if rng.random() < 0.5) | {9}
    phase = [Phase.BREAK, Phase.PUSH_OUT_ALLOWED, Phase.PUSH_OUT_CHOICE, Phase.NORMAL][rng.integers(4)]
    breaker, shooter = int(rng.integers(2)), int(rng.integers(2))
    counts = (int(rng.integers(3)), int(rng.integers(3)))
    bih = BallInHand.NONE
    if phase is Phase.BREAK:
        shooter, bih, on = breaker, BallInHand.KITCHEN, frozenset(range(1, 10))
    elif phase is Phase.NORMAL and rng.random() < 0.4:
        bih = BallInHand.ANYWHERE
    return RackState(breaker=breaker, shooter=shooter, on_table=on, phase=phase, ball_in_hand=bih, foul_counts=counts)


def _random_summary(rng: np.random.Generator, state: RackState) -> ShotSummary:
    balls = [0, *sorted(state.on_table)]
    first = frozenset(rng.choice(balls[1:], size=min(int(rng.integers(0, 3)), len(balls) - 1), replace=False).tolist())
    fell = [b for b in balls if rng.random() < 0.15]
    rng.shuffle(fell)
    cut = int(rng.integers(len(fell) + 1))
    pocketed, off = tuple(fell[:cut]), tuple(fell[cut:]) if rng.random() < 0.2 else ()
    cushioned = frozenset(b for b in balls if rng.random() < 0.3) if first else frozenset()
    return ShotSummary(first, 0.1 if first else None, cushioned, pocketed, off)


def test_rule_batch_rules_like_the_engine_on_random_states() -> None:
    rng = np.random.default_rng(0)
    cases = []
    for _ in range(6000):
        state = _random_state(rng)
        if state.phase is Phase.PUSH_OUT_CHOICE:
            decl = [Declaration.SHOOT, Declaration.PASS_BACK][rng.integers(2)]
            cases.append((state, decl, ShotSummary(frozenset(), None, frozenset(), (), ()), decide(state, (), decl)))
            continue
        decl = Declaration.PUSH_OUT if state.phase is Phase.PUSH_OUT_ALLOWED and rng.random() < 0.5 else Declaration.SHOT
        summary = _random_summary(rng, state)
        cases.append((state, decl, summary, decide_summary(state, summary, decl)))
    n = len(cases)
    rack = np.stack([rk.rack_row(s) for s, _, _, _ in cases])
    declaration = np.array([rk.DECLARATIONS.index(d) for _, d, _, _ in cases])
    first = np.array([sum(1 << b for b in s.first_contact) for _, _, s, _ in cases])
    cushion = np.array([sum(1 << b for b in s.cushioned_after_contact) for _, _, s, _ in cases])
    pocketed, off = np.full((n, 10), -1), np.full((n, 10), -1)
    for i, (_, _, s, _) in enumerate(cases):
        pocketed[i, : len(s.pocketed)] = s.pocketed
        off[i, : len(s.off_table)] = s.off_table
    n_pocketed = np.array([len(s.pocketed) for _, _, s, _ in cases])
    n_off = np.array([len(s.off_table) for _, _, s, _ in cases])
    after, fouls = np.zeros_like(rack), np.zeros(n, dtype=np.int64)
    cited, n_cited, spotted = np.zeros((n, rk.MAX_CITED), dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, bool)
    rk.rule_batch(rack, declaration, first, cushion, pocketed, n_pocketed, off, n_off, after, fouls, cited, n_cited,
                  spotted)
    kinds = set()
    for i, (state, decl, summary, ruling) in enumerate(cases):
        assert rk.rack_state(after[i]) == ruling.after, (state, decl, summary)
        assert tuple(r for j, r in enumerate(rk.RULES) if fouls[i] >> j & 1) == ruling.fouls
        assert tuple(rk.RULES[c] for c in cited[i, : n_cited[i]]) == ruling.cited
        assert bool(spotted[i]) == ruling.nine_spotted
        kinds.add((ruling.after.phase, ruling.foul, ruling.nine_spotted))
    assert len(kinds) >= 8  # rack over, fouls, spotted 9s, push-out choices, plain continuations


def test_rack_rows_round_trip() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        state = _random_state(rng)
        assert rk.rack_state(rk.rack_row(state)) == state
