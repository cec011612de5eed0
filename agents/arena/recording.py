"""Match records: every rack of a match written as gzipped JSON lines, read back and re-simulated exactly.

``Recorder`` is the hook ``agents.arena.match.play_match`` calls (a rack starts, a decision was played, the
match ended); ``read_record`` checks a file (format, version, every field) and ``resimulate`` plays the
recorded decisions again through a fresh ``Game`` built from the recorded seed and settings, checking
each shot against the record. The format is documented in ``docs/recording.md``.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import numpy as np

import physics
from agents.arena.seeding import match_seeds
from agents.version import __version__
from nineball_env import actions
from nineball_env.game import Game, GameConfig, Outcome
from nineball_env.noise import NoiseConfig
from nineball_env.rules import Phase
from physics import PhysicsParams, SimResult, Table, TableSpec

FORMAT = "nineball-match-record"
FORMAT_VERSION = 1
SUFFIX = ".jsonl.gz"
CUE_FIELDS = ("V0", "phi", "theta", "a", "b")


class RecordError(ValueError):
    """A record that cannot be read: not a record, corrupted, another format or nineball version."""


class ReplayMismatch(RuntimeError):
    """Re-simulating a record gave another result than the one recorded (another physics or rules version)."""


def record_path(directory: str | Path, index: int) -> Path:
    """The file of match ``index`` in ``directory``."""
    return Path(directory) / f"match-{index:04d}{SUFFIX}"


def _layout(game: Game) -> list[list[float] | None]:
    """Ball centres [m], by ball number, None for a ball off the table (the cue ball in hand)."""
    on = game.on_table()
    return [[float(x), float(y)] if on[b] else None for b, (x, y) in enumerate(game.balls.pos.tolist())]


def _ruling(outcome: Outcome) -> dict[str, Any]:
    r = outcome.ruling
    after = r.after
    return {"declaration": str(r.declaration), "fouls": [str(f) for f in r.fouls], "cited": [str(c) for c in r.cited],
            "pocketed": list(r.pocketed), "off_table": list(r.off_table), "nine_spotted": bool(r.nine_spotted),
            "next_shooter": after.shooter, "phase": str(after.phase), "ball_in_hand": str(after.ball_in_hand),
            "rack_winner": outcome.rack_winner, "ended_by": None if after.ended_by is None else str(after.ended_by)}


class Recorder:
    """Writes one match to ``path`` as it is played (see ``docs/recording.md``)."""

    def __init__(self, path: str | Path, names: tuple[str, str], config: Any, seed: int, index: int,
                 first_breaker: int) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        gc: GameConfig = config.game_config()
        self._lines: list[dict[str, Any]] = [{
            "type": "header", "format": FORMAT, "format_version": FORMAT_VERSION, "nineball": __version__,
            "agents": list(names), "seed": int(seed), "index": int(index), "first_breaker": int(first_breaker),
            "race_to": gc.race_to, "break_order": gc.break_order, "noise": dataclasses.asdict(config.noise),
            "scale": dataclasses.asdict(config.scale), "table": dataclasses.asdict(gc.table.spec),
            "params": dataclasses.asdict(gc.params), "max_events": gc.max_events, "max_time": gc.max_time,
            "strict_placement": gc.strict_placement}]
        self._rack = -1
        self._shot = 0

    def start(self, game: Game) -> None:
        """The match begins: record its first rack."""
        self._rack_started(game)

    def decision(self, game: Game, player: int, action: np.ndarray, shot: physics.Shot | None,
                 outcome: Outcome) -> None:
        """``game`` just played ``outcome``: the action, the cue parameters after noise (``shot``), the ruling,
        the balls at rest after it; the next rack when this decision ended one."""
        self._lines.append({
            "type": "shot", "rack": self._rack, "shot": self._shot, "player": int(player),
            "action": [float(v) for v in np.asarray(action, dtype=np.float64)],
            "cue": None if shot is None else {k: float(getattr(shot, k)) for k in CUE_FIELDS},
            "placement": None if outcome.placement is None else [float(v) for v in outcome.placement],
            "n_events": int(outcome.n_events), "ruling": _ruling(outcome), "final": _final(game, outcome)})
        self._shot += 1
        if outcome.rack_winner is not None and not game.over:
            self._rack_started(game)

    def _rack_started(self, game: Game) -> None:
        self._rack += 1
        self._shot = 0
        self._lines.append({"type": "rack", "rack": self._rack, "breaker": game.rack.breaker,
                            "score": list(game.match.racks_won), "layout": _layout(game)})

    def finish(self, game: Game) -> Path:
        """The match ended: write the file and return its path."""
        self._lines.append({"type": "end", "winner": int(game.match.winner), "score": list(game.match.racks_won),
                            "racks": self._rack + 1})
        text = "".join(json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n" for line in self._lines)
        with gzip.open(self.path, "wt", encoding="utf-8", compresslevel=6) as fh:
            fh.write(text)
        return self.path


# -- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShotRecord:
    """One recorded decision (see ``docs/recording.md`` for each field)."""

    rack: int
    shot: int
    player: int
    action: tuple[float, ...]
    cue: dict[str, float] | None
    placement: tuple[float, float] | None
    n_events: int
    ruling: dict[str, Any]
    final: tuple[tuple[float, float] | None, ...]


@dataclass(frozen=True)
class RackStart:
    """A rack as racked: who breaks, the score before it, the layout."""

    rack: int
    breaker: int
    score: tuple[int, int]
    layout: tuple[tuple[float, float] | None, ...]


@dataclass(frozen=True)
class MatchFile:
    """A whole record: the header (settings), the racks and their decisions, the result."""

    path: Path
    header: dict[str, Any]
    racks: tuple[RackStart, ...]
    shots: tuple[ShotRecord, ...]
    winner: int
    score: tuple[int, int]

    def rack_shots(self, rack: int) -> list[ShotRecord]:
        return [s for s in self.shots if s.rack == rack]


def _need(obj: dict, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise RecordError(f"{where}: missing field {key!r}")
    value = obj[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{where}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _balls(value: Any, where: str) -> tuple[tuple[float, float] | None, ...]:
    if not isinstance(value, list) or len(value) != physics.N_BALLS:
        raise RecordError(f"{where}: expected {physics.N_BALLS} ball entries")
    out = []
    for v in value:
        if v is None:
            out.append(None)
        elif (isinstance(v, list) and len(v) == 2 and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                                                           and math.isfinite(c) for c in v)):
            out.append((float(v[0]), float(v[1])))
        else:
            raise RecordError(f"{where}: a ball entry must be [x, y] or null, got {v!r}")
    return tuple(out)


def _lines(path: Path) -> Iterator[tuple[int, dict]]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for number, text in enumerate(fh, 1):
                try:
                    line = json.loads(text)
                except json.JSONDecodeError as err:
                    raise RecordError(f"{path}: line {number} is not JSON ({err.msg}): the file is corrupted") from None
                if not isinstance(line, dict):
                    raise RecordError(f"{path}: line {number} is not a JSON object: the file is corrupted")
                yield number, line
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as err:
        raise RecordError(f"{path}: not a gzipped nineball match record, or corrupted ({err})") from None


def read_record(path: str | Path) -> MatchFile:
    """Read and check a record; RecordError says what is wrong (corrupted, other format or nineball version)."""
    path = Path(path)
    header: dict | None = None
    racks: list[RackStart] = []
    shots: list[ShotRecord] = []
    end: dict | None = None
    for number, line in _lines(path):
        where = f"{path}: line {number}"
        kind = line.get("type")
        if header is None:
            if kind != "header" or line.get("format") != FORMAT:
                raise RecordError(f"{path}: not a nineball match record (no {FORMAT!r} header on line 1)")
            if line.get("format_version") != FORMAT_VERSION:
                raise RecordError(f"{path}: record format version {line.get('format_version')!r}; this nineball "
                                  f"({__version__}) reads version {FORMAT_VERSION}")
            if line.get("nineball") != __version__:
                raise RecordError(f"{path}: recorded with nineball {line.get('nineball')!r}, this is nineball "
                                  f"{__version__}: replay it with that version (its physics may differ)")
            for key, typ in (("agents", list), ("seed", int), ("index", int), ("first_breaker", int),
                             ("race_to", int), ("break_order", str), ("noise", dict), ("scale", dict),
                             ("table", dict), ("params", dict), ("max_events", int), ("max_time", float),
                             ("strict_placement", bool)):
                _need(line, key, typ, where)
            if len(line["agents"]) != 2 or not all(isinstance(a, str) for a in line["agents"]):
                raise RecordError(f"{where}: field 'agents' must name two agents")
            header = line
        elif end is not None:
            raise RecordError(f"{where}: data after the end of the match: the file is corrupted")
        elif kind == "rack":
            rack = RackStart(_need(line, "rack", int, where), _need(line, "breaker", int, where),
                             tuple(_need(line, "score", list, where)), _balls(line.get("layout"), where))
            if rack.rack != len(racks):
                raise RecordError(f"{where}: expected rack {len(racks)}, got {rack.rack}: the file is corrupted")
            racks.append(rack)
        elif kind == "shot":
            cue = line.get("cue")
            if cue is not None and not (isinstance(cue, dict) and all(
                    isinstance(cue.get(k), (int, float)) and not isinstance(cue.get(k), bool) for k in CUE_FIELDS)):
                raise RecordError(f"{where}: field 'cue' must hold {', '.join(CUE_FIELDS)} or be null")
            action = _need(line, "action", list, where)
            if len(action) != actions.N_ACTION or not all(isinstance(v, (int, float)) for v in action):
                raise RecordError(f"{where}: field 'action' must hold {actions.N_ACTION} numbers")
            placement = line.get("placement")
            shot = ShotRecord(_need(line, "rack", int, where), _need(line, "shot", int, where),
                              _need(line, "player", int, where), tuple(float(v) for v in action),
                              None if cue is None else {k: float(cue[k]) for k in CUE_FIELDS},
                              None if placement is None else (float(placement[0]), float(placement[1])),
                              _need(line, "n_events", int, where), _need(line, "ruling", dict, where),
                              _balls(line.get("final"), where))
            if not racks or shot.rack != len(racks) - 1:
                raise RecordError(f"{where}: a shot of rack {shot.rack} outside that rack: the file is corrupted")
            shots.append(shot)
        elif kind == "end":
            end = line
        else:
            raise RecordError(f"{where}: unknown line type {kind!r}: the file is corrupted")
    if header is None:
        raise RecordError(f"{path}: empty file, not a nineball match record")
    if end is None:
        raise RecordError(f"{path}: the record stops before the end of the match (truncated or corrupted)")
    return MatchFile(path, header, tuple(racks), tuple(shots), _need(end, "winner", int, f"{path}: end"),
                     tuple(_need(end, "score", list, f"{path}: end")))


# -- re-simulating -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayedShot:
    """A recorded decision played again: the record, the balls before it, the simulation, the score before it."""

    record: ShotRecord
    before: physics.BallState
    result: SimResult | None
    score: tuple[int, int]


def game_config(header: dict[str, Any]) -> tuple[GameConfig, actions.ActionScale, NoiseConfig]:
    """The game settings, action scale and noise of a record's header."""
    try:
        table = Table.from_spec(TableSpec(**header["table"]))
        params = PhysicsParams(**header["params"])
        config = GameConfig(table=table, params=params, race_to=header["race_to"],
                            break_order=header["break_order"], strict_placement=header["strict_placement"],
                            max_events=header["max_events"], max_time=header["max_time"])
        return config, actions.ActionScale(**header["scale"]), NoiseConfig(**header["noise"])
    except (TypeError, ValueError) as err:
        raise RecordError(f"settings in the record's header do not fit this nineball: {err}") from None


def _differs(a: tuple, b: tuple, tol: float = 1e-9) -> bool:
    for p, q in zip(a, b):
        if (p is None) != (q is None) or (p is not None and max(abs(p[0] - q[0]), abs(p[1] - q[1])) > tol):
            return True
    return False


def resimulate(record: MatchFile) -> Iterator[ReplayedShot]:
    """Play the recorded decisions again, in order (the physics and the rules once more, from the recorded seed and
    settings); ReplayMismatch at the first rack or shot that differs. ``agents.arena.animation`` draws the result."""
    header = record.header
    config, scale, _ = game_config(header)
    game = Game(config, np.random.default_rng(match_seeds(header["seed"], header["index"]).game),
                header["first_breaker"], scale=scale)
    shots = iter(record.shots)
    for rack in record.racks:
        where = f"rack {rack.rack}"
        if rack.breaker != game.rack.breaker or _differs(rack.layout, _layout_tuple(game)):
            raise ReplayMismatch(f"{where}: the replay does not reproduce the record: the rack is laid out "
                                 "differently (another nineball version?); nothing is shown")
        for shot in record.rack_shots(rack.rack):
            next(shots)
            where = f"rack {rack.rack}, shot {shot.shot}"
            if game.to_move != shot.player:
                raise ReplayMismatch(f"{where}: the replay does not reproduce the record: player {game.to_move} "
                                     f"is to move, the record says {shot.player}")
            if (game.rack.phase is Phase.PUSH_OUT_CHOICE) != (shot.cue is None):
                raise ReplayMismatch(f"{where}: the replay does not reproduce the record: the action decodes "
                                     "to another kind of decision")
            try:
                cue = None if shot.cue is None else physics.Shot(**shot.cue)
            except ValueError as err:
                raise RecordError(f"{record.path}: {where}: bad cue parameters ({err})") from None
            score = tuple(game.match.racks_won)
            before = game.balls.copy()
            outcome = game.play(shot.player, np.asarray(shot.action), shot=cue)
            if outcome.placement is not None:
                before.place(0, *outcome.placement)
            final = _final(game, outcome)
            got = _ruling(outcome)
            if got != shot.ruling:
                diff = ", ".join(f"{k}: recorded {shot.ruling.get(k)!r}, replayed {got[k]!r}"
                                 for k in got if got[k] != shot.ruling.get(k))
                raise ReplayMismatch(f"{where}: the replay does not reproduce the record ({diff}); another "
                                     "physics or rules version? Nothing is shown past this point")
            if outcome.n_events != shot.n_events or _differs(final, shot.final):
                raise ReplayMismatch(f"{where}: the replay does not reproduce the record: the balls come to rest "
                                     f"elsewhere ({outcome.n_events} events, recorded {shot.n_events}); another "
                                     "physics version? Nothing is shown past this point")
            yield ReplayedShot(shot, before, outcome.result, score)  # type: ignore[arg-type]
    if game.match.winner != record.winner or tuple(game.match.racks_won) != record.score:
        raise ReplayMismatch(f"the replay does not reproduce the record: the match ends "
                             f"{game.match.racks_won}, the record says {record.score}")


def _layout_tuple(game: Game) -> tuple:
    return tuple(None if p is None else tuple(p) for p in _layout(game))


def _final(game: Game, outcome: Outcome) -> list[list[float] | None]:
    """The balls at rest after a decision, before a finished rack is re-racked (the shot's own end state)."""
    if outcome.rack_winner is not None and outcome.result is not None:
        state = outcome.result.state
        on = state.on_table()
        return [[float(x), float(y)] if on[b] else None for b, (x, y) in enumerate(state.pos.tolist())]
    return _layout(game)
