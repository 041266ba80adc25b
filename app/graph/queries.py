"""The Cypher query library: every query lives in cypher/<name>.cypher and is loaded by name.

A file starts with a header of `//` comment lines (what it answers, parameters, returns);
the rest is the statement. Files are read once at start; a missing name fails fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_COMMENT = re.compile(r"//[^\n]*")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass(frozen=True)
class Query:
    name: str
    text: str
    header: str

    @property
    def parameters(self) -> frozenset[str]:
        """The `$params` the statement uses (comments and string literals ignored)."""
        body = _COMMENT.sub("", _STRING.sub("''", self.text))
        return frozenset(_PARAM.findall(body))


class QueryLibrary:
    def __init__(self, directory: Path):
        self.directory = directory
        self._queries: dict[str, Query] = {}
        for path in sorted(directory.glob("*.cypher")):
            if path.stem == "schema":
                continue
            self._queries[path.stem] = _parse(path)
        if not self._queries:
            raise FileNotFoundError(f"no .cypher queries found in {directory}")

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise KeyError(f"no query named {name!r} in {self.directory}") from None

    def names(self) -> list[str]:
        return sorted(self._queries)


def _parse(path: Path) -> Query:
    lines = path.read_text(encoding="utf-8").splitlines()
    header: list[str] = []
    while lines and (lines[0].startswith("//") or not lines[0].strip()):
        header.append(lines.pop(0).removeprefix("//").strip())
    text = "\n".join(lines).strip()
    if not text:
        raise ValueError(f"{path} has no statement")
    return Query(name=path.stem, text=text, header="\n".join(header).strip())


def schema_statements(path: Path) -> list[str]:
    """Statements of schema.cypher: `;`-separated, comments dropped."""
    body = "\n".join(
        line for line in path.read_text(encoding="utf-8").splitlines() if not line.strip().startswith("//")
    )
    return [s.strip() for s in body.split(";") if s.strip()]
