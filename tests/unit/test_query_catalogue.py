"""cypher/README.md, the query library's catalogue, and the cypher/ folder stay in step: every
query has its entry, every entry its file, and each entry's `:param` block names exactly the
parameters its query reads, with an example result."""

from __future__ import annotations

import re

from donto.graph.queries import QueryLibrary
from support import REPO

CATALOGUE = REPO / "cypher" / "README.md"
ENTRY = re.compile(r"^### `([a-z0-9_]+)`$", re.MULTILINE)


def entries() -> dict[str, str]:
    """Each catalogue entry's text, by query name (a name listed twice fails here)."""
    text = CATALOGUE.read_text(encoding="utf-8")
    parts = ENTRY.split(text)[1:]
    names = parts[0::2]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    return dict(zip(names, [re.split(r"^## ", body, flags=re.MULTILINE)[0] for body in parts[1::2]]))


def test_every_query_file_has_a_catalogue_entry():
    assert sorted(set(QueryLibrary().names()) - set(entries())) == []


def test_every_catalogue_entry_names_a_query_file():
    assert sorted(set(entries()) - set(QueryLibrary().names())) == []


def test_each_entry_sets_exactly_its_querys_parameters_and_shows_a_result():
    library = QueryLibrary()
    wrong = {}
    for name, body in entries().items():
        block = re.search(r"```cypher\n(.*?)```", body, re.DOTALL)
        assert block and "Example result" in body, name
        params = set(re.findall(r"^:param (\w+) =>", block.group(1), re.MULTILINE))
        if params != set(library[name].parameters):
            wrong[name] = sorted(params ^ library[name].parameters)
    assert wrong == {}
