"""The compiled turn: every decision of a step on B tables, in one numba call (``play_turns``).

A table's turn, in order, each step by the function named:

1. the given action (the learner's, or a Python opponent's) or the aiming opponent's (``aiming.decide_row``)
   is played by ``play_decision``:
   decode it (``round.shot_of``), add execution noise drawn from the table's generator (``draws``,
   ``round.perturbed``), place a cue ball in hand (``placement.is_free``, ``placement.nearest_free``),
   simulate the shot (``shot.simulate``: the physics' ``run_shot`` behind a C pointer; continued past the caps on
   the cloth by ``complete_shot``; a shot a cap stopped with a ball in the air is replayed from its start with the
   replay caps, and voided when even they stop it in the air: no ruling, the table as it was, ``strike_shot``),
   read its event log (``facts.summarize_rows``), rule (``ruling.rule_batch``), spot the 9
   (``rack.spot_nine``), take up a cue ball that goes in hand, score a finished rack and deal the next one
   (``score``, ``new_rack``), and write the decision's record (``codes.RecI``, ``codes.RecF``) and
   reward parts;
2. the next player's seat (``codes.Seat``) decides what follows: the aiming opponent decides inside the
   turn and step 1 repeats; a STOP seat (the learner) or an EXTERNAL one (a Python opponent) ends the
   table's turn, and so does the end of the match. A deal the opponent wins before the learner's first
   decision is dealt again (``deal``).

Tables are independent, so several threads may run ``play_turns`` at once on the same tables (it releases the
GIL): each claims the next table when it gets free (an atomic counter), the caller puts the costly ones (breaks)
first, so a thread that drew a break does not hold up the others. Every draw comes from the table's own
generator, so which thread plays a table, and when, changes nothing. The physics is called through a C pointer
(``shot.simulate``), so these kernels carry no copy of it.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from nineball_env.kernels.aiming import decide_batch
from nineball_env.kernels.codes import (
    MAX_CITED, MAX_CONTINUATIONS, MAX_OPPONENT_DECISIONS, MAX_REDEALS, N_ACTION, N_BALLS, OBS_SIZE, RACK_W, A,
    BallInHandCode, Cfg, DeclarationCode, PhaseCode, RecF, RecI, Seat, Status,
)
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.draws import bounded_int, standard_normal
from nineball_env.kernels.facts import summarize_rows
from nineball_env.kernels.observe import encode_rows
from nineball_env.kernels.placement import is_free, nearest_free
from nineball_env.kernels.rack import deal, score, spot_nine
from nineball_env.kernels.shot import simulate
from nineball_env.kernels.round import lin, perturbed, shot_of
from nineball_env.kernels.ruling import rule_batch
from physics.kernels.codes import FLAG_EVENT_CAP, FLAG_IN_FLIGHT, FLAG_TIME_CAP, LOG_W
from physics.kernels.layout import OK
from physics.state import Motion

_ON_TABLE_MAX, _STATIONARY, _POCKETED = float(Motion.ROLLING), float(Motion.STATIONARY), float(Motion.POCKETED)
_DEG = math.pi / 180.0  # math.radians' and np.radians' factor
# numba compiles a kernel once per distinct argument types and types a literal (``True``, ``0``) as a type of its own,
# also a variable set to a literal and changed later: values passed to kernels are typed, never literals, so that
# every callee compiles once (tests/agents/test_agents_compile_once.py).
_TRUE, _FALSE, _ZERO, _TWO = np.bool_(True), np.bool_(False), np.int64(0), np.int64(2)


# -- one decision ---------------------------------------------------------------------------------------------------


@njit(cache=True)
def _copy(src, dst):
    """``dst[:] = src`` for (n, m) arrays, element by element (numba's array assignment costs seconds to compile)."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True)
def complete_shot(state, log, count, flags, segments, jaws, pockets, p, width, length, rail, tol, max_events, physics,
                  max_time):
    """The whole time-ordered log rows of a shot that ``run_shot`` simulated in ``state`` (``count`` events, all in
    ``log``) and its flags. A shot that hit the event or time cap on the cloth is continued from where it stopped
    (no strike) at most MAX_CONTINUATIONS times, each log's times running on from the last; whatever still moves
    on the cloth after that is stopped where it is, ``state`` left at rest. A cap that stops the shot (or a
    continuation) with a ball in the air ends it there, FLAG_IN_FLIGHT in the flags: no continuation can start
    from a ball in the air (its height is not in the state), the caller replays the shot (``strike_shot``)."""
    if not flags & (FLAG_EVENT_CAP | FLAG_TIME_CAP) or flags & FLAG_IN_FLIGHT:
        return log[:count], flags
    rows = log[:count]
    offset = rows[count - 1, 0] if count > 0 else 0.0
    more = np.empty((max_events, LOG_W))  # the event cap bounds a continuation's log
    out = np.empty(4, dtype=np.int64)
    none = np.zeros(5)
    capped, calls = True, 0
    while capped and calls < MAX_CONTINUATIONS:
        c, f, _, _, _ = simulate(physics, state, none, _FALSE, segments, jaws, pockets, p, width, length, rail, tol,
                                 max_events, max_time, more, out)
        joined = np.empty((rows.shape[0] + c, LOG_W))
        n = rows.shape[0]
        for i in range(n + c):  # (element by element: numba's array assignment costs seconds to compile)
            for j in range(LOG_W):
                joined[i, j] = rows[i, j] if i < n else more[i - n, j]
            if i >= n:
                joined[i, 0] += offset
        rows = joined
        if f & FLAG_IN_FLIGHT:
            return rows, flags | f
        if c > 0:
            offset = offset + more[c - 1, 0]
        capped = (f & (FLAG_EVENT_CAP | FLAG_TIME_CAP)) != 0
        calls += 1
    if capped:  # give up: stop whatever still moves on the cloth where it is
        for b in range(state.shape[0]):
            if state[b, 7] <= _ON_TABLE_MAX and state[b, 7] != _STATIONARY:
                for j in range(2, 7):
                    state[b, j] = 0.0
                state[b, 7] = _STATIONARY
    return rows, flags


@njit(cache=True)
def strike_shot(start, state, strike, log, segments, jaws, pockets, p, width, length, rail, tol, max_events,
                max_time, physics):
    """Simulate ``strike`` from ``start`` into ``state`` with the caps given, whole (``complete_shot``): (rows,
    flags, layout code, n_events of the first simulation). A log longer than ``log`` is simulated again with room."""
    _copy(start, state)
    out = np.empty(4, dtype=np.int64)
    count, flags, code, _, _ = simulate(physics, state, strike, _TRUE, segments, jaws, pockets, p, width, length,
                                        rail, tol, max_events, max_time, log, out)
    if code != OK:
        return log[:0], flags, code, count
    shot_log = log
    if count > log.shape[0]:  # the log overflowed: the same shot again, with room for all of it
        shot_log = np.empty((count, LOG_W))
        _copy(start, state)
        count, flags, code, _, _ = simulate(physics, state, strike, _TRUE, segments, jaws, pockets, p, width,
                                            length, rail, tol, max_events, max_time, shot_log, out)
    rows, flags = complete_shot(state, shot_log, count, flags, segments, jaws, pockets, p, width, length, rail, tol,
                                max_events, physics, max_time)
    return rows, flags, code, count


@njit(cache=True)
def play_decision(k, u, use_shot, shot_row, noise_gen, gen, balls, rack, won, next_breaker, done, cfg, slots,
                  start_rows, off_table, segments, jaws, pockets, p, rail, tol, max_events, physics, log, rec_i, rec_f,
                  n_rec, parts):
    """Play the action ``u`` (9,) of the player to move on table k, as the module docstring's step 1 says, and append
    its record. ``use_shot`` replays ``shot_row`` (V0, phi [deg], theta [deg], a, b) instead of the action's strike,
    without noise. Noise is drawn from ``noise_gen``, a new rack from ``gen`` (generator rows, ``draws``).
    Returns a ``Status``: STOP when the decision was played, else what went wrong (nothing is recorded then; the
    caller restores the tables)."""
    R, width, length, head_y = cfg[Cfg.R], cfg[Cfg.WIDTH], cfg[Cfg.LENGTH], cfg[Cfg.HEAD_Y]
    r = n_rec[k]
    ri = rec_i[k, r]
    rf = rec_f[k, r]
    player = rack[k, C.SHOOTER]
    phase, bih = rack[k, C.PHASE], rack[k, C.IN_HAND]
    before = np.empty((1, RACK_W), dtype=np.int64)
    for j in range(RACK_W):
        before[0, j] = rack[k, j]
    declaration = np.empty(1, dtype=np.int64)
    first_bits = np.zeros(1, dtype=np.int64)
    first_time = np.zeros(1)
    cushion_bits = np.zeros(1, dtype=np.int64)
    pocketed = np.full((1, N_BALLS), -1, dtype=np.int64)
    n_pocketed = np.zeros(1, dtype=np.int64)
    off = np.full((1, N_BALLS), -1, dtype=np.int64)
    n_off = np.zeros(1, dtype=np.int64)
    start = rf[RecF.START:].reshape((N_BALLS, 9))
    placed = adjusted = replayed = _FALSE
    state = start  # the balls after the shot (a copy of ``start`` once there is one)
    n_events = _ZERO
    shot = phase != PhaseCode.PUSH_OUT_CHOICE
    rf[RecF.PLACE_X] = math.nan
    rf[RecF.PLACE_Y] = math.nan
    if not shot:  # the choice after a push-out: no shot
        declaration[0] = DeclarationCode.PASS_BACK if u[A.PASS_BACK] > 0.0 else DeclarationCode.SHOOT
        for j in range(5):
            rf[RecF.SHOT + j] = math.nan
    else:
        push = phase == PhaseCode.PUSH_OUT_ALLOWED and u[A.PUSH_OUT] > 0.0
        declaration[0] = DeclarationCode.PUSH_OUT if push else DeclarationCode.SHOT
        V0, phi, theta, a, b = shot_of(u, cfg[Cfg.SCALE], cfg[Cfg.SCALE + 1], cfg[Cfg.SCALE + 2], cfg[Cfg.SCALE + 3])
        if use_shot:
            V0, phi, theta, a, b = shot_row[0], shot_row[1], shot_row[2], shot_row[3], shot_row[4]
        elif cfg[Cfg.NOISY] != 0.0:
            e = np.empty(5)
            for j in range(5):
                e[j] = standard_normal(noise_gen)
            V0, phi, theta, a, b = perturbed(V0, phi, theta, a, b, e, cfg[Cfg.SIGMA:Cfg.SIGMA + 5], R,
                                             cfg[Cfg.LIMITS:Cfg.LIMITS + 4])
        rf[RecF.SHOT], rf[RecF.SHOT + 1], rf[RecF.SHOT + 2], rf[RecF.SHOT + 3], rf[RecF.SHOT + 4] = V0, phi, theta, a, b
        _copy(balls[k], start)
        if bih != BallInHandCode.NONE:
            kitchen = bih == BallInHandCode.KITCHEN
            x = lin(u[A.PLACE_X], R, width - R)
            y = lin(u[A.PLACE_Y], R, head_y if kitchen else length - R)
            others = np.empty((N_BALLS, 2))
            n = _ZERO
            for bb in range(1, N_BALLS):
                if start[bb, 7] <= _ON_TABLE_MAX:
                    others[n, 0], others[n, 1] = start[bb, 0], start[bb, 1]
                    n += 1
            placed = _TRUE
            if not is_free(x, y, others, n, R, width, length, head_y, kitchen, pockets, 0.0):
                if cfg[Cfg.STRICT] != 0.0:
                    return Status.STRICT
                best = np.empty(4)
                nearest_free(x, y, others, n, R, width, length, head_y, kitchen, pockets, cfg[Cfg.GAP], best)
                if best[0] == 0.0:
                    return Status.NO_SPOT
                x, y = best[1], best[2]
                adjusted = _TRUE
            start[0, 0], start[0, 1] = x, y
            for j in range(2, 7):
                start[0, j] = 0.0
            start[0, 7] = _STATIONARY
            start[0, 8] = -1.0
            rf[RecF.PLACE_X], rf[RecF.PLACE_Y] = x, y
        strike = np.empty(5)
        strike[0], strike[1], strike[2], strike[3], strike[4] = V0, phi * _DEG, theta * _DEG, a, b
        state = np.empty_like(start)
        rows, flags, code, n_events = strike_shot(start, state, strike, log, segments, jaws, pockets, p, width,
                                                  length, rail, tol, max_events, cfg[Cfg.MAX_TIME], physics)
        if code != OK:
            return Status.LAYOUT
        if flags & FLAG_IN_FLIGHT:  # a cap stopped it with a ball in the air: the same shot with the replay caps
            replayed = _TRUE
            rows, flags, code, n_events = strike_shot(start, state, strike, log, segments, jaws, pockets, p, width,
                                                      length, rail, tol, np.int64(cfg[Cfg.REPLAY_EVENTS]),
                                                      cfg[Cfg.REPLAY_TIME], physics)
            if flags & FLAG_IN_FLIGHT:  # still in the air: the shot is void, the table stays as it was
                # no ruling: no fouls, nothing cited or pocketed (the rows are still -1), the rack after = before
                _write_record(ri, player, declaration[0], _ZERO, pocketed[0], _ZERO, pocketed[0], _ZERO, off[0],
                              _ZERO, _FALSE, before[0], before[0], placed, adjusted, n_events, _TRUE, _TRUE, _TRUE)
                n_rec[k] = r + 1
                return Status.STOP
        summarize_rows(rows, rows.shape[0], _ZERO, cfg[Cfg.SIMULTANEOUS], first_bits, first_time, cushion_bits, pocketed,
                       n_pocketed, off, n_off)
    after = np.empty((1, RACK_W), dtype=np.int64)
    fouls = np.empty(1, dtype=np.int64)
    cited = np.empty((1, MAX_CITED), dtype=np.int64)
    n_cited = np.empty(1, dtype=np.int64)
    spotted = np.empty(1, dtype=np.bool_)
    rule_batch(before, declaration, first_bits, cushion_bits, pocketed, n_pocketed, off, n_off, after, fouls, cited,
               n_cited, spotted)
    for j in range(RACK_W):
        rack[k, j] = after[0, j]
    in_hand = after[0, C.IN_HAND] != BallInHandCode.NONE
    if shot:
        if spotted[0] and not spot_nine(state, in_hand, cfg[Cfg.FOOT_X], cfg[Cfg.FOOT_Y], length, R):
            return Status.NO_NINE_SPOT
        _copy(state, balls[k])
    if in_hand:  # the incoming player takes up the cue ball
        for j in range(2, 7):
            balls[k, 0, j] = 0.0
        balls[k, 0, 7] = _POCKETED
        balls[k, 0, 8] = -1.0
    if after[0, C.PHASE] == PhaseCode.RACK_OVER:
        score(k, gen, balls, rack, won, next_breaker, done, cfg, slots, start_rows, off_table)
    _write_record(ri, player, declaration[0], fouls[0], cited[0], n_cited[0], pocketed[0], n_pocketed[0], off[0],
                  n_off[0], spotted[0], before[0], after[0], placed, adjusted, n_events, shot, replayed, _FALSE)
    n_rec[k] = r + 1
    # the reward parts (``rewards.REWARD_PARTS``: rack, pot, foul, opponent_pot, opponent_foul), the learner is player 0
    mine = player == 0
    if after[0, C.PHASE] == PhaseCode.RACK_OVER:
        parts[k, 0] += 1.0 if after[0, C.WINNER] == 0 else -1.0
    legal_pots = 0
    if fouls[0] == 0 and declaration[0] == DeclarationCode.SHOT:
        for j in range(n_pocketed[0]):
            if pocketed[0, j] != 0:
                legal_pots += 1
    if mine:
        parts[k, 1] += legal_pots * cfg[Cfg.SHAPING]
    else:
        parts[k, 3] += legal_pots * cfg[Cfg.SHAPING + 2]
    if fouls[0] != 0:
        if mine:
            parts[k, 2] += cfg[Cfg.SHAPING + 1]
        else:
            parts[k, 4] += cfg[Cfg.SHAPING + 3]
    return Status.STOP


@njit(cache=True)
def _write_record(ri, player, declaration, fouls, cited, n_cited, pocketed, n_pocketed, off, n_off, spotted, before,
                  after, placed, adjusted, n_events, shot, replayed, voided):
    """Write a decision's record (``codes.RecI``) into ``ri``: every column, -1 after the last cited rule and in
    ``pocketed``/``off`` after their last ball (as the rules leave them)."""
    ri[RecI.PLAYER] = player
    ri[RecI.DECLARATION] = declaration
    ri[RecI.FOULS] = fouls
    ri[RecI.N_CITED] = n_cited
    for j in range(MAX_CITED):
        ri[RecI.CITED + j] = cited[j] if j < n_cited else -1
    ri[RecI.N_POCKETED] = n_pocketed
    ri[RecI.N_OFF] = n_off
    for j in range(N_BALLS):
        ri[RecI.POCKETED + j] = pocketed[j]
        ri[RecI.OFF + j] = off[j]
    ri[RecI.SPOTTED] = spotted
    for j in range(RACK_W):
        ri[RecI.BEFORE + j] = before[j]
        ri[RecI.AFTER + j] = after[j]
    ri[RecI.PLACED] = placed
    ri[RecI.ADJUSTED] = adjusted
    ri[RecI.N_EVENTS] = n_events
    ri[RecI.SHOT] = shot
    ri[RecI.REPLAYED] = replayed
    ri[RecI.VOIDED] = voided


@njit(cache=True)
def _deal_match(k, gens, balls, rack, won, next_breaker, done, cfg, slots, start_rows, off_table, n_rec):
    """A new match on table k, broken by ``cfg[FIRST_BREAKER]`` (-1: drawn as ``Generator.integers(2)``); no
    decisions recorded yet."""
    first = cfg[Cfg.FIRST_BREAKER]
    breaker = bounded_int(gens[k], _TWO) if first < 0.0 else np.int64(first)
    deal(k, breaker, gens[k], balls, rack, won, next_breaker, done, slots, start_rows, off_table)
    n_rec[k] = 0


# -- a table's turn, and B of them ------------------------------------------------------------------------------------


@intrinsic
def _claim(typingctx, counter):
    """Atomically add 1 to ``counter[0]`` (int64) and return its value before: the next table for this thread."""
    sig = types.int64(counter)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.atomic_rmw("add", array.data, ir.Constant(ir.IntType(64), 1), "seq_cst")

    return sig, codegen


@njit(cache=True, nogil=True)
def play_turns(order, claimed, acts, has_act, shots, has_shot, gens, noise_gens, seats, to_deal, dealt, balls, rack,
               won, next_breaker, done, cfg, slots, start_rows, off_table, aims, segments, jaws, pockets, p, rail, tol,
               max_events, physics, logs, rec_i, rec_f, n_rec, n_opp, parts, redeals, status, obs):
    """Each table's turn (the module docstring), for the tables of ``order``: a new match first if ``to_deal[k]``
    (``_deal_match``; the flag is cleared), the given action if ``has_act[k]``,
    then every decision of an AIMING seat, until a STOP or EXTERNAL seat is to move or the match is decided;
    ``status[k]`` says which (or what went wrong) and ``obs[k]`` is then the learner's (player 0's) observation. A
    table ``dealt`` this step that the opponent wins outright is dealt again (``redeals[k]`` counts).

    Tables are claimed one at a time from the shared counter ``claimed[0]`` (an atomic add), so several threads may
    run this at once on the same ``order`` (the GIL is released) and each takes the next table as it gets free: a
    thread that drew a break does not hold up the others. Returns how many of this call's tables stopped short
    (``Status`` past OVER: FULL or an error), so the caller looks at ``status`` only then."""
    obs64 = np.empty((1, OBS_SIZE))
    obs32 = np.empty((1, OBS_SIZE), dtype=np.float32)
    u = np.empty(N_ACTION)
    aimed = np.empty((1, N_ACTION))
    failed = np.zeros(1, dtype=np.bool_)
    ks = np.zeros(1, dtype=np.int64)
    short = 0
    while True:
        i = _claim(claimed)
        if i >= order.shape[0]:
            return short
        k = order[i]
        ks[0] = k
        if to_deal[k]:
            to_deal[k] = False
            _deal_match(k, gens, balls, rack, won, next_breaker, done, cfg, slots, start_rows, off_table, n_rec)
        code = Status.STOP
        while True:
            if done[k]:
                if not dealt[k] or seats[k, 1] == Seat.EXTERNAL:  # a Python opponent's redeals are Python's
                    code = Status.OVER
                    break
                redeals[k] += 1  # the opponent won before the learner's first decision: deal again
                if redeals[k] > MAX_REDEALS:
                    code = Status.REDEALS
                    break
                _deal_match(k, gens, balls, rack, won, next_breaker, done, cfg, slots, start_rows, off_table, n_rec)
                n_opp[k] = 0
                for j in range(parts.shape[1]):
                    parts[k, j] = 0.0
            player = rack[k, C.SHOOTER]
            seat = seats[k, player]
            given = has_act[k]
            if not given and seat != Seat.AIMING:  # the learner (STOP) or a Python opponent is to move
                code = Status.STOP if seat == Seat.STOP else Status.EXTERNAL
                break
            if n_rec[k] >= rec_i.shape[1]:
                code = Status.FULL
                break
            noise_gen = noise_gens[k]
            use_shot = has_shot[k]
            if given:
                for j in range(N_ACTION):
                    u[j] = acts[k, j]
                has_act[k] = False  # played once (a turn resumed after FULL must not play it again)
            else:  # the aiming opponent sees the table and decides
                encode_rows(balls, rack, won, ks, player, int(cfg[Cfg.RACE_TO]), 1.0 / cfg[Cfg.WIDTH],
                            1.0 / cfg[Cfg.LENGTH], obs64)
                for j in range(OBS_SIZE):
                    obs32[0, j] = np.float32(obs64[0, j])
                decide_batch(obs32, cfg[Cfg.WIDTH], cfg[Cfg.LENGTH], cfg[Cfg.HEAD_Y], cfg[Cfg.R], pockets, aims,
                             cfg[Cfg.BREAK_SPEED], cfg[Cfg.SCALE:Cfg.SCALE + 4], cfg[Cfg.GAP], aimed, failed)
                if failed[0]:
                    code = Status.NO_SPOT
                    break
                for j in range(N_ACTION):
                    u[j] = np.float64(np.float32(aimed[0, j]))  # the policy answers in float32, as ``act`` does
                noise_gen = gens[k]
                use_shot = _FALSE
            code = play_decision(k, u, use_shot, shots[k], noise_gen, gens[k], balls, rack, won, next_breaker, done,
                                 cfg, slots, start_rows, off_table, segments, jaws, pockets, p, rail, tol, max_events,
                                 physics, logs[k], rec_i, rec_f, n_rec, parts)
            if code != Status.STOP:
                break
            if player == 1:
                n_opp[k] += 1
                if n_opp[k] >= MAX_OPPONENT_DECISIONS:
                    code = Status.RUNAWAY
                    break
            else:
                n_opp[k] = 0
                dealt[k] = False  # the learner has decided: the deal stands
        status[k] = code
        encode_rows(balls, rack, won, ks, _ZERO, int(cfg[Cfg.RACE_TO]), 1.0 / cfg[Cfg.WIDTH], 1.0 / cfg[Cfg.LENGTH], obs64)
        for j in range(OBS_SIZE):
            obs[k, j] = np.float32(obs64[0, j])
        if code > Status.OVER:
            short += 1
