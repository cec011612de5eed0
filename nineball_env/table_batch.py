"""TableBatch: B games of nine-ball held as arrays, decisions played on many tables at once.

The vector env's game state. ``Game`` holds one table in objects (``BallState``, frozen
``RackState``/``Match``); here every table is a row of arrays — packed balls
(B, 10, 9), the rack as integers (``kernels.codes.RackCol`` columns), racks won — and one round of
decisions costs a few array operations, ONE ``physics.simulate_batch_packed`` call, ONE read of
all its event logs (``rules.ShotFacts``) and ONE call of the rules kernel (``kernels.ruling.rule_batch``,
the kernel every ``Game`` rules with). Python runs per table only for what each table owns or what is rare: its generator's noise draws, a new rack, spotting
the 9, a blocked ball-in-hand spot, a shot that hit the event/time cap. Table k given the same
generator and decisions plays exactly as a ``Game`` (tests compare them step by step).
"""

from __future__ import annotations

import numpy as np

import physics
from nineball_env import actions, placement, rules
from nineball_env.game import GameConfig, Outcome, complete_shot, rack_balls
from nineball_env.kernels.codes import DECLARATIONS, MAX_CITED, NO_PLAYER, RACK_W, BallInHandCode, PhaseCode
from nineball_env.kernels.codes import RackCol as C
from nineball_env.kernels.ruling import rule_batch
from nineball_env.kernels.observe import encode_rows
from nineball_env.kernels.round import apply_round, move_cue, prepare_round
from nineball_env.noise import LIMITS, NoiseConfig
from nineball_env.observation import OBS_SIZE
from nineball_env.rules.facts import ShotFacts

ON_TABLE_MAX = int(physics.Motion.ROLLING)  # motion codes <= this are on the table
STATIONARY = float(physics.Motion.STATIONARY)
ALL_OBJECT_BALLS = sum(1 << b for b in range(1, 10))
# the codes as plain ints for the Python side (an IntEnum member lookup costs a function call)
_SHOOTER, _PHASE, _IN_HAND, _WINNER, _BREAKER = (int(c) for c in (C.SHOOTER, C.PHASE, C.IN_HAND, C.WINNER,
                                                                 C.BREAKER))
_BREAK, _CHOICE, _OVER = (int(p) for p in (PhaseCode.BREAK, PhaseCode.PUSH_OUT_CHOICE, PhaseCode.RACK_OVER))
_IN_HAND_NONE, _KITCHEN = int(BallInHandCode.NONE), int(BallInHandCode.KITCHEN)


class TableBatch:
    """``n`` games with one configuration; table k draws from ``rngs[k]`` (rack shuffles, breaker, noise).

    Args:
        config: the game configuration of every table.
        rngs: one generator per table (the vector env's per-table generators; held by reference).
        noise: execution noise of every decision.
        scale: action scale.
        log_capacity: events kept per table in a batch log (a longer shot is re-simulated alone).
        threads: numba threads for the batch physics (None: numba's default).
    """

    def __init__(self, config: GameConfig, rngs: list[np.random.Generator], noise: NoiseConfig,
                 scale: actions.ActionScale = actions.DEFAULT_SCALE, log_capacity: int = 256,
                 threads: int | None = None) -> None:
        n = len(rngs)
        self.config, self.rngs, self.noise, self.scale = config, rngs, noise, scale
        self.log_capacity, self.threads = log_capacity, threads
        t, p = config.table, config.params
        self.balls = np.zeros((n, 10, 9))
        self.rack = np.zeros((n, RACK_W), dtype=np.int64)
        self.won = np.zeros((n, 2), dtype=np.int64)
        self.next_breaker = np.zeros(n, dtype=np.int64)  # the match's breaker: of this rack, then of the next
        self._pockets = np.ascontiguousarray(t.pockets, dtype=np.float64)
        self._box = np.array([p.R, t.width - p.R, t.head_string_y, t.length - p.R, t.width, t.length])
        self._sigma = noise.sigmas
        self._scale = np.array([scale.v_min, scale.v_max, scale.tip_max, scale.theta_max], dtype=np.float64)
        self._limits = LIMITS
        self._errors = np.zeros((n, 5))  # each round's noise draws (rows of tables that shoot)

    # -- state --------------------------------------------------------------------------------------

    def over(self, ks: np.ndarray) -> np.ndarray:
        """Which of tables ``ks`` have their match decided."""
        return self.won[ks].max(axis=1) >= self.config.race_to

    def to_move(self, ks: np.ndarray, player: int) -> np.ndarray:
        """Which of tables ``ks`` await a decision of ``player``."""
        return (self.rack[ks, _SHOOTER] == player) & ~self.over(ks)

    def snapshot(self) -> tuple:
        """Copies of every array and generator state (``restore`` puts them back)."""
        return (self.balls.copy(), self.rack.copy(), self.won.copy(), self.next_breaker.copy(),
                [rng.bit_generator.state for rng in self.rngs])

    def restore(self, snap: tuple) -> None:
        self.balls[:], self.rack[:], self.won[:], self.next_breaker[:] = snap[:4]
        for rng, state in zip(self.rngs, snap[4]):
            rng.bit_generator.state = state

    def game_state(self, k: int) -> tuple[physics.BallState, rules.RackState, tuple[int, int]]:
        """Table k as objects: the balls, the validated rack and the racks won (for tests and debugging)."""
        return physics.BallState.from_packed(self.balls[k]), rules.RackState.from_packed(self.rack[k]), tuple(self.won[k].tolist())

    # -- dealing ------------------------------------------------------------------------------------

    def deal(self, k: int, breaker: int) -> None:
        """A new match on table k broken by ``breaker`` (``Game(config, rng, breaker)``)."""
        self.won[k] = 0
        self.next_breaker[k] = breaker
        self._new_rack(k)

    def _new_rack(self, k: int) -> None:
        """The next rack of table k's match (``Match.new_rack``): a tight rack from its generator (R-RACK)."""
        breaker = int(self.next_breaker[k])
        order = rules.rack_order(self.rngs[k])
        self.balls[k] = rack_balls(order, self.config.table, self.config.params).packed()
        row = self.rack[k]
        row[:] = (breaker, _BREAK, _KITCHEN, ALL_OBJECT_BALLS, 0, 0, breaker, NO_PLAYER, -1)

    # -- observations -------------------------------------------------------------------------------

    def encode(self, ks: np.ndarray, player: int) -> np.ndarray:
        """The observation of ``player`` on tables ``ks`` (the kernel of ``observation.encode``), (len(ks), 54) float32."""
        t = self.config.table
        obs = np.empty((len(ks), OBS_SIZE))
        encode_rows(self.balls, self.rack, self.won, np.asarray(ks, dtype=np.int64), player, self.config.race_to,
                    1.0 / t.width, 1.0 / t.length, obs)
        return obs.astype(np.float32)

    # -- decisions ----------------------------------------------------------------------------------

    def play(self, ks: np.ndarray, player: int, acts: np.ndarray) -> list[Outcome]:
        """Play ``player``'s checked actions ``acts`` (one row per table of ``ks``, each awaiting ``player``):
        decode, noise, ball-in-hand placement, one batch simulation, the rules, and the result applied
        (the 9 spotted, a cue ball in hand taken up, finished racks scored and the next one dealt).

        Raises ValueError before anything changes but generator draws (the caller restores those) when
        ``strict_placement`` is set and a placement is not free.
        """
        cfg = self.config
        n = len(ks)
        rack = self.rack[ks]
        shoot = rack[:, _PHASE] != _CHOICE
        errors = self._errors[:n]
        noisy = not self.noise.silent
        if noisy:
            for i in np.flatnonzero(shoot).tolist():  # each table's generator, in Game's order
                errors[i] = self.rngs[ks[i]].standard_normal(5)
        start = np.empty((n, 10, 9))
        rows = np.empty((n, 5))
        declaration = np.empty(n, dtype=np.int64)
        placed = np.empty(n, dtype=np.bool_)
        free = np.empty(n, dtype=np.bool_)
        prepare_round(self.balls, self.rack, ks, acts, errors, noisy, self._sigma, cfg.params.R, self._scale,
                      self._limits, self._box, self._pockets, start, rows, declaration, placed, free)
        adjusted = ~free
        for i in np.flatnonzero(adjusted).tolist():
            self._move_to_free(start, i, rack[i, _IN_HAND] == _KITCHEN)
        facts = ShotFacts(n)  # no facts for the push-out choice: empty rows
        n_events = np.zeros(n, dtype=np.int64)
        sim = np.flatnonzero(shoot)
        final = self._simulate(start[sim], rows[sim], sim, facts, n_events) if sim.size else start[:0]
        pocketed, n_pocketed = facts.pocketed, facts.n_pocketed
        after = np.empty_like(rack)
        fouls = np.zeros(n, dtype=np.int64)
        cited = np.zeros((n, MAX_CITED), dtype=np.int64)
        n_cited = np.zeros(n, dtype=np.int64)
        spotted = np.zeros(n, dtype=np.bool_)
        rule_batch(rack, declaration, facts.first_bits, facts.cushion_bits, pocketed, n_pocketed, facts.off,
                      facts.n_off, after, fouls, cited, n_cited, spotted)
        self.rack[ks] = after
        for i in np.flatnonzero(spotted).tolist():  # before the cue ball is taken up (R-SPOT-9 leaves it out)
            self._spot_nine(final[int(sim.searchsorted(i))], bool(after[i, _IN_HAND] != _IN_HAND_NONE))
        apply_round(self.balls, ks, sim, final, after)
        ended = after[:, _PHASE] == _OVER
        for i in np.flatnonzero(ended).tolist():
            self._score(int(ks[i]), int(after[i, _WINNER]), int(after[i, _BREAKER]))
        spots = start[:, 0, 0:2].tolist()
        out = []
        n_off = facts.n_off.tolist()
        for i, (decl, f, nc, npk, sp, before, row, nev, put, moved) in enumerate(zip(
                declaration.tolist(), fouls.tolist(), n_cited.tolist(), n_pocketed.tolist(), spotted.tolist(),
                rack.tolist(), after.tolist(), n_events.tolist(), placed.tolist(), adjusted.tolist())):
            out.append(Outcome(
                player, DECLARATIONS[decl], rules.foul_rules(f), rules.cited_rules(cited[i, :nc].tolist()),
                tuple(pocketed[i, :npk].tolist()), tuple(facts.off[i, :n_off[i]].tolist()) if n_off[i] else (), sp,
                before, row, row[_WINNER] if row[_PHASE] == _OVER else None,
                (spots[i][0], spots[i][1]) if put else None, put and moved, nev))
        return out

    def _move_to_free(self, start: np.ndarray, i: int, kitchen: bool) -> None:
        """Row i's requested ball-in-hand spot is not free: move it to the nearest free one
        (``placement.nearest_free``, as ``Game``) or, with ``strict_placement``, raise ValueError (R-BIH)."""
        cfg = self.config
        x, y = start[i, 0, 0:2].tolist()
        if cfg.strict_placement:
            where = "in the kitchen (R-BREAK-POS)" if kitchen else "on the table (R-BIH)"
            raise ValueError(f"placement: cue ball at ({x:.4f}, {y:.4f}) m is not a free spot {where}: "
                             "it touches a ball, a pocket or the rail")
        balls = start[i, 1:]
        others = balls[balls[:, 7] <= ON_TABLE_MAX, 0:2]
        move_cue(start, i, *placement.nearest_free(x, y, others, cfg.table, cfg.params, kitchen))

    def _simulate(self, start: np.ndarray, shots: np.ndarray, rows_of: np.ndarray, facts: ShotFacts,
                  n_events: np.ndarray) -> np.ndarray:
        """Simulate the shots, fill rows ``rows_of`` of ``facts`` and ``n_events``; the final states (shots
        hitting a cap are continued to rest alone, as ``Game.finish`` does)."""
        cfg = self.config
        batch = physics.simulate_batch_packed(start, shots, cfg.table, cfg.params, max_events=cfg.max_events,
                                              max_time=cfg.max_time, log_capacity=self.log_capacity,
                                              threads=self.threads)
        facts.read(batch.logs, batch.n_events, rows_of)
        final = batch.states
        whole = (batch.n_events <= batch.logs.shape[1]) & ~batch.hit_event_cap & ~batch.hit_time_cap
        for i in np.flatnonzero(~whole).tolist():  # rare: summarised again from the whole continued log
            result, log = complete_shot(batch.result(i), cfg)
            final[i] = result.state.packed()
            facts.read(log[None], np.array([len(log)]), rows_of[i:i + 1])
        n_events[rows_of] = batch.n_events
        return final

    def _spot_nine(self, balls: np.ndarray, in_hand: bool) -> None:
        """Spot the 9 in the packed balls of one table (R-SPOT-9), the cue ball left out when it goes in hand
        (as ``Game._finish``)."""
        on = balls[:, 7] <= ON_TABLE_MAX
        on[9] = False
        if in_hand:
            on[0] = False
        positions = {b: (float(balls[b, 0]), float(balls[b, 1])) for b in np.flatnonzero(on).tolist()}
        x, y = rules.spot_nine(positions, self.config.geometry)
        balls[9, 0:2] = (x, y)
        balls[9, 2:7] = 0.0
        balls[9, 7] = STATIONARY
        balls[9, 8] = -1.0

    def _score(self, k: int, winner: int, breaker: int) -> None:
        """Table k's rack ended: score it (``Match.record``) and deal the next rack unless the match is decided."""
        self.won[k, winner] += 1
        self.next_breaker[k] = 1 - breaker if self.config.break_order == rules.BreakOrder.ALTERNATE else winner
        if self.won[k].max() < self.config.race_to:
            self._new_rack(k)
