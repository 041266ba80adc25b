"""The Cypher library, read without a database: every file documented, every file used, and every
name the code runs has its file (found by reading the code, not by running it)."""

from __future__ import annotations

import ast
import re

import pytest

from donto.graph.client import FULLTEXT_INDEXES, VECTOR_INDEXES
from donto.graph.queries import QueryLibrary, schema_indexes, schema_statements, schema_text, schema_version
from donto.recall.arms import ARMS
from support import REPO

# GraphClient methods that take a query name, and recall's own reader of rows by id
RUNNERS = {"read_query", "read_once", "read_list", "read_row", "read_lists", "write_query", "run", "by_id"}


def names_in_code() -> dict[str, str]:
    """Query names the code hands to GraphClient (`read_query("x")`, `read_list("x")`,
    `read_lists(["x", ...])`, `write_query("x")`, `run(tx, "x")`) or declares as a recall arm's
    `query="x"`, with where each is used."""
    found: dict[str, str] = {}
    for path in sorted([*(REPO / "app").rglob("*.py"), *(REPO / "bench").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            strings = []
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in RUNNERS:
                args = node.args[:2]
                if func.attr == "read_lists" and isinstance(args[0], ast.List):
                    args = args[0].elts
                strings = [a for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if not (isinstance(func, ast.Name) and func.id == "Describe"):  # an MCP argument's words, not a query
                strings += [k.value for k in node.keywords if k.arg == "query" and isinstance(k.value, ast.Constant)]
            for s in strings:
                found.setdefault(s.value, f"{path.relative_to(REPO)}:{node.lineno}")
    return found


def test_every_query_file_has_a_header_naming_parameters_and_returns():
    library = QueryLibrary()
    for name in library.names():
        header = library[name].header
        assert "Parameters" in header and "Returns" in header, name


def test_every_query_file_is_used_by_the_code():
    assert sorted(set(QueryLibrary().names()) - set(names_in_code())) == []


def test_every_query_name_in_the_code_has_its_file():
    library = set(QueryLibrary().names())
    missing = {name: where for name, where in names_in_code().items() if name not in library}
    assert missing == {}


def test_the_scanner_sees_the_ways_code_names_queries():
    used = names_in_code()
    assert {"claims_write", "claim_status", "recall_turn_vector", "transaction_time_next"} <= set(used)


def test_schema_file_has_a_version_and_statements():
    text = schema_text()
    assert schema_version(text) >= 2
    statements = schema_statements(text)
    assert all(s.removeprefix("CYPHER 25 ").split()[0] in {"CREATE", "DROP", "MERGE", "CALL"} for s in statements)
    # No statement waits for indexes (db.awaitIndexes fails a start on a large graph's rebuild).
    assert not any("awaitIndexes" in s for s in statements)


def test_schema_indexes_names_every_index_the_schema_makes_with_its_type():
    made = schema_indexes(schema_text())
    statements = [s for s in schema_statements(schema_text()) if re.search(r"^(CYPHER 25 )?CREATE \w* ?INDEX", s)]
    assert len(made) == len(statements) == len({name for name, _ in made})
    kinds = dict(made)
    assert kinds["claim_embedding"] == "VECTOR" and kinds["recall_search"] == "FULLTEXT"
    assert kinds["claim_content_key"] == "RANGE"


def indexes_made(statement_pattern: str) -> dict[str, tuple[str, ...]]:
    """The properties listed by each schema statement matching the pattern (groups: name, `n.a, n.b`)."""
    made = {}
    for statement in schema_statements(schema_text()):
        found = re.match(statement_pattern, statement, re.DOTALL)
        if found:
            made[found[1]] = tuple(p.strip().split(".")[1] for p in found[2].split(","))
    return made


def test_every_vector_index_carries_the_filter_properties_the_client_expects():
    # apply_schema drops an index lacking VECTOR_INDEXES' properties; schema.cypher must then make it with them.
    made = indexes_made(r"CYPHER 25 CREATE VECTOR INDEX (\w+) .* WITH \[([^\]]*)\]")
    assert made == VECTOR_INDEXES
    assert all(properties[0] == "workspace" for properties in made.values())  # every search is of one workspace


def test_every_full_text_index_covers_the_labels_and_workspace_the_client_expects():
    # apply_schema drops a full-text index whose labels or properties differ from FULLTEXT_INDEXES'; every
    # full-text query requires the workspace inside Lucene (+workspace:"..."), so each index must cover it.
    made = indexes_made(r"CREATE FULLTEXT INDEX (\w+) .* ON EACH \[([^\]]*)\]")
    labels = {
        found[1]: tuple(found[2].split("|"))
        for statement in schema_statements(schema_text())
        if (found := re.match(r"CREATE FULLTEXT INDEX (\w+) IF NOT EXISTS FOR \(\w+:([\w|]+)\)", statement))
    }
    assert {name: (labels[name], properties) for name, properties in made.items()} == FULLTEXT_INDEXES
    assert all(properties[-1] == "workspace" for properties in made.values())
    library = QueryLibrary()
    for name in library.names():
        text = library[name].text
        if "db.index.fulltext.queryNodes" in text:
            assert "+workspace:\"' + $workspace + '\"^0" in text, name


def test_joined_queries_run_as_subqueries_of_one_statement_naming_cypher_25_once():
    library = QueryLibrary()
    names = ["recall_fulltext", "recall_turn_vector", "recall_session_fulltext"]
    joined = library.joined(names)
    assert joined.text.startswith("CYPHER 25\n") and joined.text.count("CYPHER 25") == 1
    assert joined.text.count("CALL () {") == 3
    assert joined.text.endswith("RETURN recall_fulltext, recall_turn_vector, recall_session_fulltext")
    assert joined.parameters == frozenset().union(*(library[n].parameters for n in names))
    assert library.joined(names) is joined  # built once


def test_every_recall_arm_can_be_joined_and_a_query_of_many_rows_cannot():
    library = QueryLibrary()
    library.joined([arm.query for arm in ARMS.values()])
    with pytest.raises(ValueError, match="one row"):
        library.joined(["recall_turn_vector", "server_version"])
