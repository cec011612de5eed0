"""A trained PPO actor as numpy arrays: export an SB3 ``MlpPolicy`` to ``.npz`` and play it without torch.

The deterministic action of an SB3 ``ActorCriticPolicy`` with a flat ``Box`` observation is the
Gaussian's mean, ``action_net(policy_net(obs))``, clipped to the action space's bounds; that is
all this module evaluates (the value network and the log std are not needed to play). The file
holds the layers ``w0, b0, w1, b1, ...`` (float32, ``y = x @ w + b``), the hidden activation's
name, the observation size, the action bounds and ``meta``, a JSON object of how to play it (the macro layer's
``MacroStyle`` under "macro_style", the re-ranking samples of ``MacroPlanner.rerank`` under "rerank_samples").
``export_sb3`` needs torch; ``NumpyPolicy`` does not.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from agents.learned.macro import MacroStyle

ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}
FORMAT_VERSION = 1
SHIPPED = "weights/learned.npz"  # inside the agents package


class NumpyPolicy:
    """An MLP actor evaluated in numpy: ``predict(obs)`` as SB3's ``model.predict(obs, deterministic=True)``.

    Also exposes ``action_space`` / ``observation_space`` (Box), so ``agents.learned.agent.LearnedAgent`` plays it
    as it plays an SB3 model.
    """

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str,
                 low: np.ndarray, high: np.ndarray, meta: dict[str, Any] | None = None) -> None:
        if meta is not None and not isinstance(meta, dict):
            raise ValueError(f"meta: expected a dict (saved as JSON), got {type(meta).__name__}")
        self.meta: dict[str, Any] = dict(meta or {})
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation: expected one of {', '.join(ACTIVATIONS)}, got {activation!r}")
        if not weights or len(weights) != len(biases):
            raise ValueError(f"layers: expected as many weight matrices as bias vectors (at least one), "
                             f"got {len(weights)} and {len(biases)}")
        for i, (w, b) in enumerate(zip(weights, biases)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {i}: expected weights (n_in, n_out) and bias (n_out,), got {w.shape}, "
                                 f"{b.shape}")
            if i and w.shape[0] != weights[i - 1].shape[1]:
                raise ValueError(f"layer {i}: takes {w.shape[0]} inputs, the layer before gives {weights[i - 1].shape[1]}")
        n_out = weights[-1].shape[1]
        if low.shape != (n_out,) or high.shape != (n_out,):
            raise ValueError(f"action bounds: expected shape ({n_out},), got {low.shape} and {high.shape}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float64) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float64) for b in biases]
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.low, self.high = low.astype(np.float32), high.astype(np.float32)
        self.obs_dim = weights[0].shape[0]
        self.action_space = spaces.Box(self.low, self.high, dtype=np.float32)
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.obs_dim,), np.float32)

    def mean(self, obs: np.ndarray) -> np.ndarray:
        """The policy's mean action (unclipped) for one observation (n,) or a batch (B, n)."""
        x = np.asarray(obs, dtype=np.float32).astype(np.float64)
        if x.shape[-1] != self.obs_dim or x.ndim not in (1, 2):
            raise ValueError(f"observation: expected shape ({self.obs_dim},) or (B, {self.obs_dim}), got {x.shape}")
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w + b
            if i < last:
                x = self._act(x)
        return x

    def predict(self, obs: np.ndarray, deterministic: bool = True) -> tuple[np.ndarray, None]:
        """The clipped mean action (float32), and no recurrent state (SB3's signature; only deterministic play)."""
        if not deterministic:
            raise ValueError("deterministic: a NumpyPolicy plays only its deterministic action")
        return np.clip(self.mean(obs), self.low, self.high).astype(np.float32), None

    def save(self, path: str | Path) -> Path:
        """Write the policy to ``path`` (``.npz``, compressed)."""
        path = Path(path)
        arrays: dict[str, Any] = {f"w{i}": w.astype(np.float32) for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b.astype(np.float32) for i, b in enumerate(self.biases)}
        np.savez_compressed(path, **arrays, activation=np.array(self.activation), low=self.low, high=self.high,
                            version=np.array(FORMAT_VERSION), meta=np.array(json.dumps(self.meta)))
        return path

    @classmethod
    def load(cls, path: str | Path) -> "NumpyPolicy":
        """A policy saved by ``save`` / ``export_sb3``."""
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no exported policy at {path}")
        with np.load(path, allow_pickle=False) as data:
            version = int(data["version"]) if "version" in data else -1
            if version != FORMAT_VERSION:
                raise ValueError(f"{path}: expected an exported policy of format {FORMAT_VERSION}, got {version}")
            n = sum(1 for k in data.files if k.startswith("w") and k[1:].isdigit())
            weights = [data[f"w{i}"] for i in range(n)]
            biases = [data[f"b{i}"] for i in range(n)]
            meta = json.loads(str(data["meta"])) if "meta" in data else {}
            return cls(weights, biases, str(data["activation"]), data["low"], data["high"], meta)

    @classmethod
    def shipped(cls) -> "NumpyPolicy":
        """The policy shipped with the package (``agents/weights/learned.npz``), played as the agent ``learned``."""
        with resources.as_file(resources.files("agents") / SHIPPED) as path:
            return cls.load(path)


def export_sb3(model: Any, meta: dict[str, Any] | None = None) -> NumpyPolicy:
    """The deterministic actor of an SB3 PPO/A2C ``MlpPolicy`` model (flat Box observation and action) in numpy,
    carrying ``meta`` (see the module docstring).

    Raises ValueError for policies this cannot represent (squashed output, non-flatten features, other layers).
    """
    import torch

    policy = model.policy
    if getattr(policy, "squash_output", False):
        raise ValueError("model: a squashed (gSDE) policy cannot be exported")
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"model: expected a FlattenExtractor, got {type(policy.features_extractor).__name__}")
    if not isinstance(model.action_space, spaces.Box) or len(model.action_space.shape) != 1:
        raise ValueError(f"model: expected a flat Box action space, got {model.action_space}")
    if not isinstance(model.observation_space, spaces.Box) or len(model.observation_space.shape) != 1:
        raise ValueError(f"model: expected a flat Box observation space, got {model.observation_space}")
    weights, biases, activation = [], [], None
    names = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}
    for layer in policy.mlp_extractor.policy_net:
        if isinstance(layer, torch.nn.Linear):
            weights.append(layer.weight.detach().cpu().numpy().T.copy())
            biases.append(layer.bias.detach().cpu().numpy().copy())
        elif type(layer) in names and activation in (None, names[type(layer)]):
            activation = names[type(layer)]
        else:
            raise ValueError(f"model: cannot export layer {layer!r} of the policy network")
    head = policy.action_net
    weights.append(head.weight.detach().cpu().numpy().T.copy())
    biases.append(head.bias.detach().cpu().numpy().copy())
    return NumpyPolicy(weights, biases, activation or "tanh", np.asarray(model.action_space.low),
                       np.asarray(model.action_space.high), meta)


def main(argv: list[str] | None = None) -> int:
    """``python -m agents.learned.numpy_policy MODEL.zip OUT.npz``: export a saved SB3 PPO model."""
    parser = argparse.ArgumentParser(description="Export a saved SB3 PPO model's deterministic actor to .npz")
    parser.add_argument("model", help="a model saved with model.save (PPO, MlpPolicy)")
    parser.add_argument("out", help="the .npz file to write (e.g. agents/weights/learned.npz)")
    parser.add_argument("--macro-style", default="", help="the macro layer's style the policy was trained with "
                        "(agents.learned.macro.MacroStyle, key=value,...; default: the run's args.json beside MODEL, "
                        "else GhostBall's)")
    parser.add_argument("--rerank-samples", type=int, default=0, help="noisy simulations per candidate with which "
                        "the agent re-ranks the policy's macro action (agents.learned.macro.MacroPlanner.rerank; 0: "
                        "plays it as is)")
    ns = parser.parse_args(argv)
    if ns.rerank_samples < 0:
        parser.error(f"--rerank-samples: expected a whole number >= 0, got {ns.rerank_samples}")
    from stable_baselines3 import PPO

    spec = ns.macro_style
    args_json = Path(ns.model).parent / "args.json"
    if not spec and args_json.exists():
        spec = json.loads(args_json.read_text()).get("macro_style", "")
    meta = {"macro_style": MacroStyle.parse(spec).to_dict(), "rerank_samples": ns.rerank_samples}
    path = export_sb3(PPO.load(ns.model, device="cpu"), meta).save(ns.out)
    print(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
