"""Train SAC (stable-baselines3) on NineBall-v0 with macro actions; CleanRL-style, one file, one ``Args``.

    python -m agents.training.sac --total-timesteps 100000 --opponent ghost
    tensorboard --logdir runs

TensorBoard logs go to ``runs/<run name>``, checkpoints and the final model to
``checkpoints/<run name>/``; play the result with ``nineball match sac:checkpoints/<run name>/final.zip ghost``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from agents.training.common import asdict, callbacks, make_env_fn, run_name, run_script


@dataclass(frozen=True)
class Args:
    """SAC on NineBall-v0 (one rack per episode).

    Attributes:
        exp_name: name of the experiment (the run name adds the seed and the start time).
        seed: seed of the envs, the networks and the opponent.
        total_timesteps: learner decisions to train for.
        n_envs: environments stepped in lockstep (one process).
        opponent: the opponent inside the env, an ``agents.registry`` spec (ghost, random, search...).
        noise: execution-noise preset of the env ("icga" or "none").
        macro: use the macro-action wrapper (``agents.learned.macro``); false trains on the raw 9 cue parameters.
        pot_reward, foul_reward: shaping per legal pot / per foul of the learner (the rack is ±1).
        learning_rate, buffer_size, learning_starts, batch_size, tau, gamma, train_freq, gradient_steps: SAC's.
        net_width: units in each of the two hidden layers (actor and critics).
        checkpoint_freq: save a checkpoint every this many steps.
        max_minutes: stop after this much wall-clock time (0: no limit); the final model is saved either way.
        torch_threads: CPU threads torch may use (small networks run fastest on one).
        runs_dir, checkpoints_dir: where TensorBoard logs and models go.
        progress_bar: show a tqdm bar.
    """

    exp_name: str = "sac_nineball"
    seed: int = 1
    total_timesteps: int = 100_000
    n_envs: int = 1
    opponent: str = "ghost"
    noise: str = "icga"
    macro: bool = True
    pot_reward: float = 0.1
    foul_reward: float = -0.1
    learning_rate: float = 3e-4
    buffer_size: int = 100_000
    learning_starts: int = 1_000
    batch_size: int = 256
    tau: float = 0.005
    gamma: float = 0.99
    train_freq: int = 1
    gradient_steps: int = 1
    net_width: int = 128
    checkpoint_freq: int = 20_000
    max_minutes: float = 0.0
    torch_threads: int = 1
    runs_dir: str = "runs"
    checkpoints_dir: str = "checkpoints"
    progress_bar: bool = True


def train(args: Args) -> Path:
    """Train, save ``final.zip`` and ``args.json`` under the run's checkpoint folder, and return the model's path."""
    from stable_baselines3 import SAC
    from stable_baselines3.common.vec_env import DummyVecEnv

    import torch

    torch.set_num_threads(args.torch_threads)
    name = run_name(args.exp_name, args.seed)
    out = Path(args.checkpoints_dir) / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2))
    envs = DummyVecEnv([make_env_fn(args.opponent, args.noise, args.macro, args.pot_reward, args.foul_reward,
                                    args.seed + i) for i in range(args.n_envs)])
    model = SAC("MlpPolicy", envs, learning_rate=args.learning_rate, buffer_size=args.buffer_size,
                learning_starts=args.learning_starts, batch_size=args.batch_size, tau=args.tau, gamma=args.gamma,
                train_freq=args.train_freq, gradient_steps=args.gradient_steps, seed=args.seed, device="cpu",
                policy_kwargs={"net_arch": [args.net_width, args.net_width]}, tensorboard_log=args.runs_dir,
                verbose=0)
    model.learn(total_timesteps=args.total_timesteps, tb_log_name=name,
                callback=callbacks(args.total_timesteps, out, args.checkpoint_freq, args.n_envs, args.progress_bar,
                                       args.max_minutes))
    path = out / "final.zip"
    model.save(str(path))
    envs.close()
    return path


def main(argv: list[str] | None = None) -> int:
    return run_script("agents.training.sac", train, Args, argv)


if __name__ == "__main__":
    raise SystemExit(main())
