"""The one error a bad data file raises: it names the file, the line and the problem."""
from __future__ import annotations

from pathlib import Path

from powts.kernel.refusals import Refused


class DataFileError(Refused):
    """A parameter or profile file is wrong; str() is "file:line: problem"."""

    def __init__(self, path: Path | str, line: int | None, problem: str):
        self.path, self.line, self.problem = str(path), line, problem
        name = _short(path)
        super().__init__(f"{name}:{line}: {problem}" if line else f"{name}: {problem}")


def _short(path: Path | str) -> str:
    # Name the file the way a county clerk edits it: <county>/<file>.yaml or parameters/<file>.yaml.
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.suffix else p.name
