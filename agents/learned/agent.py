"""LearnedAgent: a trained policy playing as an agent — a saved stable-baselines3 model (PPO or SAC), or a
PPO actor exported to numpy (``agents.learned.numpy_policy``, no torch needed; the shipped agent ``learned``).

A model trained on the macro-action wrapper (its action space has ``MACRO_DIM`` components) plays
through ``agents.learned.macro.MacroPlanner``; one trained on raw NineBall-v0 actions plays them directly.
stable-baselines3 is imported only by ``load`` (the ``train`` extra).
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from agents.learned.macro import MACRO_DIM, SAFETY, MacroPlanner, MacroStyle, macro_obs_size
from agents.learned.numpy_policy import NumpyPolicy
from agents.protocol import BaseAgent, TableView
from nineball_env.actions import N_ACTION


#: The policy class each algorithm saves (``policy_class`` in the model zip's ``data``).
POLICY_CLASSES = {"ActorCriticPolicy": "ppo", "MultiInputActorCriticPolicy": "ppo", "SACPolicy": "sac",
                  "MultiInputPolicy": "sac"}


def saved_algorithm(path: str | Path) -> str | None:
    """"ppo" or "sac": the algorithm that saved the stable-baselines3 zip at ``path`` (None: cannot tell).

    Reads only the zip's JSON ``data`` entry; ValueError when the file is not a stable-baselines3 model."""
    try:
        with zipfile.ZipFile(path) as z:
            data = json.loads(z.read("data"))
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: not a saved stable-baselines3 model ({err})") from None
    policy = data.get("policy_class") if isinstance(data, dict) else None
    text = json.dumps(policy) if policy is not None else ""
    for name in re.findall(r"<function (\w+)\.__init__", text):
        if name in POLICY_CLASSES:
            return POLICY_CLASSES[name]
    return None


def _algorithms() -> dict[str, Any]:
    from stable_baselines3 import PPO, SAC

    return {"ppo": PPO, "sac": SAC}


class LearnedAgent(BaseAgent):
    """Plays a policy's deterministic action (``model.predict(obs, deterministic=True)``); an exported policy whose
    meta sets ``rerank_samples`` has its macro action re-ranked by ``MacroPlanner.rerank`` first."""

    name = "learned"

    def __init__(self, model: Any, planner: MacroPlanner | None = None) -> None:
        super().__init__()
        shape = tuple(model.action_space.shape)
        if shape not in ((MACRO_DIM,), (N_ACTION,)):
            raise ValueError(f"model: expected an action space of shape ({MACRO_DIM},) (macro) or ({N_ACTION},) "
                             f"(raw), got {shape}")
        self.model = model
        self.macro = shape == (MACRO_DIM,)
        if planner is None and self.macro:
            n_obs = tuple(getattr(model.observation_space, "shape", ()) or ())
            leaves = n_obs == (macro_obs_size(True),)
            if n_obs not in ((macro_obs_size(False),), (macro_obs_size(True),)):
                raise ValueError(f"model: expected a macro observation of {macro_obs_size(False)} numbers (or "
                                 f"{macro_obs_size(True)} with the leave features), got shape {n_obs}")
            style = (getattr(model, "meta", None) or {}).get("macro_style", {})
            try:
                planner = MacroPlanner(leaves=leaves, style=MacroStyle(**style))
            except (TypeError, ValueError) as err:
                raise ValueError(f"model: bad macro_style {style!r} in its meta ({err})") from None
        self.planner = planner
        rerank = (getattr(model, "meta", None) or {}).get("rerank_samples", 0)
        if isinstance(rerank, bool) or not isinstance(rerank, int) or rerank < 0:
            raise ValueError(f"model: rerank_samples in its meta: expected a whole number >= 0, got {rerank!r}")
        if rerank and not self.macro:
            raise ValueError("model: rerank_samples needs a macro-action policy")
        self.rerank_samples = rerank

    @classmethod
    def load_numpy(cls, path: str | Path | None = None) -> "LearnedAgent":
        """A policy exported by ``agents.learned.numpy_policy`` (``path``, or the weights shipped with the package)."""
        return cls(NumpyPolicy.shipped() if path is None else NumpyPolicy.load(path))

    @classmethod
    def load(cls, path: str | Path, algo: str = "ppo", threads: int | None = 1) -> "LearnedAgent":
        """Load a model saved with ``model.save(path)``; ``algo`` is "ppo" or "sac".

        ``threads`` caps torch's CPU threads (one decision is one tiny forward pass; None leaves torch's setting).
        """
        if algo not in ("ppo", "sac"):
            raise ValueError(f"algo: expected 'ppo' or 'sac', got {algo!r}")
        path = Path(path)
        if not path.exists() and not path.with_suffix(".zip").exists():
            raise FileNotFoundError(f"no saved model at {path}")
        saved = saved_algorithm(path if path.exists() else path.with_suffix(".zip"))
        if saved is not None and saved != algo:
            raise ValueError(f"{path} is a {saved.upper()} model, not {algo.upper()}: play it as {saved}:{path}")
        algos = _algorithms()
        if threads is not None:
            import torch

            torch.set_num_threads(threads)
        return cls(algos[algo].load(str(path), device="cpu"))

    def act(self, observation: np.ndarray, view: TableView | None = None) -> np.ndarray:
        obs = np.asarray(observation, dtype=np.float32)
        if not self.macro:
            self.intent = None
            action, _ = self.model.predict(obs, deterministic=True)
            return np.asarray(action, dtype=np.float32)
        assert self.planner is not None
        macro, _ = self.model.predict(self.planner.features(obs), deterministic=True)
        if self.rerank_samples:
            macro = self.planner.rerank(obs, macro, self.rerank_samples)
        action = self.planner.action(obs, macro)
        slot = self.planner.last_slot
        self.intent = {None: None, SAFETY: "safety"}.get(slot, "pot")  # type: ignore[arg-type]
        return action
