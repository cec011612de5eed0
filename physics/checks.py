"""What the frozen parameter dataclasses share: numeric fields are finite numbers, above a bound; and one way
to build one from what a user passes (None, an instance, a dict of its fields or a preset's name)."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any, Iterable, Mapping, TypeVar

T = TypeVar("T")


def check_numbers(obj: object, names: Iterable[str] | None = None, *, label: str = "{}",
                  minimum: float | None = None, exclusive: bool = False) -> None:
    """Raise ValueError naming the first field of the dataclass ``obj`` (every field, or ``names``) that is not a
    finite int or float (a bool is not a number), or is below ``minimum`` (or equal to it when ``exclusive``).
    ``label`` formats the field name in the message (e.g. ``"noise sigma {}"``)."""
    bound = "" if minimum is None else f" {'>' if exclusive else '>='} {minimum:g}"
    for name in names if names is not None else (f.name for f in fields(obj)):  # type: ignore[arg-type]
        value = getattr(obj, name)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if ok and minimum is not None:
            ok = value > minimum if exclusive else value >= minimum
        if not ok:
            raise ValueError(f"{label.format(name)}: expected a finite number{bound}, got {value!r}")


def from_spec(cls: type[T], spec: Any, what: str, presets: Mapping[str, T] | None = None) -> T:
    """``spec`` as the parameter dataclass ``cls``: None (the defaults), an instance, a dict of its fields or the name
    of one of ``presets``; ValueError naming ``what`` for anything else (an unknown key or name included)."""
    if spec is None:
        return cls()
    if isinstance(spec, cls):
        return spec
    forms = f"{'a preset name, ' if presets else ''}a dict of its fields or a {cls.__name__}"
    if isinstance(spec, str) and presets:
        if spec not in presets:
            raise ValueError(f"{what}: expected one of {sorted(presets)}, {forms}, got {spec!r}")
        return presets[spec]
    if not isinstance(spec, Mapping):
        raise ValueError(f"{what}: expected {forms}, got {type(spec).__name__}")
    unknown = set(spec) - {f.name for f in fields(cls)}  # type: ignore[arg-type]
    if unknown:
        raise ValueError(f"{what}: unknown key(s) {sorted(unknown)}; expected keys from "
                         f"{sorted(f.name for f in fields(cls))}")  # type: ignore[arg-type]
    return cls(**spec)
