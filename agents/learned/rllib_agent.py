"""RLlibAgent: the policy of an RLlib checkpoint (``agents.training.rllib``) playing as an agent (the ``ray`` extra).

The agent loads one RL module from ``CHECKPOINT/learner_group/learner/rl_module/<module id>`` (the
single-agent ``default_policy`` or the self-play ``shared`` module) and plays its deterministic action
on the raw NineBall-v0 observation. RLlib and torch are imported only here.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np

from agents.protocol import BaseAgent, TableView
from nineball_env.actions import N_ACTION

MODULES = ("default_policy", "shared")  # what agents.training.rllib saves, in the order they are looked for


def module_dir(path: str | Path) -> Path:
    """The RL module folder inside an RLlib checkpoint (or inside a run folder holding ``checkpoint/``)."""
    path = Path(path)
    for root in (path, path / "checkpoint"):
        modules = root / "learner_group" / "learner" / "rl_module"
        if modules.is_dir():
            for name in MODULES:
                if (modules / name).is_dir():
                    return modules / name
            found = sorted(p.name for p in modules.iterdir() if p.is_dir())
            if len(found) == 1:
                return modules / found[0]
            raise FileNotFoundError(f"RLlib checkpoint {root}: expected one of the modules {', '.join(MODULES)}, "
                                    f"found {found}")
    raise FileNotFoundError(f"no RLlib checkpoint at {path} (expected learner_group/learner/rl_module inside)")


class RLlibAgent(BaseAgent):
    """Plays an RLlib module's deterministic action for the observation (the mean of its Gaussian)."""

    name = "rllib"

    def __init__(self, module: Any) -> None:
        super().__init__()
        shape = tuple(module.action_space.shape or ())
        if shape != (N_ACTION,):
            raise ValueError(f"module: expected an action space of shape ({N_ACTION},), got {shape}")
        self.module = module
        self.dist_cls = module.get_inference_action_dist_cls()

    @classmethod
    def load(cls, path: str | Path, threads: int | None = 1) -> "RLlibAgent":
        """Load the module of the checkpoint at ``path``; ``threads`` caps torch's CPU threads (None: torch's)."""
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule

        folder = module_dir(path)
        if threads is not None:
            torch.set_num_threads(threads)
        log = logging.getLogger("ray.rllib")
        level = log.level
        log.setLevel(logging.ERROR)  # RLlib warns about its own deprecated constructor while it restores a module
        try:
            module = RLModule.from_checkpoint(str(folder.resolve()))
        finally:
            log.setLevel(level)
        module.eval()
        return cls(module)

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        import torch

        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None])
        with torch.no_grad():
            out = self.module.forward_inference({"obs": obs})
            action = self.dist_cls.from_logits(out["action_dist_inputs"]).to_deterministic().sample()
        self.intent = None
        return np.clip(action.numpy()[0].astype(np.float64), -1.0, 1.0)
