"""Whole-rack playthroughs: each golden file lists actions with their event logs and the expected ruling.

Format (one item a line, ``#`` starts a comment):

    rack breaker=0 [table=1,2,...]     start a rack (default: all of 1–9 on the table)
    shot hit 0 1 @0.1 | rail 3 @0.4    an action: shot / push-out / shoot / pass-back / forfeit [player],
                                       then its events separated by ``|`` (hit a b, rail b, pocket b pN, off b)
      => fouls=... next=... ...        the expected ruling, exactly as ``Ruling.describe()`` writes it

Set NINEBALL_REGOLD=1 to rewrite the ``=>`` lines from the engine (then read the diff against docs/rules.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nineball_env.rules import RackState, Ruling, ShotEvent, decide, forfeit, hit, off, pocket, rail

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.txt"))


def parse_event(text: str) -> ShotEvent:
    """``hit 0 1 @0.1``, ``rail 3 @0.4``, ``pocket 9 p5 @0.9`` or ``off 4 @1.0``."""
    words = text.split()
    t = float(words[-1].removeprefix("@"))
    kind, args = words[0], words[1:-1]
    if kind == "hit":
        return hit(int(args[0]), int(args[1]), t)
    if kind == "rail":
        return rail(int(args[0]), t)
    if kind == "pocket":
        return pocket(int(args[0]), int(args[1].removeprefix("p")), t)
    if kind == "off":
        return off(int(args[0]), t)
    raise ValueError(f"unknown event {text!r}")


def play(text: str) -> list[tuple[int, str, str]]:
    """Run a golden file; return (line number, expected, actual) for every ruling."""
    results: list[tuple[int, str, str]] = []
    rack: RackState | None = None
    ruling: Ruling | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("=>"):
            assert ruling is not None, f"line {number}: an expectation without an action"
            results.append((number, line[2:].strip(), ruling.describe()))
            ruling = None
            continue
        assert ruling is None, f"line {number}: the previous action has no '=>' expectation"
        head, _, rest = line.partition(" ")
        if head == "rack":
            opts = dict(word.split("=") for word in rest.split())
            table = [int(b) for b in opts.get("table", "1,2,3,4,5,6,7,8,9").split(",")]
            rack = RackState.start(int(opts.get("breaker", "0")), table)
            continue
        assert rack is not None, f"line {number}: an action before 'rack'"
        if head == "forfeit" and rest.strip():
            ruling = forfeit(rack, int(rest))
        else:
            events = [parse_event(e) for e in rest.split("|") if e.strip()]
            ruling = decide(rack, events, head)
        rack = ruling.after
    assert ruling is None, "the last action has no '=>' expectation"
    return results


def test_golden_files_exist() -> None:
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough(path: Path) -> None:
    text = path.read_text()
    results = play(text)
    assert results, "no rulings in the file"
    if os.environ.get("NINEBALL_REGOLD"):
        lines = text.splitlines()
        for number, _, actual in results:
            indent = lines[number - 1][: len(lines[number - 1]) - len(lines[number - 1].lstrip())]
            lines[number - 1] = f"{indent}=> {actual}"
        path.write_text("\n".join(lines) + "\n")
        return
    for number, expected, actual in results:
        assert actual == expected, f"{path.name}:{number}\n expected {expected}\n   actual {actual}"
