"""The package version, read from one place: ``pyproject.toml``'s ``project.version``.

A source checkout reads the ``pyproject.toml`` beside the packages (so an editable install of another
checkout cannot answer for this one); an installed wheel reads its metadata.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _read_version() -> str:
    if _PYPROJECT.is_file():
        with _PYPROJECT.open("rb") as fh:
            project = tomllib.load(fh).get("project", {})
        if project.get("name") == "nineball" and "version" in project:
            return str(project["version"])
    try:
        return metadata.version("nineball")
    except metadata.PackageNotFoundError:  # pragma: no cover - neither a checkout nor installed
        return "0+unknown"


__version__: str = _read_version()
