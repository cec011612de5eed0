"""Agents by name, as the CLI spells them: ``random``, ``ghost``, ``search[:key=value,...]``, ``learned[:PATH.npz]``,
``value[:key=value,...]``, ``ppo:PATH``, ``sac:PATH``, ``rllib:PATH``.

Options after the colon set config fields of the agent (``search:samples=8,candidates=40``);
``learned`` plays the policy shipped with the package (numpy, no torch), ``learned:PATH.npz`` an exported one
(``python -m agents.learned.numpy_policy MODEL.zip PATH.npz``); ``value`` searches with the value network shipped with
the package (``value:weights=PATH.npz`` another, from ``agents.training.value``); ``ppo``/``sac`` take the path of a saved
stable-baselines3 model (``ppo:checkpoints/ppo_final.zip``), ``rllib`` an RLlib checkpoint (``rllib:checkpoints/<run>/checkpoint``,
from ``agents.training.rllib``).
``parse_options`` reads such options into any frozen config dataclass (the training scripts use it too).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from agents.learned.agent import LearnedAgent
from agents.learned.rllib_agent import RLlibAgent, module_dir
from agents.learned.value_agent import ValueSearchAgent, ValueSearchConfig
from agents.players.ghost_ball import GhostBallAgent, GhostBallConfig
from agents.players.random_agent import RandomAgent
from agents.players.search import SearchAgent, SearchConfig
from agents.protocol import Agent

BUILT_IN = ("random", "ghost", "search", "learned", "value")
LEARNED = ("ppo", "sac", "rllib")
NAMES = BUILT_IN + LEARNED


class AgentSpecError(ValueError):
    """An agent spec that names no agent, or has bad options (the CLI exits with code 2)."""


def parse_options(text: str, config_cls: type) -> Any:
    """``key=value,...`` as an instance of the frozen config dataclass ``config_cls``."""
    known = {f.name: f for f in dataclasses.fields(config_cls)}
    values: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        if "=" not in item:
            raise AgentSpecError(f"option {item!r}: expected key=value (known keys: {', '.join(known)})")
        key, raw = (s.strip() for s in item.split("=", 1))
        if key not in known:
            raise AgentSpecError(f"unknown option {key!r}; known: {', '.join(known)}")
        default = getattr(config_cls(), key)
        try:
            if isinstance(default, bool):
                if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(raw)
                values[key] = raw.lower() in ("true", "1", "yes")
            elif isinstance(default, int):
                values[key] = int(raw)
            elif isinstance(default, float):
                values[key] = float(raw)
            else:
                values[key] = raw
        except ValueError:
            raise AgentSpecError(f"option {key}={raw!r}: expected a {type(default).__name__}") from None
    try:
        return config_cls(**values)
    except (TypeError, ValueError) as err:
        raise AgentSpecError(str(err)) from None


def _random(opts: str) -> Agent:
    if opts:
        raise AgentSpecError("random takes no options")
    return RandomAgent()


def _ghost(opts: str) -> Agent:
    return GhostBallAgent(parse_options(opts, GhostBallConfig))


def _search(opts: str) -> Agent:
    return SearchAgent(parse_options(opts, SearchConfig))


def _value(opts: str) -> Agent:
    try:
        return ValueSearchAgent(parse_options(opts, ValueSearchConfig))
    except (FileNotFoundError, ValueError) as err:
        raise AgentSpecError(f"value: {err}") from None


def _shipped(path: str) -> Agent:
    try:
        return LearnedAgent.load_numpy(path or None)
    except (FileNotFoundError, ValueError) as err:
        raise AgentSpecError(f"learned: {err}") from None


def _learned(kind: str) -> Callable[[str], Agent]:
    def build(path: str) -> Agent:
        if not path:
            raise AgentSpecError(f"{kind} needs the path of a saved model: {kind}:PATH.zip")
        try:
            return LearnedAgent.load(path, algo=kind)
        except (FileNotFoundError, ValueError) as err:
            raise AgentSpecError(str(err)) from None
        except ImportError as err:
            raise AgentSpecError(f"{kind} agents need stable-baselines3 and torch (pip install 'nineball[train]', "
                                 f"torch first: see the README): {err}") from None
        except Exception as err:  # whatever stable-baselines3 raises on a file it cannot read
            raise AgentSpecError(f"{path}: cannot be loaded as a {kind.upper()} model "
                                 f"({type(err).__name__}: {err})") from None

    return build


def _rllib(path: str) -> Agent:
    if not path:
        raise AgentSpecError("rllib needs the path of an RLlib checkpoint: rllib:PATH (from agents.training.rllib)")
    try:
        module_dir(path)  # a missing checkpoint is an argument error, found before RLlib loads anything
        return RLlibAgent.load(path)
    except FileNotFoundError as err:
        raise AgentSpecError(str(err)) from None
    except ImportError as err:
        raise AgentSpecError(f"rllib agents need RLlib (pip install 'nineball[ray]'): {err}") from None


_BUILDERS: dict[str, Callable[[str], Agent]] = {"random": _random, "ghost": _ghost, "search": _search,
                                                "learned": _shipped, "value": _value,
                                                "ppo": _learned("ppo"), "sac": _learned("sac"), "rllib": _rllib}


def parse_spec(spec: str) -> tuple[str, str]:
    """(kind, options) of a spec, or AgentSpecError for an unknown agent."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"agent: expected a name, one of {', '.join(NAMES)}, got {spec!r}")
    kind, _, opts = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in _BUILDERS:
        raise AgentSpecError(f"unknown agent {kind!r}; expected one of {', '.join(NAMES)} "
                             f"(e.g. search:samples=8, ppo:checkpoints/ppo_final.zip)")
    return kind, opts


def make_agent(spec: str) -> Agent:
    """A fresh agent for ``spec`` (see the module docstring)."""
    kind, opts = parse_spec(spec)
    agent = _BUILDERS[kind](opts)
    agent.name = spec.strip()
    return agent
