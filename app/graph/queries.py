"""The Cypher query library: every query lives in cypher/<name>.cypher and is loaded by name.

The files ship inside the package (`app.cypher`, mapped from the repository's cypher/ folder) and
are read with importlib.resources, so a wheel or a non-editable install finds them as a checkout
does. A file starts with a header of `//` comment lines (what it answers, parameters, returns);
the rest is the statement. Files are read once at start; a missing name fails fast.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

SCHEMA_FILE = "schema.cypher"
CYPHER_25 = "CYPHER 25"
_ONE_ROW = re.compile(r"\bAS rows\s*$")


def cypher_files() -> Traversable:
    """The folder of donto's .cypher files, wherever the package is installed."""
    return resources.files("donto.cypher")


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
    def __init__(self, directory: Traversable | None = None):
        self.directory = directory or cypher_files()
        self._queries: dict[str, Query] = {}
        self._joined: dict[str, Query] = {}
        for path in sorted(self.directory.iterdir(), key=lambda p: p.name):
            if not path.name.endswith(".cypher") or path.name == SCHEMA_FILE:
                continue
            query = _parse(path)
            self._queries[query.name] = query
        if not self._queries:
            raise FileNotFoundError(f"no .cypher queries found in {directory}")

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise KeyError(f"no query named {name!r} in {self.directory}") from None

    def names(self) -> list[str]:
        return sorted(self._queries)

    def joined(self, names: Sequence[str]) -> Query:
        """One statement running the named one-row queries (each ends `RETURN ... AS rows`) as
        subqueries, in order, returning each one's rows in a column of its name. The files stay
        the single source; this is how recall runs its arms in one round trip (see read_lists)."""
        key = "+".join(names)
        if key in self._joined:
            return self._joined[key]
        parts, cypher_25 = [], False
        for i, name in enumerate(names):
            text = self[name].text
            if not _ONE_ROW.search(text):
                raise ValueError(f"{name} does not answer in one row of `rows`, so cannot be joined")
            if text.startswith(CYPHER_25):  # the version is stated once, for the whole statement
                cypher_25, text = True, text.removeprefix(CYPHER_25).lstrip()
            parts.append(f"CALL () {{\n{text}\n}}\nWITH {', '.join([*names[:i], f'rows AS {name}'])}")
        text = (f"{CYPHER_25}\n" if cypher_25 else "") + "\n".join(parts) + f"\nRETURN {', '.join(names)}"
        header = "All of " + ", ".join(names) + ", in one statement"
        query = self._joined[key] = Query(name=key, text=text, header=header)
        return query


def _parse(path: Traversable) -> Query:
    name = path.name.removesuffix(".cypher")
    lines = path.read_text(encoding="utf-8").splitlines()
    header: list[str] = []
    while lines and (lines[0].startswith("//") or not lines[0].strip()):
        header.append(lines.pop(0).removeprefix("//").strip())
    text = "\n".join(lines).strip()
    if not text:
        raise ValueError(f"{path} has no statement")
    return Query(name=name, text=text, header="\n".join(header).strip())


@functools.cache
def schema_text() -> str:
    return (cypher_files() / SCHEMA_FILE).read_text(encoding="utf-8")


def schema_statements(text: str) -> list[str]:
    """Statements of schema.cypher: `;`-separated, comments dropped."""
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]


@functools.cache
def schema_indexes(text: str) -> tuple[tuple[str, str], ...]:
    """The indexes schema.cypher makes, as (name, type: RANGE, VECTOR, FULLTEXT, ...), in its order.
    Constraints are left out: Neo4j makes their indexes with them, online at once."""
    made = re.compile(r"CREATE (?:(VECTOR|FULLTEXT|TEXT|POINT|LOOKUP) )?INDEX (\w+) IF NOT EXISTS")
    return tuple(
        (found[2], found[1] or "RANGE")
        for statement in schema_statements(text)
        if (found := made.match(statement.removeprefix("CYPHER 25 ")))
    )


def schema_version(text: str) -> int:
    for line in text.splitlines():
        if line.startswith("// schema-version:"):
            return int(line.split(":", 1)[1])
    raise ValueError(f"{SCHEMA_FILE} has no '// schema-version: N' line")
