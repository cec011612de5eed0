"""Train PPO (stable-baselines3) on NineBall-v0 with macro actions; CleanRL-style, one file, one ``Args``.

    python -m agents.training.ppo --total-timesteps 200000 --opponent ghost
    tensorboard --logdir runs

TensorBoard logs go to ``runs/<run name>``, checkpoints and the final model to
``checkpoints/<run name>/``; play the result with ``nineball match ppo:checkpoints/<run name>/final.zip ghost``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from agents.learned.macro import MacroStyle
from agents.learned.numpy_policy import export_sb3
from agents.players.search import SearchConfig
from agents.registry import parse_options
from agents.training.common import asdict, callbacks, make_vec_env, run_name, run_script
from agents.training.evaluation import eval_callback
from agents.training.imitation import Dataset, behaviour_clone, generate
from agents.training.selfplay import SelfPlayOpponent, SnapshotPool, snapshot_callback


@dataclass(frozen=True)
class Args:
    """PPO on NineBall-v0 (one rack per episode).

    Attributes:
        exp_name: name of the experiment (the run name adds the seed and the start time).
        seed: seed of the envs, the policy initialisation and the opponent.
        total_timesteps: learner decisions to train for.
        n_envs: environments stepped in lockstep (one process).
        vec_env: "native" steps ``gym.make_vec("NineBall-v0")`` (tables simulated in batches) through
            ``MacroActionVectorWrapper`` and the SB3 adapter; "dummy" steps a ``DummyVecEnv`` of single envs.
        opponent: the opponent inside the env, an ``agents.registry`` spec (ghost, random, search...), or
            "selfplay": a frozen snapshot of the learner drawn per rack from a pool (``agents.training.selfplay``).
        pool_size, snapshot_every: self-play pool capacity, and PPO updates between snapshots.
        noise: execution-noise preset of the env ("icga" or "none").
        macro: use the macro-action wrapper (``agents.learned.macro``); false trains on the raw 9 cue parameters.
        leaves: add the macro layer's leave features (noise-free value of each slot's shot on a speed × spin grid).
        macro_style: who breaks, places the cue ball in hand and picks the safety for the macro layer
            (``agents.learned.macro.MacroStyle`` as ``key=value,...``; "" is GhostBall for all three); saved in the
            exported policy's meta (``agents.learned.numpy_policy``), so ``learned:PATH.npz`` plays with it.
        rerank_samples: noisy simulations per candidate with which the exported policy (``final.npz``) re-ranks
            its macro action when played (``agents.learned.macro.MacroPlanner.rerank``; 0: as is); not used in training.
        imitation_matches: > 0 warm-starts the actor by behaviour cloning of Search (``agents.training.imitation``): its
            decisions in this many races to 3 against GhostBall, played in imitation_jobs processes by Search
            with the options imitation_search (``key=value,...``; its jumps are off by default, as no macro
            action expresses a jump), seeded from ``seed``; needs leaves. The
            dataset is saved as ``imitation.npz`` in the run folder; imitation_data reuses such a file instead.
        dagger_rounds, dagger_matches: DAgger rounds after the first cloning: the cloned policy plays
            dagger_matches races (the next match indices of the same series), Search labels its positions,
            and the policy is cloned again on all the data (0 matches: as many as imitation_matches).
        bc_epochs, bc_lr: behaviour-cloning epochs per round and Adam learning rate (batches of batch_size).
        pot_reward, foul_reward: shaping per legal pot / per foul of the learner (the rack is ±1).
        learning_rate, n_steps, batch_size, n_epochs, gamma, gae_lambda, clip_range, ent_coef: PPO's.
        log_std_init: initial log standard deviation of the Gaussian policy (−1: refinements start gentle).
        net_width: units in each of the two hidden layers (policy and value networks).
        checkpoint_freq: save a checkpoint every this many steps.
        eval_freq: every this many steps, a fixed-seed match against GhostBall logged to TensorBoard with its
            Wilson interval (``agents.training.evaluation``; 0: never); eval_matches races to eval_race, seed eval_seed;
            eval_search_every: every this many evaluations also against Search (0: never).
        max_minutes: stop after this much wall-clock time (0: no limit); the final model is saved either way.
        torch_threads: CPU threads torch may use (small networks run fastest on one).
        runs_dir, checkpoints_dir: where TensorBoard logs and models go.
        progress_bar: show a tqdm bar.
    """

    exp_name: str = "ppo_nineball"
    seed: int = 1
    total_timesteps: int = 200_000
    n_envs: int = 4
    vec_env: str = "native"
    opponent: str = "ghost"
    pool_size: int = 8
    snapshot_every: int = 5
    noise: str = "icga"
    macro: bool = True
    leaves: bool = False
    macro_style: str = ""
    rerank_samples: int = 0
    imitation_matches: int = 0
    imitation_jobs: int = 2
    imitation_search: str = "candidates=96,top=6,samples=10,refine=2,lookahead=8,hard_below=0,jumps=false"
    imitation_data: str = ""
    dagger_rounds: int = 0
    dagger_matches: int = 0
    bc_epochs: int = 30
    bc_lr: float = 1e-3
    pot_reward: float = 0.1
    foul_reward: float = -0.1
    learning_rate: float = 3e-4
    n_steps: int = 256
    batch_size: int = 256
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.0
    log_std_init: float = -1.0
    net_width: int = 128
    checkpoint_freq: int = 20_000
    eval_freq: int = 25_000
    eval_matches: int = 10
    eval_race: int = 3
    eval_seed: int = 1_000_000
    eval_search_every: int = 4
    max_minutes: float = 0.0
    torch_threads: int = 1
    runs_dir: str = "runs"
    checkpoints_dir: str = "checkpoints"
    progress_bar: bool = True


def train(args: Args) -> Path:
    """Train, save ``final.zip`` (and, with macro actions, its numpy export ``final.npz``, which ``learned:PATH``
    plays) and ``args.json`` under the run's checkpoint folder, and return the model's path."""
    from stable_baselines3 import PPO

    import torch

    policy_meta(args)  # a bad --macro-style fails before any work
    torch.set_num_threads(args.torch_threads)
    name = run_name(args.exp_name, args.seed)
    out = Path(args.checkpoints_dir) / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2))
    data = imitation_data(args, out)
    extra: list = []
    if args.eval_freq > 0:
        extra.append(eval_callback(args.eval_freq, args.eval_matches, args.eval_race, args.eval_seed,
                                   args.eval_search_every, args.noise))
    opponent: object = args.opponent
    if args.opponent == "selfplay":
        pool = SnapshotPool(args.pool_size)
        opponent = SelfPlayOpponent(pool, args.seed)
        extra.append(snapshot_callback(pool, args.snapshot_every, {"macro_style": policy_meta(args)["macro_style"]}))
    envs = make_vec_env(args.vec_env, args.n_envs, opponent, args.noise, args.macro, args.pot_reward,
                        args.foul_reward, args.seed, args.leaves, args.macro_style)
    model = PPO("MlpPolicy", envs, learning_rate=args.learning_rate, n_steps=args.n_steps,
                batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma, gae_lambda=args.gae_lambda,
                clip_range=args.clip_range, ent_coef=args.ent_coef, seed=args.seed, device="cpu",
                policy_kwargs={"net_arch": [args.net_width, args.net_width], "log_std_init": args.log_std_init},
                tensorboard_log=args.runs_dir, verbose=0)
    if data is not None:
        warm_start(model, data, args, out)
    model.learn(total_timesteps=args.total_timesteps, tb_log_name=name,
                callback=callbacks(args.total_timesteps, out, args.checkpoint_freq, args.n_envs, args.progress_bar,
                                       args.max_minutes) + extra)
    path = out / "final.zip"
    model.save(str(path))
    if args.macro:
        export_sb3(model, policy_meta(args)).save(out / "final.npz")
    envs.close()
    return path


def warm_start(model, data, args: Args, out: Path) -> None:
    """Behaviour cloning of Search on ``data``, then ``args.dagger_rounds`` DAgger rounds; saves ``bc.zip``."""
    losses = [behaviour_clone(model, data, args.bc_epochs, args.bc_lr, args.batch_size, args.seed)]
    per_round = args.dagger_matches or args.imitation_matches
    for r in range(1, args.dagger_rounds + 1):
        student = export_sb3(model, policy_meta(args)).save(out / f"student{r}.npz")
        more = generate(per_round, args.seed, args.imitation_jobs, noise=args.noise, config=search_config(args),
                        progress=True, student=str(student), first=args.imitation_matches + (r - 1) * per_round,
                        style=args.macro_style)
        more.save(str(out / f"dagger{r}.npz"))
        data = Dataset.concat([data, more])
        losses.append(behaviour_clone(model, data, args.bc_epochs, args.bc_lr, args.batch_size, args.seed + r))
    (out / "bc_loss.json").write_text(json.dumps({"losses": losses, "labels": len(data)}))
    model.save(str(out / "bc.zip"))


def policy_meta(args: Args) -> dict:
    """The meta an exported policy of this run carries: its macro layer's style."""
    if isinstance(args.rerank_samples, bool) or not isinstance(args.rerank_samples, int) or args.rerank_samples < 0:
        raise ValueError(f"rerank_samples: expected a whole number >= 0, got {args.rerank_samples!r}")
    return {"macro_style": MacroStyle.parse(args.macro_style).to_dict(), "rerank_samples": args.rerank_samples}


def search_config(args: Args):
    """The ``SearchConfig`` of the imitated Search (``args.imitation_search``)."""
    return parse_options(args.imitation_search, SearchConfig)


def imitation_data(args: Args, out: Path):
    """The behaviour-cloning dataset of the run (None without a warm start): generated, or loaded from
    ``args.imitation_data``."""
    if args.imitation_matches <= 0 and not args.imitation_data:
        return None
    if not (args.macro and args.leaves):
        raise ValueError("imitation: the warm start clones macro actions with the leave features; "
                         "set --macro true --leaves true")
    if args.imitation_data:
        return Dataset.load(args.imitation_data)
    data = generate(args.imitation_matches, args.seed, args.imitation_jobs, noise=args.noise,
                    config=search_config(args), progress=True, style=args.macro_style)
    data.save(str(out / "imitation.npz"))
    (out / "imitation.json").write_text(json.dumps({"labels": len(data), "dropped": data.dropped}))
    return data


def main(argv: list[str] | None = None) -> int:
    return run_script("agents.training.ppo", train, Args, argv)


if __name__ == "__main__":
    raise SystemExit(main())
