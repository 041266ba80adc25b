"""donto's own adapter for the Neo4j Labs agent-memory TCK, served over the kit's HTTP bridge.

The kit (github.com/neo4j-labs/agent-memory-tck, Apache-2.0) is read-only input: it is copied to a
temporary folder, installed there into a virtualenv of its own (`[bridge]`), and its pytest suite is
run per tier against a bridge server of donto's own (tck/bridge/protocol.md: `POST /{method}` with
the BaseAdapter method's arguments as JSON). The bridge maps each method onto donto.AsyncClient,
nothing else, in a fresh workspace from every `clear_all_data` on:

  messages         turns (role: speaker, content: text, metadata: turn metadata, the bridge's clock
                   at the call: occurred_at; a message's id is donto's turn id)
  sessions         sessions (by external id; a conversation's id is donto's session id)
  search_messages  recall (scoped to the session where recall takes `sessions`), its turn items
                   read back by their session; threshold against an item's `relevance`
  entities         a claim (name, is_a, "TYPE") and, with a description, (name, description, "…")
  preferences      a claim (user, prefers:CATEGORY, "…") with the preference's context as its context
  facts            a claim (subject, predicate, object entity)
  relationships    a claim (source's name, TYPE, target's name)

  reasoning traces a session of the agent's own, `trace:<trace id>` (left out of list_sessions): the
                   task, each step and each tool call a turn (speaker agent, or tool:NAME), what the
                   kit reads back in the turn's metadata (kind, step_number, thought/action/observation;
                   step_id, arguments, result, status, duration_ms, error), the outcome a last turn;
                   get_tool_stats counts the tool calls' turns; get_similar_traces is recall on the task

A method donto has no capability for (the Platinum hosted-service calls, merging entities) answers
501 {"error": "not implemented: …"}, as the protocol allows, and the kit's test of it fails or skips;
nothing is faked. The bench prints passed, failed and skipped per tier and each failing scenario (its
SCN id from the kit's registry) by file and test class.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from donto.client import AsyncClient, NotFoundError

PROTOCOL_VERSION = "0.2.0"
ENTITY_TYPE = "is_a"  # (name, is_a, "PERSON"): the claim that is the entity
DESCRIPTION = "description"
PREFERENCE_SUBJECT = "user"
PREFERENCE_PREFIX = "prefers:"  # the predicate carries the category: prefers:food
ENTITY_PREDICATES = frozenset({ENTITY_TYPE, DESCRIPTION})
TURN_PAGE = 1000  # GET /v1/sessions/{id}/turns' largest page
SESSION_PAGE = 1000
SEARCH_K_FLOOR = 20  # recall is asked for more items than the limit: claim and turn items share a bundle
NO_CONVERSATION = uuid.UUID("6b0e3d1e-5f2a-4c55-9d0b-2a1d9c0f7e11")  # uuid5 namespace: a session donto never held


class NotImplementedHere(Exception):
    """A method donto has no capability for: the bridge answers 501 with the reason."""


# -- the pure mapping: donto's answers as the kit's data model -------------------------------------


def message_of(turn: dict[str, Any]) -> dict[str, Any]:
    """A turn (TurnOut as JSON) as the kit's Message."""
    return {
        "id": turn["id"],
        "role": turn["speaker"],
        "content": turn["text"],
        "timestamp": turn.get("occurred_at") or turn["recorded_at"],
        "embedding": None,
        "metadata": turn.get("metadata") or {},
    }


def session_info_of(session: dict[str, Any]) -> dict[str, Any]:
    """A session (SessionOut as JSON) as the kit's SessionInfo."""
    return {
        "session_id": session["external_id"],
        "message_count": session["turn_count"],
        "created_at": session.get("started_at") or session.get("recorded_at") or session.get("first_at"),
        "updated_at": session.get("last_at"),
    }


def conversation_of(
    session_id: str, session: dict[str, Any] | None, turns: list[dict[str, Any]], workspace: str
) -> dict[str, Any]:
    """The kit's Conversation. A session donto does not hold is a conversation of no messages (the
    kit asks for one): its id a uuid5 of the workspace and external id, created now."""
    if session is None:
        return {
            "id": str(uuid.uuid5(NO_CONVERSATION, f"{workspace}\x1f{session_id}")),
            "session_id": session_id,
            "messages": [],
            "title": None,
            "created_at": datetime.now(UTC).isoformat(),
            "updated_at": None,
        }
    info = session_info_of(session)
    return {
        "id": session["id"],
        "session_id": session_id,
        "messages": [message_of(t) for t in turns],
        "title": None,
        "created_at": info["created_at"],
        "updated_at": info["updated_at"],
    }


def literal(value: str) -> dict[str, Any]:
    return {"literal": {"datatype": "xsd:string", "value": value}}


def object_text(obj: dict[str, Any]) -> str:
    """A claim's object (ClaimOut.object) as text: an entity's key or a literal's value."""
    if "entity" in obj:
        return str(obj["entity"])
    return str(obj["literal"]["value"])


def entity_claims(name: str, entity_type: str, description: str | None) -> list[dict[str, Any]]:
    claims = [{"subject": name, "predicate": ENTITY_TYPE, "object": literal(entity_type)}]
    if description:
        claims.append({"subject": name, "predicate": DESCRIPTION, "object": literal(description)})
    return claims


def entity_of(type_claim: dict[str, Any], description: str | None) -> dict[str, Any]:
    """An (name, is_a, TYPE) claim (ClaimOut as JSON) as the kit's Entity."""
    return {
        "id": type_claim["id"],
        "name": type_claim["subject"],
        "type": object_text(type_claim["object"]),
        "subtype": None,
        "description": description,
        "embedding": None,
        "canonical_name": None,
        "created_at": type_claim["tx_from"],
    }


def preference_claim(category: str, preference: str, context: str | None) -> dict[str, Any]:
    claim: dict[str, Any] = {
        "subject": PREFERENCE_SUBJECT,
        "predicate": PREFERENCE_PREFIX + category,
        "object": literal(preference),
    }
    if context:
        claim["context"] = context
    return claim


def preference_of(claim: dict[str, Any]) -> dict[str, Any] | None:
    """A (user, prefers:CATEGORY, "…") claim as the kit's Preference; None for any other claim."""
    if claim["subject"] != PREFERENCE_SUBJECT or not claim["predicate"].startswith(PREFERENCE_PREFIX):
        return None
    return {
        "id": claim["id"],
        "category": claim["predicate"].removeprefix(PREFERENCE_PREFIX),
        "preference": object_text(claim["object"]),
        "context": claim.get("context"),
        "embedding": None,
    }


def fact_of(claim: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": claim["id"],
        "subject": claim["subject"],
        "predicate": claim["predicate"],
        "object": object_text(claim["object"]),
        "embedding": None,
    }


TRACE_PREFIX = "trace:"  # a reasoning trace is the donto session `trace:<id>`; the kit's sessions are the others
TOOL_FAILED = frozenset({"failure", "error", "timeout", "cancelled"})


def trace_session(trace_id: str) -> str:
    return f"{TRACE_PREFIX}{trace_id}"


def step_text(thought: str | None, action: str | None, observation: str | None) -> str:
    """A step as the words recall searches: what the agent thought, did and saw."""
    said = (("thought", thought), ("action", action), ("observation", observation))
    return "\n".join(f"{name}: {value}" for name, value in said if value)


def tool_call_of(turn: dict[str, Any]) -> dict[str, Any]:
    kept = turn["metadata"]
    return {
        "id": turn["id"],
        "tool_name": kept["tool_name"],
        "arguments": kept.get("arguments") or {},
        "result": kept.get("result"),
        "status": kept.get("status") or "pending",
        "duration_ms": kept.get("duration_ms"),
        "error": kept.get("error"),
    }


def trace_of(trace_id: str, turns: list[dict[str, Any]]) -> dict[str, Any]:
    """The kit's ReasoningTrace from its session's turns, in order: the task, then steps, each step's
    tool calls (by the step's turn id) and the outcome."""
    task = turns[0]
    steps: list[dict[str, Any]] = []
    by_step: dict[str, dict[str, Any]] = {}
    outcome: dict[str, Any] | None = None
    for turn in turns[1:]:
        kept = turn.get("metadata") or {}
        if kept.get("kind") == "step":
            step = {
                "id": turn["id"],
                "trace_id": trace_id,
                "step_number": kept["step_number"],
                **{name: kept.get(name) for name in ("thought", "action", "observation")},
                "tool_calls": [],
            }
            steps.append(step)
            by_step[turn["id"]] = step
        elif kept.get("kind") == "tool_call" and kept.get("step_id") in by_step:
            by_step[kept["step_id"]]["tool_calls"].append(tool_call_of(turn))
        elif kept.get("kind") == "outcome":
            outcome = turn
    done = outcome.get("metadata") or {} if outcome else {}
    return {
        "id": trace_id,
        "session_id": (task.get("metadata") or {}).get("session_id", ""),
        "task": task["text"],
        "steps": steps,
        "outcome": outcome["text"] or None if outcome else None,
        "success": done.get("success"),
        "started_at": task.get("occurred_at") or task["recorded_at"],
        "completed_at": (outcome.get("occurred_at") or outcome["recorded_at"]) if outcome else None,
    }


def tool_stats_of(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The kit's ToolStats per tool name, from the tool calls' turns (pending ones neither succeeded nor failed)."""
    by_name: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for call in calls:
        by_name[call["tool_name"]].append(call)
    stats = []
    for name, named in sorted(by_name.items()):
        succeeded = sum(1 for c in named if c["status"] == "success")
        failed = sum(1 for c in named if c["status"] in TOOL_FAILED)
        durations = [c["duration_ms"] for c in named if c.get("duration_ms") is not None]
        stats.append(
            {
                "name": name,
                "total_calls": len(named),
                "successful_calls": succeeded,
                "failed_calls": failed,
                "success_rate": succeeded / len(named),
                "avg_duration_ms": sum(durations) / len(durations) if durations else None,
            }
        )
    return stats


def turn_hits(items: list[dict[str, Any]], threshold: float) -> list[tuple[str, str]]:
    """(session external id, turn external id) of each turn a recall bundle's items (RecallOut.items
    as JSON, with provenance) hold, best first, once each; an item whose relevance is below the
    threshold is left out (an item without one is kept)."""
    seen: dict[tuple[str, str], None] = {}
    for item in items:
        provenance = item.get("provenance") or {}
        session = provenance.get("session_id")
        if item.get("predicate") != "said" or session is None:
            continue
        if (relevance := item.get("relevance")) is not None and relevance < threshold:
            continue
        for turn in provenance.get("turn_ids") or []:
            seen.setdefault((session, turn), None)
    return list(seen)


def claim_hits(items: list[dict[str, Any]]) -> list[str]:
    """The claim ids behind a bundle's claim items, best first, once each."""
    seen: dict[str, None] = {}
    for item in items:
        if item.get("object") is None:
            continue
        for claim_id in (item.get("provenance") or {}).get("claim_ids") or []:
            seen.setdefault(claim_id, None)
    return list(seen)


# -- the bridge: BaseAdapter's methods on donto.AsyncClient ----------------------------------------


Handler = Callable[..., Awaitable[Any]]


@dataclass
class DontoBridge:
    base_url: str
    api_key: str
    workspace_prefix: str
    workspaces: list[str] = field(default_factory=list)
    _client: AsyncClient | None = None

    @property
    def workspace(self) -> str:
        if not self.workspaces:
            self.workspaces.append(f"{self.workspace_prefix}-0")
        return self.workspaces[-1]

    @property
    def client(self) -> AsyncClient:
        if self._client is None:
            self._client = AsyncClient(self.base_url, api_key=self.api_key, workspace=self.workspace)
        return self._client

    def method(self, name: str) -> Callable[..., Any]:
        """The client's method, or 501 saying donto.AsyncClient has none (main's surface before `conv`)."""
        found = getattr(self.client, name, None)
        if found is None:
            raise NotImplementedHere(f"donto.AsyncClient has no {name}")
        return found

    # -- lifecycle

    async def setup(self) -> dict[str, Any]:
        return {"ok": True, "protocol_version": PROTOCOL_VERSION}

    async def teardown(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def clear_all_data(self) -> None:
        """A fresh workspace: donto's REST API has no purge (the CLI's `donto purge` is), and a
        workspace is never seen from another."""
        await self.teardown()
        self.workspaces.append(f"{self.workspace_prefix}-{len(self.workspaces)}")

    # -- short-term memory

    async def add_message(
        self, session_id: str, role: str, content: str, metadata: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        from donto.api.schemas.episodes import TurnIn

        turn: dict[str, Any] = {
            "external_id": str(uuid.uuid4()),
            "speaker": role,
            "text": content,
            "occurred_at": datetime.now(UTC).isoformat(),
        }
        keeps_metadata = "metadata" in TurnIn.model_fields
        if metadata and keeps_metadata:
            turn["metadata"] = metadata
        written = await self.client.add_turns(session={"external_id": session_id}, turns=[turn])
        return {
            "id": written.turns[0].id,
            "role": role,
            "content": content,
            "timestamp": turn["occurred_at"],
            "embedding": None,
            # what donto keeps: without turn metadata (main's surface), none
            "metadata": (metadata or {}) if keeps_metadata else {},
        }

    async def _session(self, session_id: str) -> dict[str, Any] | None:
        async for session in self._sessions():
            if session["external_id"] == session_id:
                return session
        return None

    async def _sessions(self) -> AsyncIterator[dict[str, Any]]:
        list_sessions = self.method("list_sessions")
        cursor = None
        while True:
            page = (await list_sessions(limit=SESSION_PAGE, cursor=cursor)).model_dump(mode="json")
            for session in page["sessions"]:
                yield session
            if not (cursor := page["next_cursor"]):
                return

    async def _turns(self, session_id: str, limit: int | None) -> list[dict[str, Any]]:
        """All the session's live turns in order, or (limit) its last `limit`; NotFoundError for a
        session donto does not hold."""
        session_turns = self.method("session_turns")
        if limit is not None:
            page = await session_turns(session_id, limit=min(limit, TURN_PAGE), latest=True)
            return list(page.model_dump(mode="json")["turns"])
        turns: list[dict[str, Any]] = []
        after = None
        while True:
            page = (await session_turns(session_id, limit=TURN_PAGE, after=after)).model_dump(mode="json")
            turns += page["turns"]
            if not (after := page["next_after"]):
                return turns

    async def get_conversation(self, session_id: str, limit: int | None = None) -> dict[str, Any]:
        try:
            turns = await self._turns(session_id, limit)
        except NotFoundError:
            return conversation_of(session_id, None, [], self.workspace)
        return conversation_of(session_id, await self._session(session_id), turns, self.workspace)

    async def search_messages(
        self, query: str, session_id: str | None = None, limit: int = 10, threshold: float = 0.7
    ) -> list[dict[str, Any]]:
        from donto.api.schemas.recall import RecallIn

        scoped = "sessions" in RecallIn.model_fields
        fields: dict[str, Any] = {"k": min(200, max(SEARCH_K_FLOOR, 2 * limit)), "include_provenance": True}
        if session_id is not None and scoped:
            fields["sessions"] = [session_id]
        bundle = (await self.client.recall(query, **fields)).model_dump(mode="json")
        hits = [
            (session, turn)
            for session, turn in turn_hits(bundle["items"], threshold)
            if session_id is None or session == session_id  # recall without `sessions` (main) reads them all
        ]
        by_session: dict[str, dict[str, dict[str, Any]]] = {}
        messages = []
        for session, turn in hits:
            if session not in by_session:
                by_session[session] = {t["external_id"]: t for t in await self._turns(session, None)}
            if (found := by_session[session].get(turn)) is not None:  # absent: retracted since
                messages.append(message_of(found))
        return messages[:limit]

    async def list_sessions(self, limit: int = 100) -> list[dict[str, Any]]:
        """The workspace's conversations but the reasoning traces' sessions, in the order they began."""
        sessions: list[dict[str, Any]] = []
        async for session in self._sessions():
            if len(sessions) >= max(limit, 1):
                break
            if not session["external_id"].startswith(TRACE_PREFIX):
                sessions.append(session_info_of(session))
        return sessions

    async def delete_message(self, message_id: str) -> dict[str, bool]:
        retract_turn = self.method("retract_turn")
        try:
            retraction = await retract_turn(message_id)
        except NotFoundError:
            return {"deleted": False}
        return {"deleted": bool(retraction.was_live)}

    async def clear_session(self, session_id: str) -> None:
        clear_session = self.method("clear_session")
        with suppress(NotFoundError):  # a session never written has nothing to clear
            await clear_session(session_id)

    # -- long-term memory

    async def _write(self, claims: list[dict[str, Any]]) -> tuple[list[str], str]:
        written = await self.client.write_claims(claims=claims)
        return [c.id for c in written.claims], written.recorded_at

    async def _claims(self, **filters: Any) -> list[dict[str, Any]]:
        return [c.model_dump(mode="json") async for c in self.client.iter_claims(**filters)]

    async def add_entity(self, name: str, entity_type: str, description: str | None = None) -> dict[str, Any]:
        ids, recorded_at = await self._write(entity_claims(name, entity_type, description))
        return entity_of(
            {"id": ids[0], "subject": name, "object": literal(entity_type), "tx_from": recorded_at}, description
        )

    async def _description(self, name: str) -> str | None:
        found = await self._claims(subject=name, predicate=DESCRIPTION)
        return object_text(found[0]["object"]) if found else None

    async def get_entity_by_name(self, name: str) -> dict[str, Any] | None:
        found = await self._claims(subject=name, predicate=ENTITY_TYPE)
        if not found:
            return None
        return entity_of(found[0], await self._description(name))

    async def _entity(self, entity_id: str) -> dict[str, Any] | None:
        try:
            claim = (await self.client.get_claim(entity_id)).model_dump(mode="json")
        except NotFoundError:
            return None
        return (
            entity_of(claim, await self._description(claim["subject"])) if claim["predicate"] == ENTITY_TYPE else None
        )

    async def _recalled_claims(self, query: str, limit: int) -> list[dict[str, Any]]:
        bundle = await self.client.recall(query, k=min(200, max(SEARCH_K_FLOOR, 4 * limit)), include_provenance=True)
        claims = []
        for claim_id in claim_hits(bundle.model_dump(mode="json")["items"]):
            try:
                claims.append((await self.client.get_claim(claim_id)).model_dump(mode="json"))
            except NotFoundError:
                continue
        return claims

    async def search_entities(self, query: str, limit: int = 10) -> list[dict[str, Any]]:
        entities: dict[str, dict[str, Any]] = {}
        for claim in await self._recalled_claims(query, limit):
            if claim["predicate"] == ENTITY_TYPE:
                entity = entity_of(claim, await self._description(claim["subject"]))
            elif claim["predicate"] == DESCRIPTION:
                if (found := await self.get_entity_by_name(claim["subject"])) is None:
                    continue
                entity = found
            else:
                continue
            entities.setdefault(entity["id"], entity)
        return list(entities.values())[:limit]

    async def add_preference(self, category: str, preference: str, context: str | None = None) -> dict[str, Any]:
        claim = preference_claim(category, preference, context)
        ids, _ = await self._write([claim])
        found = preference_of({**claim, "id": ids[0]})
        assert found is not None
        return found

    async def search_preferences(self, query: str, category: str | None = None, limit: int = 10) -> list[Any]:
        preferences = []
        for claim in await self._recalled_claims(query, limit):
            if (found := preference_of(claim)) is not None and (category is None or found["category"] == category):
                preferences.append(found)
        return preferences[:limit]

    async def add_fact(self, subject: str, predicate: str, obj: str) -> dict[str, Any]:
        claim = {"subject": subject, "predicate": predicate, "object": {"entity": obj}}
        ids, _ = await self._write([claim])
        return fact_of({**claim, "id": ids[0]})

    async def add_relationship(
        self, source_id: str, target_id: str, relationship_type: str, properties: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        if properties:
            raise NotImplementedHere("a claim holds no properties of its own (relationship properties)")
        source, target = await self._entity(source_id), await self._entity(target_id)
        if source is None or target is None:
            raise ValueError(f"no entity {source_id if source is None else target_id}")
        ids, _ = await self._write(
            [{"subject": source["name"], "predicate": relationship_type, "object": {"entity": target["name"]}}]
        )
        return {
            "id": ids[0],
            "source_id": source_id,
            "target_id": target_id,
            "relationship_type": relationship_type,
            "properties": {},
        }

    async def get_related_entities(
        self, entity_id: str, relationship_type: str | None = None, depth: int = 1
    ) -> list[dict[str, Any]]:
        """Entities the entity's claims name as object, or whose claims name it, `depth` hops out."""
        start = await self._entity(entity_id)
        if start is None:
            return []
        seen, frontier, related = {start["name"]}, [start["name"]], []
        for _ in range(max(depth, 1)):
            names: list[str] = []
            for name in frontier:
                edges = await self._claims(subject=name, predicate=relationship_type)
                edges += await self._claims(object=name, predicate=relationship_type)
                for claim in edges:
                    if claim["predicate"] in ENTITY_PREDICATES or "entity" not in claim["object"]:
                        continue
                    other = claim["object"]["entity"] if claim["subject"] == name else claim["subject"]
                    if other not in seen:
                        seen.add(other)
                        names.append(other)
            for name in names:
                if (entity := await self.get_entity_by_name(name)) is not None:
                    related.append(entity)
            frontier = names
        return related

    # -- reasoning memory: a trace is a conversation of the agent's own (see the module's docstring)

    async def _say(self, trace_id: str, speaker: str, text: str, kept: dict[str, Any]) -> dict[str, Any]:
        """One turn of the trace's session, as the listing reads it back."""
        turn = {
            "external_id": str(uuid.uuid4()),
            "speaker": speaker,
            "text": text,
            "occurred_at": datetime.now(UTC).isoformat(),
            "metadata": kept,
        }
        written = await self.client.add_turns(session={"external_id": trace_session(trace_id)}, turns=[turn])
        return dict((await self.client.get_turn(written.turns[0].id)).model_dump(mode="json"))

    async def _trace_turns(self, trace_id: str) -> list[dict[str, Any]] | None:
        try:
            turns = await self._turns(trace_session(trace_id), None)
        except NotFoundError:
            return None
        return turns or None

    async def start_trace(self, session_id: str, task: str) -> dict[str, Any]:
        trace_id = str(uuid.uuid4())
        task_turn = await self._say(trace_id, "agent", task, {"kind": "task", "session_id": session_id})
        return trace_of(trace_id, [task_turn])

    async def add_step(
        self, trace_id: str, thought: str | None = None, action: str | None = None, observation: str | None = None
    ) -> dict[str, Any]:
        turns = await self._trace_turns(trace_id)
        if turns is None:
            raise LookupError(f"no trace {trace_id}")
        number = 1 + sum(1 for t in turns if (t.get("metadata") or {}).get("kind") == "step")
        kept = {"kind": "step", "step_number": number, "thought": thought, "action": action, "observation": observation}
        turn = await self._say(trace_id, "agent", step_text(thought, action, observation), kept)
        return trace_of(trace_id, [turns[0], turn])["steps"][0]

    async def record_tool_call(
        self,
        step_id: str,
        tool_name: str,
        arguments: dict[str, Any] | None = None,
        result: Any = None,
        status: str | None = None,
        duration_ms: int | None = None,
        error: str | None = None,
    ) -> dict[str, Any]:
        step = (await self.client.get_turn(step_id)).model_dump(mode="json")
        if not step["session"].startswith(TRACE_PREFIX) or (step.get("metadata") or {}).get("kind") != "step":
            raise LookupError(f"no step {step_id}")
        kept = {
            "kind": "tool_call",
            "step_id": step_id,
            "tool_name": tool_name,
            "arguments": arguments or {},
            "result": result,
            "status": status or "pending",
            "duration_ms": duration_ms,
            "error": error,
        }
        said = f"{tool_name}({json.dumps(arguments or {}, sort_keys=True)})"
        turn = await self._say(step["session"][len(TRACE_PREFIX) :], f"tool:{tool_name}", said, kept)
        return tool_call_of(turn)

    async def complete_trace(
        self, trace_id: str, outcome: str | None = None, success: bool | None = None
    ) -> dict[str, Any]:
        if await self._trace_turns(trace_id) is None:
            raise LookupError(f"no trace {trace_id}")
        await self._say(trace_id, "agent", outcome or "", {"kind": "outcome", "success": success})
        return trace_of(trace_id, await self._trace_turns(trace_id) or [])

    async def get_trace_with_steps(self, trace_id: str) -> dict[str, Any] | None:
        turns = await self._trace_turns(trace_id)
        return trace_of(trace_id, turns) if turns else None

    async def _traces(self) -> AsyncIterator[dict[str, Any]]:
        async for session in self._sessions():
            if session["external_id"].startswith(TRACE_PREFIX):
                trace_id = session["external_id"][len(TRACE_PREFIX) :]
                if (turns := await self._trace_turns(trace_id)) is not None:
                    yield trace_of(trace_id, turns)

    async def list_traces(self, session_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        traces: list[dict[str, Any]] = []
        async for trace in self._traces():
            if len(traces) >= max(limit, 1):
                break
            if session_id is None or trace["session_id"] == session_id:
                traces.append(trace)
        return traces

    async def get_tool_stats(self, tool_name: str | None = None) -> list[dict[str, Any]]:
        calls = [
            call
            async for trace in self._traces()
            for step in trace["steps"]
            for call in step["tool_calls"]
            if tool_name is None or call["tool_name"] == tool_name
        ]
        return tool_stats_of(calls)

    async def get_similar_traces(self, task: str, limit: int = 5, success_only: bool = False) -> list[dict[str, Any]]:
        """Traces whose words recall finds for the task, best first (recall over every session: the
        traces' are the ones kept)."""
        bundle = (await self.client.recall(task, k=50, include_provenance=True)).model_dump(mode="json")
        traces: list[dict[str, Any]] = []
        for session, _turn in turn_hits(bundle["items"], 0.0):
            if not session.startswith(TRACE_PREFIX) or any(t["id"] == session[len(TRACE_PREFIX) :] for t in traces):
                continue
            trace = await self.get_trace_with_steps(session[len(TRACE_PREFIX) :])
            if trace is not None and (not success_only or trace["success"]):
                traces.append(trace)
            if len(traces) >= limit:
                break
        return traces


# Reasons for what donto does not do, by method: each answers 501 with its reason.
NOT_IMPLEMENTED = {
    "merge_duplicate_entities": "donto links entity keys (SAME_AS) but merges no entity into another",
}
METHODS = (
    *("setup", "teardown", "clear_all_data"),
    *("add_message", "get_conversation", "search_messages", "list_sessions", "delete_message", "clear_session"),
    *("add_entity", "add_preference", "add_fact", "search_entities", "search_preferences", "get_entity_by_name"),
    *("get_related_entities", "add_relationship"),
    *("start_trace", "add_step", "record_tool_call", "complete_trace", "get_trace_with_steps", "list_traces"),
    *("get_tool_stats", "get_similar_traces"),
)


def bridge_app(bridge: DontoBridge) -> FastAPI:
    """The bridge as an ASGI app: POST /{method}, the method's arguments as a JSON object."""
    app = FastAPI(title="donto's agent-memory TCK bridge")

    @app.post("/{method}")
    async def call(method: str, request: Request) -> Response:
        raw = await request.body()
        arguments = json.loads(raw) if raw.strip() else {}
        if method in NOT_IMPLEMENTED:
            return JSONResponse({"error": f"not implemented: {NOT_IMPLEMENTED[method]}"}, status_code=501)
        if method not in METHODS:
            return JSONResponse({"error": f"not implemented: no mapping of {method} onto donto"}, status_code=501)
        try:
            result = await getattr(bridge, method)(**arguments)
        except NotImplementedHere as exc:
            return JSONResponse({"error": f"not implemented: {exc}"}, status_code=501)
        except TypeError as exc:  # an argument the method does not take
            return JSONResponse({"error": f"TypeError: {exc}"}, status_code=400)
        except Exception as exc:  # donto's refusal, named, as the kit reports it
            return JSONResponse({"error": f"{type(exc).__name__}: {exc}"}, status_code=500)
        if result is None and method in ("teardown", "clear_all_data", "clear_session"):
            return Response(status_code=204)
        return JSONResponse(result)

    return app


@contextmanager
def served_bridge(bridge: DontoBridge, port: int) -> Iterator[str]:
    """The bridge under uvicorn on 127.0.0.1:port in a thread of this process; yields its URL."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(bridge_app(bridge), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the bridge did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
