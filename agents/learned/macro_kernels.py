"""The compiled core of the macro layer's slot table (``agents.learned.macro``): the observations it holds looked up
and the new ones derived, the slot features and the macro actions' strikes and actions, for a batch of tables in one
call each.

The slot table keeps, per row, one observation (its bytes compared as uint32 words, as ``bytes`` compare), what the
planner derives from it and how far it got (``S_*`` stages): a new row's layout, phase, ball in hand and lowest ball
come from the observation (``agents.protocol_kernels.observed_layouts``); a row to decide with the cue ball in hand
waits for its spot, which Python supplies (``GhostBallAgent.place_layouts``, or Search's spots); then its pot slots
come from ``agents.shots.kernels.pot_options_batch``. ``lookup_rows`` brings a batch's rows as far as it can and says
how many still wait for a spot; the caller places them and calls it again. The features (``feature_rows``) and the
decoded actions (``strike_rows``, the pots' throw correction in Python, ``action_rows``) read the rows it found.
Nothing here restates a pot, a spot, a strike or the action encoding: those are the shot kernels'.

Every kernel copies arrays element by element: an array assignment compiles numba's shape-mismatch error message
(string formatting), seconds of a cold compile. Only ``lookup_rows`` compiles in the pot options and the layouts, so
their code is optimised and cached once.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents import protocol_kernels as PK
from agents.shots import KERNEL_SOURCES
from agents.shots import kernels as SK
from agents.shots import round_kernels as RK
from nineball_env.kernels.codes import RACK_W, RackCol
from physics.kernels import drop_stale_numba_cache
from physics.kernels.jit import kernel

#: Files whose code these kernels compile in (the shot kernels, the protocol's layouts, and what those compile in):
#: numba checks a cached kernel against its own file only, so a change to any of them drops this room's cache.
WATCHED = (*sorted(Path(SK.__file__).resolve().parent.glob("*.py")), Path(PK.__file__).resolve(), *KERNEL_SOURCES)
drop_stale_numba_cache(Path(__file__).resolve().parent, *WATCHED)

#: Stages of a slot-table row: empty; waiting for the cue ball's spot in hand (Python's); waiting for its pot slots;
#: derived.
S_EMPTY, S_SPOT, S_POTS, S_DONE = 0, 1, 2, 3
#: Columns of the ``layout`` row: where the balls' positions, the on-table mask, the phase one-hot and the ball-in-hand
#: one-hot start in an observation, the lengths of the two one-hots, and the one-hot indices of no ball in hand, the
#: break, the push-out choice and a push-out allowed.
L_POS, L_ON, L_PHASE, L_N_PHASE, L_HAND, L_N_HAND, L_NO_HAND, L_BREAK, L_CHOICE, L_PUSH = range(10)
#: Columns of the ``geometry`` row: the table's width and length, the ball radius [m] and the aim noise the pots'
#: ease assumes [deg].
G_WIDTH, G_LENGTH, G_R, G_SIGMA = range(4)
#: Columns of the ``strike`` row (GhostBall's strikes): (2R)² [m²], the speed range [m/s], the head string [m] and the
#: aim offset per unit of the macro component [deg].
K_REACH2, K_V_MIN, K_V_MAX, K_HEAD_Y, K_AIM = range(5)
#: Codes in place of a count: an observation with a number that is not finite (``lookup_rows``), and (``strike_rows``)
#: a macro action with one that is not a number, a rack that is over.
BAD_OBS, BAD_MACRO, RACK_OVER = -1, -2, -3


@kernel(entry=True)
def lookup_rows(obs, words, keys, table_obs, stage, gen, next_row, phase, hand, pos, on, lowest, spot, placed, rows,
                n_pots, has_leaves, layout, deciding, aims, axes, m, geometry, combos, max_cut, idx, pending):
    """The slot-table row of every observation (B, OBS_SIZE) float32 (``words``: the same bytes as uint32) into
    ``idx`` (B,), new observations stored in the oldest rows (first in, first out from ``next_row[0]``, never a row
    the batch reads) and derived as far as they can be (``_derive``, then the pot slots of the rows that wait for
    them); returns how many of the batch's rows wait for a spot in hand, their rows in ``pending``, or ``BAD_OBS``
    when a new observation holds a number that is not finite."""
    B, W = words.shape
    C = keys.shape[0]
    keep = np.zeros(C, dtype=np.bool_)
    for k in range(B):
        idx[k] = -1
        for c in range(C):
            if stage[c] != S_EMPTY and _same(keys[c], words[k]):
                idx[k], keep[c] = c, True
                break
        if idx[k] < 0:  # nothing stored before every new observation is known to be finite
            for j in range(W):
                if not np.isfinite(obs[k, j]):
                    return BAD_OBS
    fresh = np.empty(B, dtype=np.int64)
    n_fresh = 0
    for k in range(B):
        if idx[k] >= 0:
            continue
        for f in range(n_fresh):  # a repeat of a new observation of this batch
            if _same(words[fresh[f]], words[k]):
                idx[k] = idx[fresh[f]]
                break
        if idx[k] >= 0:
            continue
        c = next_row[0]
        while keep[c]:
            c = (c + 1) % C
        next_row[0] = (c + 1) % C
        for j in range(W):
            keys[c, j] = words[k, j]
            table_obs[c, j] = obs[k, j]
        gen[c] += 1
        has_leaves[c] = False
        idx[k] = c
        fresh[n_fresh] = k
        n_fresh += 1
    if n_fresh:
        _derive(obs, fresh, n_fresh, idx, stage, phase, hand, pos, on, lowest, spot, placed, rows, n_pots, layout,
                deciding, geometry)
    todo = np.empty(B, dtype=np.int64)
    n_todo = 0
    for k in range(B):
        c = idx[k]
        if stage[c] == S_POTS:
            stage[c] = S_DONE
            todo[n_todo] = c
            n_todo += 1
    if n_todo:
        _table_pots(todo, n_todo, pos, on, lowest, spot, placed, rows, n_pots, aims, axes, m, geometry, combos,
                    max_cut)
    n_pending = 0
    for k in range(B):
        c = idx[k]
        if stage[c] == S_SPOT:
            seen = False
            for q in range(n_pending):
                seen = seen or pending[q] == c
            if not seen:
                pending[n_pending] = c
                n_pending += 1
    return n_pending


@kernel
def _same(a, b):
    """Whether two rows of words are equal."""
    for j in range(a.shape[0]):
        if a[j] != b[j]:
            return False
    return True


@kernel(refcounts=True)  # it allocates its buffers
def _derive(obs, fresh, n, idx, stage, phase, hand, pos, on, lowest, spot, placed, rows, n_pots, layout, deciding,
            geometry):
    """Rows ``idx[fresh[:n]]`` from observations ``obs[fresh[:n]]``: the layout (``observed_layouts``, float32
    overlaps pushed apart), the phase (``layout``'s one-hot index; -1 once the rack is over: none set), the ball in
    hand and the lowest ball; no spot and no pot slots yet, and the stage each goes on to (``deciding[phase]``: a
    shot to decide, in hand or not)."""
    W, n_balls = obs.shape[1], pos.shape[1]
    wide = np.empty((n, W))
    for f in range(n):
        for j in range(W):
            wide[f, j] = obs[fresh[f], j]
    got_pos, got_on = np.empty((n, n_balls, 2)), np.empty((n, n_balls), dtype=np.bool_)
    PK.observed_layouts(wide, layout[L_POS], layout[L_ON], geometry[G_WIDTH], geometry[G_LENGTH], geometry[G_R],
                        got_pos, got_on)
    p0, n_phase, h0, n_hand = layout[L_PHASE], layout[L_N_PHASE], layout[L_HAND], layout[L_N_HAND]
    for f in range(n):
        c = idx[fresh[f]]
        for b in range(n_balls):
            pos[c, b, 0], pos[c, b, 1], on[c, b] = got_pos[f, b, 0], got_pos[f, b, 1], got_on[f, b]
        shown = False
        for j in range(n_phase):
            shown = shown or wide[f, p0 + j] != 0.0
        phase[c] = np.argmax(wide[f, p0:p0 + n_phase]) if shown else -1
        hand[c] = np.argmax(wide[f, h0:h0 + n_hand])
        low = 0
        for b in range(1, n_balls):
            if on[c, b]:
                low = b - 1
                break
        lowest[c] = low + 1
        placed[c] = False
        spot[c, 0], spot[c, 1] = 0.0, 0.0
        for s in range(rows.shape[1]):
            for col in range(rows.shape[2]):
                rows[c, s, col] = 0.0
        n_pots[c] = 0
        if not deciding[phase[c]]:
            stage[c] = S_DONE
        elif hand[c] != layout[L_NO_HAND]:
            stage[c] = S_SPOT
        else:
            stage[c] = S_POTS


@kernel(refcounts=True)  # it allocates its buffers
def _table_pots(at, n, pos, on, lowest, spot, placed, rows, n_pots, aims, axes, m, geometry, combos, max_cut):
    """The pot slots of slot-table rows ``at[:n]`` from their cue balls (the spot when placed), one call for all."""
    n_balls = pos.shape[1]
    cues, layouts = np.empty((n, 2)), np.empty((n, n_balls, 2))
    ons, lows = np.empty((n, n_balls), dtype=np.bool_), np.empty(n, dtype=np.int64)
    for i in range(n):
        c = at[i]
        cues[i, 0], cues[i, 1] = (spot[c, 0], spot[c, 1]) if placed[c] else (pos[c, 0, 0], pos[c, 0, 1])
        for b in range(n_balls):
            layouts[i, b, 0], layouts[i, b, 1], ons[i, b] = pos[c, b, 0], pos[c, b, 1], on[c, b]
        lows[i] = lowest[c]
    got_rows, got_n = np.empty((n, rows.shape[1], rows.shape[2])), np.empty(n, dtype=np.int64)
    _pot_slots(cues, layouts, ons, lows, aims, axes, m, geometry, combos, max_cut,
               np.empty((n, SK.MAX_OPTIONS, SK.OPT_W)), got_rows, got_n)
    for i in range(n):
        c = at[i]
        n_pots[c] = got_n[i]
        for s in range(rows.shape[1]):
            for col in range(rows.shape[2]):
                rows[c, s, col] = got_rows[i, s, col]


@kernel(refcounts=True)  # it allocates its buffers
def _pot_slots(cues, pos, on, lowest, aims, axes, m, geometry, combos, max_cut, options, rows, n_pots):
    """``pot_slots`` (the implementation, for kernels)."""
    N = cues.shape[0]
    sigma = np.empty(N)
    for i in range(N):
        sigma[i] = geometry[G_SIGMA]
    counts = np.empty(N, dtype=np.int64)
    SK.pot_options_batch(cues, pos, on, lowest, aims, axes, m, geometry[G_WIDTH], geometry[G_LENGTH], geometry[G_R],
                         sigma, combos, max_cut, options, counts)
    for i in range(N):
        n_pots[i] = min(counts[i], rows.shape[1])
        for s in range(rows.shape[1]):
            for col in range(rows.shape[2]):
                rows[i, s, col] = options[i, s, col] if s < n_pots[i] else 0.0


@kernel(entry=True)
def pot_slots(cues, pos, on, lowest, aims, axes, m, geometry, combos, max_cut, options, rows, n_pots):
    """The pot slots of N layouts from cue-ball centres ``cues`` (N, 2): the easiest ``rows.shape[1]`` option rows of
    ``pot_options_batch`` (into the buffer ``options`` (N, MAX_OPTIONS, OPT_W)) into ``rows``, 0 past their count
    (into ``n_pots``); nothing is read of the options past the count."""
    _pot_slots(cues, pos, on, lowest, aims, axes, m, geometry, combos, max_cut, options, rows, n_pots)


@kernel(entry=True)
def feature_rows(obs, idx, rows, n_pots, geometry, width, out):
    """Each observation (B, OBS_SIZE) followed by the slot features of its slot-table row ``idx[k]`` into ``out``
    (B, >= OBS_SIZE + slots · width) float32: per pot slot (valid, ease, cut / 90°, cue distance / table length and
    object distance / length, each at most 1, combination), 0 for an empty slot, then the safety slot (valid, 0)."""
    L = geometry[G_LENGTH]
    B, W = obs.shape
    n_slots = rows.shape[1]
    for k in range(B):
        c = idx[k]
        for j in range(W):
            out[k, j] = obs[k, j]
        for s in range(n_slots):
            at = W + s * width
            if s < n_pots[c]:
                out[k, at] = 1.0
                out[k, at + 1] = rows[c, s, SK.O_EASE]
                out[k, at + 2] = rows[c, s, SK.O_CUT] / 90.0
                out[k, at + 3] = min(rows[c, s, SK.O_D_CUE] / L, 1.0)
                out[k, at + 4] = min(rows[c, s, SK.O_D_OBJ] / L, 1.0)
                out[k, at + 5] = 1.0 if rows[c, s, SK.O_BALL] != rows[c, s, SK.O_TARGET] else 0.0
            else:
                for j in range(width):
                    out[k, at + j] = 0.0
        at = W + n_slots * width
        out[k, at] = 1.0
        for j in range(1, width):
            out[k, at + j] = 0.0


@kernel
def chosen_slot(u0, valid, n_slots):
    """The slot macro component ``u0`` (in [-1, 1]) selects among ``n_slots`` (the last the safety) where ``valid``
    (n_slots - 1,) says which pot slots hold a pot: an empty pot slot falls back to the first pot, else the safety."""
    s = min(np.int64((u0 + 1.0) / 2.0 * n_slots), n_slots - 1)
    if s < n_slots - 1 and not valid[s]:
        s = 0 if valid[0] else n_slots - 1
    return s


@kernel(entry=True)
def chosen_slots(u, valid, out):
    """``chosen_slot`` of every row: macro actions ``u`` (N, MACRO_DIM), the pot slots holding a pot ``valid`` (N,
    slots - 1); into ``out``."""
    for i in range(u.shape[0]):
        out[i] = chosen_slot(u[i, 0], valid[i], valid.shape[1] + 1)


@kernel(refcounts=True)  # what it calls allocates
def _slot_strikes(slot, options, u, cues, pos, on, lowest, geometry, phys, refine, strike, shots, aim_at, aim_cue,
                  aim_obj, aim_target, aim_direction, aim_shots):
    """``slot_strikes`` (the implementation, for kernels)."""
    RK.refined_rows(slot, options, u, cues, pos, on, lowest, geometry[G_R], strike[K_REACH2], geometry[G_WIDTH],
                    geometry[G_LENGTH], phys, strike[K_V_MIN], strike[K_V_MAX], refine, shots)
    n = 0
    for i in range(slot.shape[0]):
        if slot[i] < options.shape[1]:
            t = np.int64(options[i, slot[i], SK.O_TARGET])
            aim_at[n] = i
            aim_cue[n, 0], aim_cue[n, 1] = cues[i, 0], cues[i, 1]
            aim_obj[n, 0], aim_obj[n, 1] = pos[i, t, 0], pos[i, t, 1]
            aim_target[n] = t
            aim_direction[n] = options[i, slot[i], SK.O_DIRECTION]
            for j in range(shots.shape[1]):
                aim_shots[n, j] = shots[i, j]
            n += 1
    return n


@kernel(entry=True)
def slot_strikes(slot, options, u, cues, pos, on, lowest, geometry, phys, refine, strike, shots, aim_at, aim_cue,
                 aim_obj, aim_target, aim_direction, aim_shots):
    """GhostBall's strikes (N, 5) into ``shots`` of slot ``slot[i]`` (of option rows ``options[i]``; past them the
    safety) refined by macro components ``u[i]`` (``refined_rows``), from cue ball ``cues[i]`` in layout ``pos[i]``,
    ``on[i]`` at ball ``lowest[i]``, before the pots' throw correction and the aim offset (``aimed``). The pots, to
    be corrected for throw, as rows of the ``aim_*`` buffers: their rows, cue balls, object balls, targets, directions
    and strikes; returns how many."""
    return _slot_strikes(slot, options, u, cues, pos, on, lowest, geometry, phys, refine, strike, shots, aim_at,
                         aim_cue, aim_obj, aim_target, aim_direction, aim_shots)


@kernel
def _aimed(shots, aim_at, aim_phi, u, fixed, strike):
    """``aimed`` (the implementation, for kernels)."""
    for j in range(aim_at.shape[0]):
        shots[aim_at[j], 1] = aim_phi[j]
    for i in range(shots.shape[0]):
        if not fixed[i]:
            shots[i, 1] += strike[K_AIM] * u[i, 1]


@kernel(entry=True)
def aimed(shots, aim_at, aim_phi, u, fixed, strike):
    """The strikes ``shots`` (N, 5) aimed: rows ``aim_at`` at their throw-corrected aims ``aim_phi``, then the aim
    offset of macro components ``u`` added to every row but the ``fixed`` ones (played as found)."""
    _aimed(shots, aim_at, aim_phi, u, fixed, strike)


@kernel(entry=True)
def strike_rows(idx, phase, pos, on, lowest, spot, placed, rows, n_pots, deciding, geometry, macro, u, phys, refine,
                strike, chosen, shots, aim_at, aim_cue, aim_obj, aim_target, aim_direction, aim_shots):
    """The macro actions ``macro`` (B, MACRO_DIM) on slot-table rows ``idx`` clipped to [-1, 1] into ``u``, each
    row's slot into ``chosen`` (``chosen_slot``; -1 on breaks and push-out choices) and its strike into ``shots``
    (B, 5) (``slot_strikes``; the ``aim_*`` rows are batch rows). Returns (pots to aim, breaks and push-out
    choices), or (code, row): ``BAD_MACRO`` (a component that is not a number) or ``RACK_OVER`` (the first row whose
    rack is over)."""
    B = macro.shape[0]
    n_slots = rows.shape[1] + 1
    for k in range(B):
        for j in range(macro.shape[1]):
            if np.isnan(macro[k, j]):  # infinities are clipped
                return BAD_MACRO, k
            u[k, j] = min(max(macro[k, j], -1.0), 1.0)
    n, special = 0, 0
    for k in range(B):
        p = phase[idx[k]]
        if p < 0:
            return RACK_OVER, k
        chosen[k] = -1
        if deciding[p]:
            n += 1
        else:
            special += 1
    n_balls = pos.shape[1]
    slot, at = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    options, us = np.empty((n, rows.shape[1], rows.shape[2])), np.empty((n, u.shape[1]))
    cues, layouts = np.empty((n, 2)), np.empty((n, n_balls, 2))
    ons, lows = np.empty((n, n_balls), dtype=np.bool_), np.empty(n, dtype=np.int64)
    valid = np.empty(n_slots - 1, dtype=np.bool_)
    i = 0
    for k in range(B):
        c = idx[k]
        if not deciding[phase[c]]:
            continue
        for s in range(n_slots - 1):
            valid[s] = s < n_pots[c]
        chosen[k] = chosen_slot(u[k, 0], valid, n_slots)
        slot[i] = chosen[k]
        at[i] = k
        for s in range(rows.shape[1]):
            for col in range(rows.shape[2]):
                options[i, s, col] = rows[c, s, col]
        for j in range(u.shape[1]):
            us[i, j] = u[k, j]
        cues[i, 0], cues[i, 1] = (spot[c, 0], spot[c, 1]) if placed[c] else (pos[c, 0, 0], pos[c, 0, 1])
        for b in range(n_balls):
            layouts[i, b, 0], layouts[i, b, 1], ons[i, b] = pos[c, b, 0], pos[c, b, 1], on[c, b]
        lows[i] = lowest[c]
        i += 1
    strikes = np.empty((n, shots.shape[1]))
    n_aim = _slot_strikes(slot, options, us, cues, layouts, ons, lows, geometry, phys, refine, strike, strikes,
                          aim_at, aim_cue, aim_obj, aim_target, aim_direction, aim_shots)
    for i in range(n):
        for j in range(shots.shape[1]):
            shots[at[i], j] = strikes[i, j]
    for j in range(n_aim):
        aim_at[j] = at[aim_at[j]]
    return n_aim, special


@kernel(entry=True)
def action_rows(idx, phase, hand, placed, spot, layout, hand_codes, geometry, strike, scale, u, chosen, shots, fixed,
                aim_at, aim_phi, out):
    """The env actions (B, 9) float32 into ``out`` of the rows ``strike_rows`` decoded (``chosen`` >= 0; the others
    0): their strikes aimed (``aimed``; ``aim_phi``: the throw-corrected aims of batch rows ``aim_at``; no aim offset
    for the ``fixed`` rows), encoded by ``encode_rows`` (the spot in hand, and the push-out flag where one is allowed
    and ``u[k, 5]`` > 0); ``scale`` = (v_min, v_max, tip_max, theta_max)."""
    _aimed(shots, aim_at, aim_phi, u, fixed, strike)
    B, n_act, n_scale = idx.shape[0], out.shape[1], scale.shape[0]
    n = 0
    for k in range(B):
        if chosen[k] >= 0:
            n += 1
        else:
            for j in range(n_act):
                out[k, j] = 0.0
    at = np.empty(n, dtype=np.int64)
    strikes, spots, scales = np.empty((n, shots.shape[1])), np.empty((n, 2)), np.empty((n, n_scale))
    has_shot, in_hand = np.ones(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    push_out, pass_back = np.empty(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    racks = np.zeros((n, RACK_W), dtype=np.int64)
    i = 0
    for k in range(B):
        if chosen[k] < 0:
            continue
        c = idx[k]
        at[i] = k
        for j in range(shots.shape[1]):
            strikes[i, j] = shots[k, j]
        in_hand[i] = placed[c]
        spots[i, 0], spots[i, 1] = spot[c, 0], spot[c, 1]
        racks[i, RackCol.IN_HAND] = hand_codes[hand[c]]
        push_out[i] = phase[c] == layout[L_PUSH] and u[k, 5] > 0.0
        for j in range(n_scale):
            scales[i, j] = scale[j]
        i += 1
    encoded = np.empty((n, n_act), dtype=np.float32)
    RK.encode_rows(strikes, has_shot, in_hand, spots, racks, push_out, pass_back, geometry[G_R], geometry[G_WIDTH],
                   geometry[G_LENGTH], strike[K_HEAD_Y], scales, encoded)
    for i in range(n):
        for j in range(n_act):
            out[at[i], j] = encoded[i, j]
