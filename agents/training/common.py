"""What the CleanRL-style training scripts share: command-line flags from an ``Args`` dataclass, the env, callbacks.

Needs the ``train`` extra (stable-baselines3, torch, tensorboard) to run; stable-baselines3 is imported by the functions
that use it, so a script can say what is missing (``missing_train_extra``).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, TypeVar

import gymnasium as gym

import nineball_env  # noqa: F401  (registers NineBall-v0)
from agents import first_run
from agents.learned.macro import MacroActionWrapper, MacroStyle
from agents.learned.macro_vector import MacroActionVectorWrapper
from agents.registry import make_agent

T = TypeVar("T")


def parse_args(cls: type[T], argv: list[str] | None = None, description: str = "", prog: str | None = None) -> T:
    """An ``Args`` dataclass from ``--field-name value`` flags (booleans take true/false); docs from the docstring."""
    parser = argparse.ArgumentParser(prog=prog, description=description or (cls.__doc__ or "").split("\n")[0])
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        default = f.default
        flag = "--" + f.name.replace("_", "-")
        help_text = f"(default: {default})"
        if isinstance(default, bool):
            parser.add_argument(flag, type=_boolean, default=default, help=help_text, metavar="BOOL")
        else:
            parser.add_argument(flag, type=type(default), default=default, help=help_text)
    ns = parser.parse_args(argv)
    return cls(**vars(ns))


def _boolean(text: str) -> bool:
    if text.lower() in ("1", "true", "yes"):
        return True
    if text.lower() in ("0", "false", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


TRAIN_INSTALL_HINT = ("install the train extra, torch first (a CPU build is enough):\n"
                      "    pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
                      "    pip install -e \".[train]\"")


def missing_train_extra() -> str | None:
    """The message to print when stable-baselines3, torch or tensorboard cannot be imported, else None."""
    for module in ("torch", "stable_baselines3", "tensorboard"):
        try:
            __import__(module)
        except ImportError as err:
            return f"training needs {module}, which cannot be imported ({err}); {TRAIN_INSTALL_HINT}"
    return None


def run_script(script: str, train: Callable[[Any], Path], args_cls: type, argv: list[str] | None) -> int:
    """A training script's ``main``: parse the flags, check the train extra (exit 2 with a hint), train."""
    args = parse_args(args_cls, argv, prog=f"python -m {script}")
    problem = missing_train_extra()
    if problem is not None:
        print(f"python -m {script}: {problem}", file=sys.stderr)
        return 2
    first_run.install()
    path = train(args)
    print(f"saved {path}")
    return 0


def make_env_fn(opponent: str, noise: str, macro: bool, pot_reward: float, foul_reward: float,
                seed: int, leaves: bool = False, macro_style: str = "") -> Callable[[], gym.Env]:
    """A factory for one training env: NineBall-v0 against ``opponent`` (an ``agents.registry`` spec); ``leaves``
    adds the macro layer's leave features, ``macro_style`` is its ``MacroStyle`` (``key=value,...``)."""

    def make() -> gym.Env:
        from stable_baselines3.common.monitor import Monitor

        env = gym.make("NineBall-v0", opponent=make_agent(opponent), noise=noise,
                       reward_shaping={"pot": pot_reward, "foul": foul_reward})
        if macro:
            env = MacroActionWrapper(env, noise=noise, leaves=leaves, style=MacroStyle.parse(macro_style))
        env = Monitor(env, info_keywords=("racks",))
        env.reset(seed=seed)
        env.action_space.seed(seed)
        return env

    return make


def make_vec_env(kind: str, n_envs: int, opponent: Any, noise: str, macro: bool, pot_reward: float,
                 foul_reward: float, seed: int, leaves: bool = False, macro_style: str = "") -> Any:
    """The SB3 ``VecEnv`` of ``n_envs`` training tables: "native" (``gym.make_vec`` + ``MacroActionVectorWrapper`` +
    ``SB3VecEnvAdapter``, shots simulated in batches) or "dummy" (a ``DummyVecEnv`` of ``make_env_fn`` envs).
    ``opponent``: an ``agents.registry`` spec, or (native only) an opponent object such as ``SelfPlayOpponent``."""
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    if kind == "dummy":
        if not isinstance(opponent, str):
            raise ValueError("opponent: the dummy path takes an agents.registry spec; self-play needs vec_env native")
        return DummyVecEnv([make_env_fn(opponent, noise, macro, pot_reward, foul_reward, seed + i, leaves, macro_style)
                            for i in range(n_envs)])
    if kind != "native":
        raise ValueError(f"vec_env: expected 'native' or 'dummy', got {kind!r}")
    from nineball_env.sb3_vec import SB3VecEnvAdapter  # needs stable-baselines3

    opp = make_agent(opponent) if isinstance(opponent, str) else opponent
    venv = gym.make_vec("NineBall-v0", num_envs=n_envs, opponent=opp, noise=noise,
                        reward_shaping={"pot": pot_reward, "foul": foul_reward})
    if callable(getattr(opp, "bind", None)):  # a self-play opponent serves every table in one batched call
        opp.bind(venv)
    if macro:
        venv = MacroActionVectorWrapper(venv, noise=noise, leaves=leaves, style=MacroStyle.parse(macro_style))
    envs = VecMonitor(SB3VecEnvAdapter(venv), info_keywords=("racks",))
    envs.seed(seed)
    envs.action_space.seed(seed)
    return envs


def callbacks(total: int, checkpoint_dir: Path, checkpoint_freq: int, n_envs: int, progress: bool,
              max_minutes: float = 0.0) -> list[Any]:
    """Checkpoints every ``checkpoint_freq`` steps, a tqdm bar, the learner's rack win rate in TensorBoard, and a
    wall-clock limit (``max_minutes`` > 0 stops training early; the final model is still saved)."""
    from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

    class RackStats(BaseCallback):
        """Logs ``nineball/rack_win_rate`` over the last 200 finished racks, and a tqdm progress bar."""

        def __init__(self) -> None:
            super().__init__()
            self.results: deque[float] = deque(maxlen=200)
            self.won = 0.0
            self.bar = None

        def _on_training_start(self) -> None:
            self.started = time.monotonic()
            if progress:
                from tqdm import tqdm

                if max_minutes > 0:  # whichever comes first; the bar runs on time, steps in the postfix
                    self.bar = tqdm(total=round(60.0 * max_minutes), unit="s", desc="training", mininterval=1.0,
                                    dynamic_ncols=True,
                                    bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed} of "
                                               f"{max_minutes:g} min{{postfix}}")
                else:
                    self.bar = tqdm(total=total, unit="step", dynamic_ncols=True, desc="training", mininterval=1.0)

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", []):
                for winner in info.get("racks", ()):
                    if len(self.results) == self.results.maxlen:
                        self.won -= self.results[0]
                    self.results.append(1.0 if winner == "learner" else 0.0)
                    self.won += self.results[-1]
            if self.results:  # the mean of the last 200 as a running count: no array per step
                self.logger.record("nineball/rack_win_rate", self.won / len(self.results))
            elapsed = time.monotonic() - self.started
            if self.bar is not None:
                if max_minutes > 0:
                    self.bar.update(min(int(elapsed), self.bar.total) - self.bar.n)
                else:
                    self.bar.update(self.training_env.num_envs)
                if self.n_calls % 100 == 0:
                    racks = f", racks won {self.won / len(self.results):.2f}" if self.results else ""
                    steps = f", {self.num_timesteps:,} of at most {total:,} steps" if max_minutes > 0 else ""
                    self.bar.set_postfix_str(f"{steps.lstrip(', ')}{racks}", refresh=False)
            return not (max_minutes > 0 and elapsed > 60.0 * max_minutes)

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    every = max(checkpoint_freq // max(n_envs, 1), 1)
    return [CheckpointCallback(every, str(checkpoint_dir), name_prefix="model"), RackStats()]


def run_name(exp_name: str, seed: int) -> str:
    """CleanRL's run name: experiment, seed and start time."""
    return f"{exp_name}__{seed}__{int(time.time())}"


def asdict(args: Any) -> dict[str, Any]:
    return dataclasses.asdict(args)
