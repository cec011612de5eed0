"""Train PPO with RLlib (new API stack, CPU) on nineball; CleanRL-style, one file, one ``Args`` (the ``ray`` extra).

    python -m agents.training.rllib --iterations 50 --env-runners 2 --envs-per-runner 8
    python -m agents.training.rllib --selfplay true --iterations 50       # both players, one shared policy
    python -m agents.training.rllib --address auto ...                    # on a running cluster (`ray start --head`)
    tensorboard --logdir runs

The single-agent env (``nineball_env.rllib.SINGLE_AGENT``) plays against the env's default opponent
(``AimingPolicy``) with its native vector env on every env runner; ``--selfplay true`` trains on the
two-player ``NineBallMultiAgentEnv`` with both seats mapped to one module. TensorBoard logs go to
``runs/<run name>``, the checkpoint to ``checkpoints/<run name>/checkpoint``; play it with
``nineball match rllib:checkpoints/<run name>/checkpoint ghost``.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from agents.arena.ray_backend import ONE_THREAD_PER_CPU, RayBackendError, check_address
from agents.training.common import asdict, parse_args, run_name

SINGLE_MODULE = "default_policy"  # RLlib's module id for a single-agent env
SHARED_MODULE = "shared"  # the one module both seats play in self-play


@dataclass(frozen=True)
class Args:
    """PPO (RLlib) on nineball, one rack per episode unless ``match_race`` > 0.

    Attributes:
        exp_name: name of the experiment (the run name adds the seed and the start time).
        seed: seed of RLlib (envs, module initialisation, sampling).
        iterations: training iterations (each samples ``train_batch_size`` env steps, then updates).
        env_runners: remote env-runner actors (0 samples in the driver process).
        envs_per_runner: tables each env runner steps together (the native vector env in single-agent mode,
            RLlib's vector of multi-agent envs in self-play).
        selfplay: train on the two-player multi-agent env (both seats share one module).
        noise: execution-noise preset of the env ("icga" or "none").
        match_race: 0 for one rack per episode, N for races to N.
        train_batch_size: env steps per iteration; minibatch_size, num_epochs: PPO's SGD over them.
        lr, gamma, gae_lambda, clip_param, entropy_coeff: PPO's.
        net_width: units in each of the two hidden layers.
        address: Ray cluster to join ("" starts a local instance, "auto" finds a running one).
        num_cpus: CPUs of a local instance (0: all).
        runs_dir, checkpoints_dir: where TensorBoard logs and checkpoints go.
    """

    exp_name: str = "rllib_ppo_nineball"
    seed: int = 1
    iterations: int = 20
    env_runners: int = 2
    envs_per_runner: int = 4
    selfplay: bool = False
    noise: str = "icga"
    match_race: int = 0
    train_batch_size: int = 2000
    minibatch_size: int = 250
    num_epochs: int = 5
    lr: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_param: float = 0.2
    entropy_coeff: float = 0.0
    net_width: int = 128
    address: str = ""
    num_cpus: int = 0
    runs_dir: str = "runs"
    checkpoints_dir: str = "checkpoints"

    def __post_init__(self) -> None:
        for name in ("iterations", "envs_per_runner", "train_batch_size", "minibatch_size", "num_epochs", "net_width"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: expected a whole number >= 1, got {getattr(self, name)!r}")
        for name in ("env_runners", "match_race", "num_cpus"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name}: expected a whole number >= 0, got {getattr(self, name)!r}")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"minibatch_size: expected <= train_batch_size ({self.train_batch_size}), "
                             f"got {self.minibatch_size}")


def ppo_config(args: Args) -> Any:
    """The RLlib ``PPOConfig`` for ``args`` (new API stack, torch on CPU)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    from nineball_env import rllib as nb_rllib  # needs RLlib

    nb_rllib.register()
    env_config: dict[str, Any] = {"noise": args.noise}
    if args.match_race:
        env_config["match_race"] = args.match_race
    config = (PPOConfig()
              .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
              .framework("torch")
              .debugging(seed=args.seed, log_level="WARN")
              .training(train_batch_size_per_learner=args.train_batch_size, minibatch_size=args.minibatch_size,
                        num_epochs=args.num_epochs, lr=args.lr, gamma=args.gamma, lambda_=args.gae_lambda,
                        clip_param=args.clip_param, entropy_coeff=args.entropy_coeff)
              .rl_module(model_config=DefaultModelConfig(fcnet_hiddens=[args.net_width, args.net_width]))
              .learners(num_learners=0, num_gpus_per_learner=0))
    if args.selfplay:
        return (config.environment(nb_rllib.SELF_PLAY, env_config=env_config)
                .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner)
                .multi_agent(policies={SHARED_MODULE}, policy_mapping_fn=_shared_module))
    return (config.environment(nb_rllib.SINGLE_AGENT, env_config=env_config)
            .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner,
                         gym_env_vectorize_mode="vector_entry_point"))


def _shared_module(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Self-play: both seats play (and train) the same module."""
    return SHARED_MODULE


def scalars(result: dict, prefix: str = "") -> Iterator[tuple[str, float]]:
    """Every finite number in RLlib's nested result dict, as (``a/b/c``, value)."""
    for key, value in result.items():
        tag = f"{prefix}/{key}" if prefix else str(key)
        if isinstance(value, dict):
            yield from scalars(value, tag)
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            yield tag, float(value)


def sampling_rate(result: dict) -> float:
    """Env steps sampled per second of sampling in one iteration's result (NaN when RLlib reports no timer)."""
    steps = result.get("env_runners", {}).get("num_env_steps_sampled", float("nan"))
    seconds = result.get("timers", {}).get("env_runner_sampling_timer", float("nan"))
    return float(steps) / float(seconds) if seconds and seconds > 0 else float("nan")


def train(args: Args) -> Path:
    """Train for ``args.iterations``, log to TensorBoard, save the checkpoint and ``args.json``; return the checkpoint."""
    import ray
    from torch.utils.tensorboard import SummaryWriter

    name = run_name(args.exp_name, args.seed)
    out = Path(args.checkpoints_dir) / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "args.json").write_text(json.dumps(asdict(args), indent=2))
    started = not ray.is_initialized()
    if started:
        ray.init(address=args.address or "local", num_cpus=(args.num_cpus or None) if not args.address else None,
                 include_dashboard=False, logging_level="warning", runtime_env=ONE_THREAD_PER_CPU)
    algo = ppo_config(args).build_algo()
    writer = SummaryWriter(str(Path(args.runs_dir) / name))
    try:
        for it in range(1, args.iterations + 1):
            result = algo.train()
            step = int(result.get("num_env_steps_sampled_lifetime", it))
            for tag, value in scalars(result):
                writer.add_scalar(tag, value, step)
            rate = sampling_rate(result)
            writer.add_scalar("nineball/sampling_env_steps_per_s", rate, step)
            ret = result.get("env_runners", {}).get("episode_return_mean", float("nan"))
            print(f"iteration {it}/{args.iterations}: {step} env steps, return {ret:.3f}, "
                  f"sampling {rate:.0f} env steps/s", flush=True)
        path = Path(algo.save_to_path(str((out / "checkpoint").resolve())))
    finally:
        writer.close()
        algo.stop()
        if started:
            ray.shutdown()
    return path


def main(argv: list[str] | None = None) -> int:
    """Train from command-line flags; a bad flag or an unreachable cluster exits with code 2 and a message."""
    try:
        args = parse_args(Args, argv, prog="python -m agents.training.rllib")
        if args.address:
            check_address(args.address)
    except (ValueError, RayBackendError) as err:
        print(f"train_rllib: {err}", file=sys.stderr)
        return 2
    path = train(args)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
