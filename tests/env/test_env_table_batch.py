"""B tables of a TableBatch (one batch simulation per round) play exactly as B lone ``Game``s (a batch of one,
served by the serial physics kernel), decision by decision."""

from __future__ import annotations

import numpy as np
import pytest

from nineball_env import actions, observation
from nineball_env.aiming import AimingPolicy
from nineball_env.rules import RackState
from nineball_env.game import Game, GameConfig, TableBatch
from nineball_env.noise import make_noise


def _twins(n: int, config: GameConfig, noise: str, log_capacity: int = 256):
    """n Games and a TableBatch dealt the same racks from twin generators."""
    games = [Game(config, np.random.default_rng(100 + k), k % 2, make_noise(noise)) for k in range(n)]
    batch = TableBatch(config, [np.random.default_rng(100 + k) for k in range(n)], make_noise(noise),
                       log_capacity=log_capacity)
    for k in range(n):
        batch.deal(k, k % 2)
    return games, batch


def _same(game: Game, batch: TableBatch, k: int) -> None:
    assert np.array_equal(batch.balls[k], game.tables.balls[0])
    assert RackState.from_packed(batch.rack[k]) == game.rack
    assert tuple(batch.won[k].tolist()) == game.match.racks_won
    assert batch.rngs[k].bit_generator.state == game.tables.rngs[0].bit_generator.state


@pytest.mark.parametrize("noise, race_to, break_order, log_capacity, max_events", [
    ("none", 1, "alternate", 256, 1000), ("icga", 3, "alternate", 256, 1000), ("icga", 3, "winner", 256, 1000),
    ("icga", 1, "alternate", 5, 30),  # truncated logs and shots capped at 30 events: re-simulated, continued
])
def test_tables_play_like_games(noise, race_to, break_order, log_capacity, max_events) -> None:
    config = GameConfig(race_to=race_to, break_order=break_order, max_events=max_events)
    n = 16  # enough tables that every case is covered (balls can now jump: fewer fouls pot the 9)
    games, batch = _twins(n, config, noise, log_capacity)
    rng = np.random.default_rng(12)  # a seed whose play covers every case (0–70°; seed 11 spots no 9 since the jaw fix)
    policy = AimingPolicy()
    seen = set()
    for _ in range(80):
        live = [k for k in range(n) if not games[k].over]
        if not live:
            break
        for player in (0, 1):  # one round per player: the tables where that player is to move
            ks = np.array([k for k in live if games[k].to_move == player], dtype=np.int64)
            if not ks.size:
                continue
            t = config.table
            want_obs = np.stack([observation.encode(games[k].balls.pos, games[k].on_table(), games[k].rack,
                                                    games[k].match, player, t.width, t.length) for k in ks])
            assert np.array_equal(batch.encode(ks, player), want_obs)
            acts = policy.act_batch(want_obs).astype(np.float64)  # real play: pots, runs, won racks
            wild = rng.random(ks.size) < 0.3  # and random actions: fouls, ball in hand, push-outs
            acts[wild] = rng.uniform(-1, 1, (int(wild.sum()), actions.N_ACTION))
            decisions = batch.play(ks, player, acts)
            for k, act, got in zip(ks.tolist(), acts, decisions):
                game = games[k]
                outcome = game.play(player, act)
                r = outcome.ruling
                assert got.text() == r.describe() == outcome.text()
                assert got.ruling == r and got == outcome  # the same record, the simulation aside
                assert (got.pocketed, got.rack_winner, got.placement, got.placement_adjusted, got.n_events,
                        got.foul, got.legal_pots) == (
                    outcome.pocketed, outcome.rack_winner, outcome.placement, outcome.placement_adjusted,
                    outcome.n_events, outcome.foul, outcome.legal_pots)
                _same(game, batch, k)
                seen.add((str(r.before.phase), r.foul, r.nine_spotted, outcome.rack_winner is not None))
    assert ("break", False, False, False) in seen and ("push-out-allowed", False, False, False) in seen
    assert any(won for *_, won in seen) and any(foul for _, foul, _, _ in seen) and any(s for _, _, s, _ in seen)
