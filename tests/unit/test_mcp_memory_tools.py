"""The memory MCP tools, read without a database: each argument has the limits of its REST request
model's field (the tool validates through that model too, but a model choosing arguments reads the
tool's schema), and every tool says what it is for."""

from __future__ import annotations

from functools import cache
from typing import Any

import anyio
import pytest
from pydantic import BaseModel

from donto.api.schemas import subjects as s
from donto.api.schemas.documents import DocumentIn
from donto.api.schemas.memorize import MemorizeIn
from donto.mcp.tools import build_server

REQUESTS: dict[str, type[BaseModel]] = {
    "bring_to_mind": s.BringIn,
    "recall_memory": s.MemoryRecallIn,
    "search_memory": s.SearchIn,
    "create_subject": s.SubjectIn,
    "get_subjects": s.SubjectsGetIn,
    "update_subject": s.SubjectPatchIn,
    "set_structure": s.StructureIn,
    "remember": s.RememberIn,
    "append_observations": s.ObservationsIn,
    "delete_observations": s.DeleteObservationsIn,
    "create_understanding": s.UnderstandingIn,
    "update_understanding": s.UnderstandingUpdateIn,
    "get_understandings": s.UnderstandingsAboutIn,
    "open_around": s.AroundIn,
    "open_intersection": s.IntersectionIn,
    "find_similar_subjects": s.SimilarIn,
    "merge_subjects": s.MergeIn,
    "unmerge_subjects": s.UnmergeIn,
    "mark_useful": s.SignalIn,
    "mark_questionable": s.SignalIn,
}
LIMITS = ("minLength", "maxLength", "pattern", "minimum", "maximum", "minItems", "maxItems", "enum", "const", "type")


def limits(schema: dict[str, Any]) -> Any:
    """The constraints of one property, an optional one's non-null branch, its items' too; a union's
    (memorize's lenses: a list or "default"), branch by branch."""
    branches = [b for b in schema.get("anyOf", [schema]) if b.get("type") != "null"]
    if len(branches) > 1:
        return [limits(b) for b in branches]
    [branch] = branches
    found: dict[str, Any] = {k: branch[k] for k in LIMITS if k in branch}
    if "items" in branch:
        found["items"] = limits(branch["items"]) if "$ref" not in branch["items"] else "model"
    return found


@cache
def tools() -> dict[str, Any]:
    server = build_server(None, lambda ctx: "unused")  # type: ignore[arg-type]  # listing touches no memory
    return {t.name: t for t in anyio.run(server.list_tools)}


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_each_memory_tool_takes_its_rest_fields_with_the_same_limits(name):
    tool, model = tools()[name], REQUESTS[name].model_json_schema()
    arguments = tool.input_schema["properties"]
    assert set(arguments) - {"ref"} == set(model["properties"])  # update_subject's ref is REST's path
    for field, schema in arguments.items():
        if field in model["properties"]:
            assert limits(schema) == limits(model["properties"][field]), field


@pytest.mark.parametrize(
    ("name", "model", "renamed"),
    [("memorize", MemorizeIn, {}), ("register_document", DocumentIn, {})],
)
def test_the_tools_for_what_an_agent_reads_take_their_rest_fields_with_the_same_limits(name, model, renamed):
    arguments, fields = tools()[name].input_schema["properties"], model.model_json_schema(by_alias=True)["properties"]
    assert {renamed.get(a, a) for a in arguments} == set(fields)
    for argument, schema in arguments.items():
        if argument not in renamed:
            assert limits(schema) == limits(fields[argument]), argument


def test_every_tool_opens_with_a_one_line_purpose():
    for tool in tools().values():
        lines = tool.description.strip().splitlines()
        assert lines[0].strip() and lines[1:2] in ([], [""]), tool.name


def test_the_consolidation_reports_sections_are_typed_models_over_mcp():
    schema = tools()["consolidation_report"].output_schema
    sections = [name for name, field in schema["properties"].items() if field.get("type") == "array"]
    assert len(sections) == 6
    for name in sections:
        model = schema["$defs"][schema["properties"][name]["items"]["$ref"].rsplit("/", 1)[-1]]
        assert model["properties"] and model.get("additionalProperties") is not True, name
