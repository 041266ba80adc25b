"""One name per verb: every MCP tool is a method of donto.Client and donto.AsyncClient under the same
name, and every client method is either an MCP tool or one of the REST-only verbs listed here (so a
new verb gets one name on both sides, or is said to be REST-only on purpose)."""

from __future__ import annotations

import inspect

import anyio

import donto
from donto.mcp.tools import build_server

# What only the REST API and the client do: health, paging helpers, predicates, documents' text, batch
# memorize, job internals, workspace settings, identity links' retraction, single reads by id,
# perspectives, the event log, and the conversation listings' iterators.
REST_ONLY = {
    "health",
    "request",
    "close",
    "aclose",
    "iter_claims",
    "claims_status",
    "claim_neighbourhood",
    "declare_predicate",
    "list_predicates",
    "reject_proposed_alias",
    "get_document_text",
    "iter_documents",
    "iter_sessions",
    "iter_session_turns",
    "memorize_batch",
    "iter_jobs",
    "wait_for_job",
    "get_job_raw",
    "job_facts",
    "iter_job_facts",
    "get_workspace_settings",
    "put_workspace_settings",
    "retract_link",
    "iter_subjects",
    "get_subject",
    "get_understanding",
    "list_perspectives",
    "add_perspective",
    "memory_events",
    "iter_memory_events",
}


def mcp_tools() -> set[str]:
    server = build_server(None, lambda ctx: "unused")  # type: ignore[arg-type]  # listing touches no memory
    return {t.name for t in anyio.run(server.list_tools)}


def methods(client: type) -> set[str]:
    return {name for name, value in vars(client).items() if not name.startswith("_") and inspect.isfunction(value)}


def test_every_mcp_tool_is_a_client_method_of_the_same_name():
    tools = mcp_tools()
    assert len(tools) == 51
    for client in (donto.Client, donto.AsyncClient):
        assert sorted(tools - methods(client)) == [], f"MCP tools {client.__name__} lacks"


def test_every_client_method_is_an_mcp_tool_or_a_rest_only_verb():
    tools = mcp_tools()
    assert sorted(methods(donto.Client) - tools - REST_ONLY) == []
    assert sorted(REST_ONLY & tools) == []  # a tool is never also listed as REST-only
