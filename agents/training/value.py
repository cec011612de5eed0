"""Train the value network of ``agents.learned.value_agent`` by self-play: generations of racks, each played with the last
generation's network, then a network fitted to where those racks went.

Every decision of a self-play rack (breaks and push-out choices aside) is kept as a position seen by the player to
act, with two targets: ``z``, 1 if that player went on to win the rack, and ``q``, the value the search found for
the shot it played (the mean of its simulated outcomes valued by the network of that generation). The network is
fitted to a blend of the two (``--target-mix``: the weight of ``q``) with the table's two mirror symmetries as
augmentation. Generation 0 plays with the hand-written ``EaseValue``, whose values are no estimate of winning: its
positions are fitted to ``z`` alone. After each fit, ``optimize_break`` searches a
grid of breaks (cue spot, speed, draw, aim) by the new network's value of where they leave the rack, and the best
ones travel in the network's meta: the next generation, and the player, break with the first.

    python -m agents.training.value --seed 7 --jobs 2 --out agents/weights/value.npz   # the shipped network

(docs/value.md: what it costs, what it was trained on, how it plays.)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from agents import first_run
from agents.learned.value_agent import ValueSearchAgent, ValueSearchConfig, perturbed_rows
from agents.learned.value_net import EaseValue, ValueNet
from agents.protocol import TableView
from agents.registry import parse_options
from agents.shots.playout import BREAK_EVENTS, N_FEATURES, SHOT, Playout
from nineball_env.game import Game, GameConfig
from nineball_env.kernels.codes import RACK_W
from nineball_env.noise import make_noise
from nineball_env.rules import Phase
from physics import DEFAULT_PARAMS, DEFAULT_TABLE


@dataclass
class Positions:
    """Positions met in self-play: balls (N, 10, 3) as x, y [m] and on-table, rack rows (N, RACK_W) with the
    player to act as shooter, the targets ``q`` and ``z`` (N,), and the rack each came from (N,)."""

    balls: np.ndarray
    racks: np.ndarray
    q: np.ndarray
    z: np.ndarray
    rack_id: np.ndarray

    def __len__(self) -> int:
        return len(self.q)

    @classmethod
    def empty(cls) -> "Positions":
        return cls(np.zeros((0, 10, 3), np.float32), np.zeros((0, RACK_W), np.int64), np.zeros(0, np.float32),
                   np.zeros(0, np.float32), np.zeros(0, np.int64))

    @classmethod
    def concat(cls, parts: list["Positions"]) -> "Positions":
        if not parts:
            return cls.empty()
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("balls", "racks", "q", "z", "rack_id")))

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, balls=self.balls, racks=self.racks, q=self.q, z=self.z, rack_id=self.rack_id)

    @classmethod
    def load(cls, path: str | Path) -> "Positions":
        with np.load(path) as d:
            return cls(d["balls"], d["racks"], d["q"], d["z"], d["rack_id"])

    def packed(self, mirror_x: bool = False, mirror_y: bool = False, table=DEFAULT_TABLE) -> np.ndarray:
        """The positions as packed ball states (N, 10, 9) at rest, mirrored across the table's axes when asked."""
        out = np.zeros((len(self), self.balls.shape[1], 9))
        x, y = self.balls[:, :, 0].astype(np.float64), self.balls[:, :, 1].astype(np.float64)
        out[:, :, 0] = table.spec.width - x if mirror_x else x
        out[:, :, 1] = table.spec.length - y if mirror_y else y
        on = self.balls[:, :, 2] > 0.5
        out[:, :, 7] = np.where(on, 0.0, 4.0)
        out[:, :, 8] = -1.0
        return out


def features(pos: Positions, mirror_x: bool = False, mirror_y: bool = False, noise: str = "icga",
             table=DEFAULT_TABLE, params=DEFAULT_PARAMS) -> np.ndarray:
    """The value net's input for every position (``agents.shots.playout``), mirrored when asked."""
    return Playout(table, params, make_noise(noise)).features(pos.packed(mirror_x, mirror_y, table), pos.racks)


# -- self-play --------------------------------------------------------------------------------------------

#: One chunk of self-play: (seed, chunk index, racks, value network path or "ease", search config).
Job = tuple[int, int, int, str, ValueSearchConfig]


def _value_of(weights: str) -> Any:
    return EaseValue() if weights == "ease" else ValueNet.load(weights)


def self_play(job: Job) -> Positions:
    """Play ``racks`` self-play racks (breaks alternating) and keep every decision as a position."""
    seed, chunk, racks, weights, config = job
    game_ss, noise_ss, agent_ss = np.random.SeedSequence(seed, spawn_key=(chunk,)).spawn(3)
    game_rng, noise_rng = np.random.default_rng(game_ss), np.random.default_rng(noise_ss)
    agent = ValueSearchAgent(config, seed=int(agent_ss.generate_state(1)[0]), value=_value_of(weights))
    noise = make_noise(config.assumed_noise)
    balls, rows, q, z, rack_id = [], [], [], [], []
    for r in range(racks):
        game = Game(GameConfig(), game_rng, r % 2, noise)
        start = len(q)
        players = []
        while not game.over:
            player = game.to_move
            assert player is not None
            view = TableView.from_game(game, noise)
            action = agent.decide(view)
            phase = view.rack.phase
            if phase not in (Phase.BREAK, Phase.PUSH_OUT_CHOICE) and agent.last is not None:
                b = view.balls
                balls.append(np.column_stack([b.pos, b.on_table()]).astype(np.float32))
                rows.append(view.rack.packed())
                q.append(agent.last.value)
                players.append(player)
                rack_id.append(chunk * 1_000_000 + r)
            game.play(player, action, noise_rng)
        winner = game.match.winner
        z += [1.0 if p == winner else 0.0 for p in players]
        assert len(z) == len(q), (start, len(z), len(q))
    if not q:
        return Positions.empty()
    return Positions(np.stack(balls), np.stack(rows).astype(np.int64), np.array(q, np.float32),
                     np.array(z, np.float32), np.array(rack_id, np.int64))


def generate(racks: int, seed: int, weights: str, config: ValueSearchConfig, jobs: int = 1, chunk: int = 50,
             first_chunk: int = 0, progress: bool = True) -> Positions:
    """Self-play positions of ``racks`` racks in chunks of ``chunk`` racks (each seeded by its index, so the data do not
    depend on ``jobs``)."""
    n_chunks = -(-racks // chunk)
    work: list[Job] = [(seed, first_chunk + k, min(chunk, racks - k * chunk), weights, config)
                       for k in range(n_chunks)]
    parts: list[Positions] = []
    t0 = time.perf_counter()

    def note(part: Positions) -> None:
        parts.append(part)
        if progress:
            print(f"  self-play: chunk {len(parts)}/{n_chunks}, {sum(len(p) for p in parts)} positions, "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)

    if jobs == 1:
        for job in work:
            note(self_play(job))
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn")) as pool:
            for part in pool.map(self_play, work):
                note(part)
    return Positions.concat(parts)


# -- the break --------------------------------------------------------------------------------------------

#: The break candidates the offline search starts from: cue spot dx [m] right of the centre and dy [m] behind the head
#: string, cue speed [m/s], draw/follow b, aim offset [deg] from the centre of the 1 (within the action scale).
BREAK_DX = tuple(round(float(x), 3) for x in np.arange(-0.40, 0.401, 0.05))
BREAK_DY = (0.0, 0.15, 0.3)
BREAK_V = (8.0, 9.0, 10.0)
BREAK_B = (-0.5, -0.25, 0.0, 0.25)
BREAK_DPHI = (-0.6, 0.0, 0.6)
#: Successive halving: (samples per candidate, candidates kept for the round); None keeps all.
BREAK_ROUNDS = ((8, None), (32, 300), (128, 60), (512, 12), (2048, 3))


def break_candidates() -> np.ndarray:
    """Every (dx, dy, V, b, dphi) of the grid above."""
    return np.array([(dx, dy, V, b, dp) for dx in BREAK_DX for dy in BREAK_DY for V in BREAK_V for b in BREAK_B
                     for dp in BREAK_DPHI])


def break_values(agent: ValueSearchAgent, candidates: np.ndarray, n: int, rng: np.random.Generator,
                 noise: str = "icga") -> np.ndarray:
    """Mean value for the breaker of each break candidate (rows dx, dy, V, b, dphi) over ``n`` racks and noise draws,
    the same racks and draws for every candidate (common random numbers)."""
    cfg, noise_cfg = GameConfig(), make_noise(noise)
    t, R = cfg.table, cfg.params.R
    games = [Game(cfg, np.random.default_rng(rng.integers(2**63)), 0, noise_cfg) for _ in range(n)]
    view = TableView.from_game(games[0], noise_cfg)
    racks = np.stack([g.rack.packed() for g in games])
    base = np.stack([g.balls.packed() for g in games])
    C = len(candidates)
    starts = np.repeat(base[None], C, axis=0)  # (C, n, 10, 9): every rack with every candidate's cue ball
    sx = t.width / 2.0 + candidates[:, 0]
    sy = t.head_string_y - R - candidates[:, 1]
    starts[:, :, 0, 0], starts[:, :, 0, 1] = sx[:, None], sy[:, None]
    starts[:, :, 0, 2:7], starts[:, :, 0, 7], starts[:, :, 0, 8] = 0.0, 0.0, -1.0
    one = base[:, 1, :2]  # the 1 is racked at the apex (R-RACK)
    phi = np.degrees(np.arctan2(one[None, :, 1] - sy[:, None], one[None, :, 0] - sx[:, None])) + candidates[:, 4:5]
    rows = np.zeros((C, n, 5))
    rows[:, :, 0], rows[:, :, 1], rows[:, :, 4] = candidates[:, 2:3], phi, candidates[:, 3:4]
    normals = np.tile(rng.standard_normal((n, 5)), (C, 1))  # draw k for rack k, whatever the candidate
    rows = perturbed_rows(rows.reshape(C * n, 5), normals, noise_cfg.sigmas, R)
    states, after = agent.playout(view).play(starts.reshape(C * n, *base.shape[1:]), np.tile(racks, (C, 1)),
                                             np.arange(C * n), rows, SHOT, BREAK_EVENTS)
    return agent.outcome_values(view, 0, states, after).reshape(C, n).mean(axis=1)


def optimize_break(value: Any, seed: int, rounds=BREAK_ROUNDS, keep: int = 3, progress: bool = True
                   ) -> list[dict[str, float]]:
    """The best ``keep`` breaks of the grid for the breaker by ``value``, found by successive halving (new racks and
    draws each round, the means accumulated over the rounds a candidate survives)."""
    agent = ValueSearchAgent(ValueSearchConfig(), seed=seed, value=value)
    rng = np.random.default_rng(seed)
    cands = break_candidates()
    alive = np.arange(len(cands))
    total = np.zeros(len(cands))
    runs = np.zeros(len(cands))
    for n, kept in rounds:
        if kept is not None:
            means = total[alive] / runs[alive]
            alive = alive[np.argsort(-means, kind="stable")[:kept]]
        total[alive] += break_values(agent, cands[alive], n, rng) * n
        runs[alive] += n
        if progress:
            best = alive[np.argmax(total[alive] / runs[alive])]
            print(f"  break: {len(alive)} candidates x {n} samples, best {cands[best].tolist()} "
                  f"{total[best] / runs[best]:.3f}", flush=True)
    order = alive[np.argsort(-(total[alive] / runs[alive]), kind="stable")[:keep]]
    return [dict(zip(("dx", "dy", "V", "b", "dphi"), cands[i].tolist()), value=float(total[i] / runs[i]),
                 samples=int(runs[i])) for i in order]


# -- fitting ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FitConfig:
    """How the network is fitted: layer widths, epochs, learning rate, batch, weight decay, the weight of ``q`` in the
    target (the rest is ``z``), the share of racks held out to report the fit."""

    hidden: tuple[int, ...] = (128, 128)
    epochs: int = 30
    lr: float = 1e-3
    batch: int = 512
    weight_decay: float = 1e-5
    target_mix: float = 0.8
    holdout: float = 0.1


def fit(pos: Positions, config: FitConfig, seed: int, log: list[dict] | None = None) -> ValueNet:
    """A value network fitted to ``pos`` (binary cross-entropy on the blended target, four mirror images of every
    position); the held-out racks' loss against ``z`` is logged per epoch."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    racks = np.unique(pos.rack_id)
    held = set(rng.choice(racks, int(len(racks) * config.holdout), replace=False).tolist()) if config.holdout else set()
    test = np.array([r in held for r in pos.rack_id.tolist()])
    x = np.concatenate([features(pos, mx, my) for mx in (False, True) for my in (False, True)]).astype(np.float32)
    target = (config.target_mix * pos.q + (1.0 - config.target_mix) * pos.z).astype(np.float32)
    y = np.tile(target, 4)
    train = np.tile(~test, 4)
    layers: list[torch.nn.Module] = []
    width = N_FEATURES
    for h in config.hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    net = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(config.epochs, 1))
    xt, yt = torch.as_tensor(x[train]), torch.as_tensor(y[train])
    xv = torch.as_tensor(x[: len(pos)][test])
    zv = torch.as_tensor(pos.z[test])
    gen = torch.Generator().manual_seed(seed)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    for epoch in range(config.epochs):
        net.train()
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for s in range(0, len(xt), config.batch):
            idx = order[s: s + config.batch]
            loss = loss_fn(net(xt[idx])[:, 0], yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        sched.step()
        net.eval()
        with torch.no_grad():
            held_loss = float(loss_fn(net(xv)[:, 0], zv)) if len(xv) else float("nan")
        if log is not None:
            log.append({"epoch": epoch, "train": total / len(xt), "held_out_z": held_loss})
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    return ValueNet([m.weight.detach().numpy().T.copy() for m in linears],
                    [m.bias.detach().numpy().copy() for m in linears], {"fit": asdict(config)})


#: The self-play search: a third of the player's budget (``ValueSearchConfig``'s defaults), for three times the racks.
SELF_PLAY_SEARCH = "candidates=120,top_pots=8,top_safeties=3,samples=12,refine=3,placements=2"


@dataclass(frozen=True)
class Args:
    """The training run (``python -m agents.training.value --help`` spells each as a flag).

    Attributes:
        generations: self-play generations (generation 0 plays with ``EaseValue``, each later one with the network
            fitted after the one before).
        racks: self-play racks per generation.
        seed: seeds the self-play (generation g: ``seed + 1000 g``, chunk by chunk), the fits and the break search.
        jobs: worker processes for the self-play (the data do not depend on it).
        epochs: passes over the data per fit.
        target_mix: the weight of ``q`` (the search's value of the shot played) in the target; the rest is ``z``
            (whether the player to act won the rack).
        hidden: the widths of the network's hidden layers.
        keep: generations of data each fit uses, the newest.
        search: ``ValueSearchConfig`` of the self-play (``key=value,...`` over its defaults).
        break_rounds: the break search after the last generation (``optimize_break``): successive-halving rounds
            ``samples[:kept],...``, the first round trying every candidate of the grid.
        quick_break_rounds: the break search after the other generations (the next one breaks with it).
        work: folder for each generation's data (``genG.npz``), network (``valueG.npz``) and ``report.json`` (each
            generation's figures and wall time); files there already are kept (an interrupted run resumes).
        out: where to copy the last network ("" : nowhere).
        progress: print each chunk of self-play, each break round and each generation's figures.
    """

    generations: int = 5
    racks: int = 4000
    seed: int = 7
    jobs: int = 1
    epochs: int = 30
    target_mix: float = 0.8
    hidden: str = "128,128"
    keep: int = 3
    search: str = SELF_PLAY_SEARCH
    break_rounds: str = "8,32:300,128:60,512:12,2048:3"
    quick_break_rounds: str = "4,16:200,64:40,256:8"
    work: str = "runs/value"
    out: str = ""
    progress: bool = True

    def __post_init__(self) -> None:
        for name in ("generations", "racks", "jobs", "epochs", "keep"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a whole number >= 1, got {value!r}")
        if not 0.0 <= self.target_mix <= 1.0:
            raise ValueError(f"target_mix: expected a weight in [0, 1], got {self.target_mix!r}")
        self.layers()
        parse_rounds(self.break_rounds, "break_rounds")
        parse_rounds(self.quick_break_rounds, "quick_break_rounds")

    def layers(self) -> tuple[int, ...]:
        try:
            widths = tuple(int(h) for h in self.hidden.split(",") if h.strip())
        except ValueError:
            widths = ()
        if not widths or min(widths) < 1:
            raise ValueError(f"hidden: expected layer widths such as '256,256', got {self.hidden!r}")
        return widths


def parse_rounds(text: str, name: str = "rounds") -> tuple[tuple[int, int | None], ...]:
    """Successive-halving rounds from ``samples[:kept],...`` (the first round keeps every candidate)."""
    rounds: list[tuple[int, int | None]] = []
    try:
        for part in filter(None, (p.strip() for p in text.split(","))):
            samples, _, kept = part.partition(":")
            rounds.append((int(samples), int(kept) if kept else None))
    except ValueError:
        rounds = []
    if not rounds or any(n < 1 or (k is not None and k < 1) for n, k in rounds) or rounds[0][1] is not None:
        raise ValueError(f"{name}: expected samples[:kept],... with whole numbers >= 1 and no kept count in the "
                         f"first round (e.g. '8,32:300,128:60'), got {text!r}")
    return tuple(rounds)


def train(args: Args) -> Path:
    """Run the generations of ``args``; the path of the last network."""
    first_run.install()
    config = parse_options(args.search, ValueSearchConfig)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    weights = "ease"
    data: list[Positions] = []
    report_path = work / "report.json"
    report: list[dict[str, Any]] = json.loads(report_path.read_text()) if report_path.exists() else []
    for g in range(args.generations):
        data_path, net_path = work / f"gen{g}.npz", work / f"value{g}.npz"
        t0 = time.perf_counter()
        if data_path.exists():  # an interrupted run resumes: the data of a generation are kept ...
            pos = Positions.load(data_path)
            if args.progress:
                print(f"generation {g}: {len(pos)} positions kept from {data_path}", flush=True)
        else:
            if args.progress:
                print(f"generation {g}: {args.racks} racks with {weights}", flush=True)
            pos = generate(args.racks, args.seed + 1000 * g, weights, config, args.jobs, progress=args.progress)
            pos.save(data_path)
        if g == 0 and weights == "ease":  # EaseValue's values are no estimate of winning: learn from the outcomes
            pos = Positions(pos.balls, pos.racks, pos.z.copy(), pos.z, pos.rack_id)
        data = (data + [pos])[-args.keep:]
        if net_path.exists():  # ... and so is its network
            weights = str(net_path)
            if args.progress:
                print(f"generation {g}: network kept from {net_path}", flush=True)
            continue
        log: list[dict[str, Any]] = []
        fit_config = FitConfig(hidden=args.layers(), epochs=args.epochs, target_mix=args.target_mix)
        net = fit(Positions.concat(data), fit_config, args.seed + g, log)
        last = g == args.generations - 1
        rounds = parse_rounds(args.break_rounds if last else args.quick_break_rounds)
        net.meta.update({"generation": g, "args": asdict(args), "search": asdict(config),
                         "break": optimize_break(net, args.seed + g, rounds, progress=args.progress)})
        weights = str(net.save(net_path))
        report = [r for r in report if r["generation"] < g] + [{
            "generation": g, "positions": len(pos), "shooter_won": float(pos.z.mean()), "fit": log[-1],
            "break": net.meta["break"][0], "wall_s": round(time.perf_counter() - t0, 1)}]
        if args.progress:
            print(json.dumps(report[-1]), flush=True)
        report_path.write_text(json.dumps(report, indent=2))
    if args.out:
        ValueNet.load(weights).save(args.out)
        if args.progress:
            print(f"wrote {args.out}", flush=True)
    return Path(weights)


def _attribute_notes(doc: str) -> dict[str, str]:
    """The text of each name in a docstring's ``Attributes:`` section (names sharing a line share the text)."""
    notes: dict[str, str] = {}
    names: list[str] = []
    for line in doc.split("Attributes:", 1)[-1].splitlines():
        head, sep, text = line.strip().partition(": ")
        if sep and all(n.strip().isidentifier() for n in head.split(",")):
            names = [n.strip() for n in head.split(",")]
            for n in names:
                notes[n] = text
        elif line.strip() and names:
            for n in names:
                notes[n] += " " + line.strip()
    return {k: v.replace("%", "%%") for k, v in notes.items()}


def main(argv: list[str] | None = None) -> int:
    """``python -m agents.training.value``: the flags are ``Args``' fields."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    defaults = Args()
    notes = _attribute_notes(Args.__doc__ or "")
    for f in fields(Args):
        flag = "--" + f.name.replace("_", "-")
        default = getattr(defaults, f.name)
        kind = (lambda v: v.lower() in ("1", "true", "yes")) if isinstance(default, bool) else type(default)
        ap.add_argument(flag, type=kind, default=default, help=notes.get(f.name, " "))
    ns = ap.parse_args(argv)
    try:
        args = Args(**vars(ns))
    except ValueError as err:
        ap.error(str(err))
    train(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
