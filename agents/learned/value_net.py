"""The value of a position in numpy: the chance that the player to act wins the rack, as ``agents.learned.value_agent``
reads it.

``ValueNet`` is a ReLU MLP with a sigmoid output over ``agents.shots.playout`` features, trained with torch by
``agents.training.value`` and saved as ``.npz`` (layers ``w0, b0, w1, b1, ...`` as ``y = x @ w + b``, float32, and a
JSON ``meta``: how it was trained, and the break it found, ``meta["break"]``); playing it needs no torch.
``EaseValue`` is the hand-written value the first training generation plays with.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from agents.learned.dense_kernel import dense
from agents.shots import playout_kernels as PK
from agents.shots.playout import N_FEATURES

FORMAT_VERSION = 1
SHIPPED = "weights/value.npz"  # inside the agents package
#: The keys of one break in ``meta["break"]``: cue spot dx [m] right of the centre, dy [m] behind the head string
#: (less a ball radius), speed [m/s], draw/follow b, aim offset [deg] from the centre of the 1.
BREAK_KEYS = ("dx", "dy", "V", "b", "dphi")


class ValueNet:
    """Feature rows (N, N_FEATURES) -> values (N,) in (0, 1): the chance that the player to act wins the rack."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], meta: dict[str, Any] | None = None
                 ) -> None:
        if meta is not None and not isinstance(meta, dict):
            raise ValueError(f"meta: expected a dict (saved as JSON), got {type(meta).__name__}")
        if not weights or len(weights) != len(biases):
            raise ValueError(f"layers: expected as many weight matrices as bias vectors (at least one), got "
                             f"{len(weights)} and {len(biases)}")
        for i, (w, b) in enumerate(zip(weights, biases)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {i}: expected weights (n_in, n_out) and bias (n_out,), got {w.shape}, "
                                 f"{b.shape}")
            if i and w.shape[0] != weights[i - 1].shape[1]:
                raise ValueError(f"layer {i}: takes {w.shape[0]} inputs, the layer before gives "
                                 f"{weights[i - 1].shape[1]}")
        if weights[0].shape[0] != N_FEATURES or weights[-1].shape[1] != 1:
            raise ValueError(f"layers: expected {N_FEATURES} inputs and 1 output, got {weights[0].shape[0]} and "
                             f"{weights[-1].shape[1]}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.meta: dict[str, Any] = dict(meta or {})
        for k, entry in enumerate(self.meta.get("break") or []):
            if not isinstance(entry, dict) or any(not isinstance(entry.get(key), (int, float)) for key in BREAK_KEYS):
                raise ValueError(f"meta: break {k}: expected numbers under {', '.join(BREAK_KEYS)}, got {entry!r}")

    def logits(self, features: np.ndarray) -> np.ndarray:
        """The output before the sigmoid (N,), layer by layer (``dense_kernel.dense``)."""
        x = np.ascontiguousarray(features, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != N_FEATURES:
            raise ValueError(f"features: expected shape (N, {N_FEATURES}), got {x.shape}")
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            out = np.empty((x.shape[0], w.shape[1]), dtype=np.float32)
            dense(x, w, b, i < last, out)
            x = out
        return x[:, 0]

    def __call__(self, features: np.ndarray) -> np.ndarray:
        """The values (N,) in (0, 1) of feature rows (N, N_FEATURES)."""
        return 1.0 / (1.0 + np.exp(-self.logits(features).astype(np.float64)))

    def save(self, path: str | Path) -> Path:
        """Write the network to ``path`` (``.npz``, compressed)."""
        path = Path(path)
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {f"b{i}": b for i, b in enumerate(self.biases)}
        np.savez_compressed(path, **arrays, version=np.array(FORMAT_VERSION), meta=np.array(json.dumps(self.meta)))
        return path

    @classmethod
    def load(cls, path: str | Path) -> "ValueNet":
        """A network saved by ``save``."""
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no value network at {path}")
        try:
            data_file = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as err:  # not an npz
            raise ValueError(f"{path}: not a value network ({err})") from None
        if not hasattr(data_file, "files"):  # a lone .npy array
            raise ValueError(f"{path}: not a value network (a single array, not an .npz archive)")
        try:
            with data_file as data:
                version = int(data["version"]) if "version" in data else -1
                if version != FORMAT_VERSION:
                    raise ValueError(f"{path}: expected a value network of format {FORMAT_VERSION}, got {version}")
                n = sum(1 for k in data.files if k.startswith("w") and k[1:].isdigit())
                return cls([data[f"w{i}"] for i in range(n)], [data[f"b{i}"] for i in range(n)],
                           json.loads(str(data["meta"])))
        except KeyError as err:  # an npz without our arrays
            raise ValueError(f"{path}: not a value network ({err})") from None

    @classmethod
    def shipped(cls) -> "ValueNet":
        """The network shipped with the package (``agents/weights/value.npz``), played as the agent ``value``."""
        with resources.as_file(resources.files("agents") / SHIPPED) as path:
            return cls.load(path)


class EaseValue:
    """The hand-written value the first training generation plays with, Search's leaf value in this form:
    0.5 + 0.5·e, e the estimated chance of potting the lowest ball from the cue ball (with ball in hand, how
    pottable the lowest ball is)."""

    meta: dict[str, Any] = {}

    def __call__(self, features: np.ndarray) -> np.ndarray:
        f = np.asarray(features, dtype=np.float64)
        if f.ndim != 2 or f.shape[1] != N_FEATURES:
            raise ValueError(f"features: expected shape (N, {N_FEATURES}), got {f.shape}")
        e = np.where(f[:, PK.F_IN_HAND] > 0.5, f[:, PK.F_RATED0], np.maximum(f[:, PK.F_EASE], f[:, PK.F_COMBO]))
        return 0.5 + 0.5 * e


__all__ = ["BREAK_KEYS", "EaseValue", "SHIPPED", "ValueNet"]
