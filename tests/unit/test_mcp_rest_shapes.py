"""One shape per verb: every MCP tool takes the fields of its REST request (the operation's path
and query parameters and its JSON body's properties, read from the API's own OpenAPI document),
with the same names, nesting, defaults and bounds, save the differences docs/reference/mcp.md
lists (DIFFERENCES here). A field added to a REST request and not to its tool, or the other way
round, fails here. Read without a database."""

from __future__ import annotations

from functools import cache
from typing import Any

import anyio
import pytest

from donto.api.main import create_app
from donto.mcp.tools import build_server
from donto.settings import load_settings

# tool -> (method, path) of the REST operation it is; None: MCP's own (no REST request to match)
OPERATIONS: dict[str, tuple[str, str]] = {
    "write_claims": ("post", "/v1/claims"),
    "list_claims": ("get", "/v1/claims"),
    "get_claim": ("get", "/v1/claims/{claim_id}"),
    "claim_status": ("post", "/v1/claims/status"),
    "retract_claim": ("post", "/v1/claims/{claim_id}/retract"),
    "recall": ("post", "/v1/recall"),
    "add_turns": ("post", "/v1/episodes"),
    "session_turns": ("get", "/v1/sessions/{session}/turns"),
    "list_sessions": ("get", "/v1/sessions"),
    "get_turn": ("get", "/v1/turns/{turn_id}"),
    "retract_turn": ("post", "/v1/turns/{turn_id}/retract"),
    "clear_session": ("post", "/v1/sessions/{session}/clear"),
    "entity_profile": ("get", "/v1/entities/{key}/profile"),
    "entity_paths": ("get", "/v1/entities/{key}/paths"),
    "link_entities": ("post", "/v1/identity/links"),
    "entity_identity": ("get", "/v1/entities/{key}/identity"),
    "register_document": ("post", "/v1/documents"),
    "get_document": ("get", "/v1/documents/{document_id}"),
    "list_documents": ("get", "/v1/documents"),
    "retract_document": ("post", "/v1/documents/{document_id}/retract"),
    "memorize": ("post", "/v1/memorize"),
    "get_job": ("get", "/v1/jobs/{job_id}"),
    "list_jobs": ("get", "/v1/jobs"),
    "cancel_job": ("post", "/v1/jobs/{job_id}/cancel"),
    "orient": ("post", "/v1/memory/orient"),
    "bring_to_mind": ("post", "/v1/memory/bring-to-mind"),
    "recall_memory": ("post", "/v1/memory/recall"),
    "reset_seen": ("post", "/v1/memory/reset-seen"),
    "search_memory": ("post", "/v1/memory/search"),
    "remember": ("post", "/v1/memory/remember"),
    "mark_useful": ("post", "/v1/memory/useful"),
    "mark_questionable": ("post", "/v1/memory/questionable"),
    "consolidation_report": ("get", "/v1/memory/consolidation"),
    "close_consolidation": ("post", "/v1/memory/consolidation"),
    "memory_stats": ("get", "/v1/memory/stats"),
    "create_subject": ("post", "/v1/subjects"),
    "list_subjects": ("get", "/v1/subjects"),
    "get_subjects": ("post", "/v1/subjects/get"),
    "update_subject": ("patch", "/v1/subjects/{ref}"),
    "set_structure": ("post", "/v1/subjects/structure"),
    "append_observations": ("post", "/v1/subjects/observations"),
    "delete_observations": ("post", "/v1/subjects/observations/delete"),
    "open_intersection": ("post", "/v1/subjects/intersection"),
    "open_around": ("post", "/v1/subjects/around"),
    "find_similar_subjects": ("post", "/v1/subjects/similar"),
    "merge_subjects": ("post", "/v1/subjects/merge"),
    "unmerge_subjects": ("post", "/v1/subjects/unmerge"),
    "create_understanding": ("post", "/v1/understandings"),
    "update_understanding": ("post", "/v1/understandings/update"),
    "get_understandings": ("post", "/v1/understandings/about"),
    "understanding_history": ("get", "/v1/understandings/{understanding_id}/history"),
}

# Where a tool's arguments are not its REST request's, and why (docs/reference/mcp.md, "Where the
# arguments differ"): REST fields a tool does not take.
DIFFERENCES: dict[str, set[str]] = {
    # identity is as known at known_at; REST takes valid_at with every read's scope and ignores it
    "entity_identity": {"valid_at"},
}
PATH = "in the path"
BOUNDS = ("minLength", "maxLength", "pattern", "minimum", "maximum", "minItems", "maxItems", "enum", "type")


@cache
def tools() -> dict[str, Any]:
    server = build_server(None, lambda ctx: "unused")  # type: ignore[arg-type]  # listing touches no memory
    return {t.name: t for t in anyio.run(server.list_tools)}


@cache
def openapi() -> dict[str, Any]:
    return create_app(load_settings()).openapi()


def resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A schema with its $ref (and an optional body's anyOf [$ref, null]) followed."""
    branches = [b for b in schema.get("anyOf", [schema]) if b.get("type") != "null"]
    if len(branches) == 1 and "$ref" in branches[0]:
        return resolve(defs[branches[0]["$ref"].rsplit("/", 1)[-1]], defs)
    return schema


def rest_fields(method: str, path: str) -> tuple[dict[str, dict[str, Any]], set[str], dict[str, Any]]:
    """The REST request's fields (path, query, body), the required ones, and its schemas' $defs. A
    path parameter is only a string there (a URL's segment is never empty), where its tool
    argument is an id's or a key's bounds: compared by type."""
    spec = openapi()
    defs = spec["components"]["schemas"]
    operation = spec["paths"][path][method]
    fields: dict[str, dict[str, Any]] = {}
    required: set[str] = set()
    for parameter in operation.get("parameters", []):
        if parameter["in"] in ("path", "query"):
            schema = parameter["schema"]
            fields[parameter["name"]] = {"type": schema["type"], PATH: True} if parameter["in"] == "path" else schema
            if parameter.get("required"):
                required.add(parameter["name"])
    if body := operation.get("requestBody"):
        model = resolve(body["content"]["application/json"]["schema"], defs)
        fields |= model["properties"]
        if body.get("required"):
            required |= set(model.get("required", []))
    return fields, required, defs


def bounds(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """What a value may be: its type and limits, an optional one's non-null branch, its items' and a
    nested model's properties too, a union's branch by branch."""
    schema = resolve(schema, defs)
    branches = [resolve(b, defs) for b in schema.get("anyOf", [schema]) if b.get("type") != "null"]
    if len(branches) > 1:
        return [bounds(b, defs) for b in branches]
    [branch] = branches
    found: dict[str, Any] = {k: branch[k] for k in BOUNDS if k in branch}
    if "items" in branch:
        found["items"] = bounds(branch["items"], defs)
    if "properties" in branch:
        found["properties"] = {k: bounds(v, defs) for k, v in branch["properties"].items()}
        found["required"] = sorted(branch.get("required", []))
    return found


def test_every_tool_is_matched_with_its_rest_operation():
    assert set(OPERATIONS) == set(tools())
    paths = openapi()["paths"]
    for name, (method, path) in OPERATIONS.items():
        assert method in paths.get(path, {}), name


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_each_tool_takes_its_rest_requests_fields(name):
    fields, required, defs = rest_fields(*OPERATIONS[name])
    for left_out in DIFFERENCES.get(name, set()):
        fields.pop(left_out)
    schema = tools()[name].input_schema
    arguments, tool_defs = schema.get("properties", {}), schema.get("$defs", {})
    assert set(arguments) == set(fields)
    assert set(schema.get("required", [])) == required
    for field, rest in fields.items():
        argument = arguments[field]
        if rest.get(PATH):
            assert argument["type"] == rest["type"], field
            continue
        assert bounds(argument, tool_defs) == bounds(rest, defs), field
        assert argument.get("default") == rest.get("default"), field


def test_no_tool_takes_an_argument_it_does_not_declare():
    for tool in tools().values():
        assert tool.input_schema.get("additionalProperties") is False, tool.name


def test_every_argument_says_what_it_is_for():
    """A model chooses arguments from the schema: a described REST field, or a description the tool
    adds (the REST models leave most to the API's reference)."""
    for tool in tools().values():
        for field, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{tool.name}.{field}"
