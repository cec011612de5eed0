"""The check the frozen parameter dataclasses share: numeric fields are finite numbers, above a bound."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Iterable


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
