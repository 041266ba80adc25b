"""Google ADK's memory as donto turns, and back. Pure: no ADK, no client, no I/O (events and memory
entries come in as plain dicts), so the mapping is unit-tested without either.

Scope. ADK scopes memory by app and user; donto by workspace and, inside one, by session. Each ADK
session is the donto session `adk:` + app + `/` + user + `/` + session id (each escaped: `%` `/` `#`
as %25 %2F %23), so one app's and user's sessions are exactly those whose external id starts with
session_prefix(app, user), and no other app's or user's can (the escaping makes the name
injective). Memories written directly (add_memory) go to that prefix + `%memories`, which no
escaped session id can be. A session id too long for donto's 512 characters is named by its
SHA-256 (`%h…`); an app and user too long to name at all are refused.

Events. One event is one turn, keyed by the event's id (donto writes a turn external id once per
session, so the whole session sent again after every turn keeps each event once): `speaker` its
author, `occurred_at` its timestamp, `text` the words of its text parts (thoughts left out) joined by
newlines. An event with no words (a function call or response, an image, only thoughts, a state
change) is not kept: recall could never find it, and ADK's memory tools read only text. The turn's
metadata (EVENT_KEY) holds what ADK's MemoryEntry needs beyond those fields: the content's role, the
exact timestamp, the invocation and each text part's length, so the parts come back as they were."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from donto.api.schemas.episodes import MAX_TURN_CHARS
from donto.integrations.store_mapping import escape
from donto.metadata import check

PREFIX = "adk:"
MAX_EXTERNAL_ID = 512  # donto's Key (app/api/schemas/common.py)
HASHED = "%h"  # a session id named by its SHA-256; '%h' is never an escape's start
MEMORIES = "%memories"  # the session of add_memory's entries, beside the user's ADK sessions
EVENT_KEY = "adk_event"  # turn metadata {EVENT_KEY: {...}}: what an event's MemoryEntry needs
MEMORY_KEY = "adk_memory"  # turn metadata {MEMORY_KEY: {...}}: a MemoryEntry given to add_memory
SEPARATOR = "\n"  # between an event's text parts in the turn's text


def session_prefix(app_name: str, user_id: str) -> str:
    """The start every donto session of this app's and user's memory shares."""
    for name, value in (("app_name", app_name), ("user_id", user_id)):
        if not isinstance(value, str) or not value:
            raise ValueError(f"{name} is a non-empty string, not {value!r}")
    prefix = f"{PREFIX}{escape(app_name)}/{escape(user_id)}/"
    if len(prefix) + len(HASHED) + 64 > MAX_EXTERNAL_ID:
        raise ValueError("app_name and user_id are too long to name a donto session (external ids: 512 characters)")
    return prefix


def session_external_id(app_name: str, user_id: str, session_id: str) -> str:
    """The donto session an ADK session's events are kept in."""
    prefix = session_prefix(app_name, user_id)
    if not isinstance(session_id, str) or not session_id:
        raise ValueError(f"session_id is a non-empty string, not {session_id!r}")
    named = prefix + escape(session_id)
    if len(named) <= MAX_EXTERNAL_ID:
        return named
    return prefix + HASHED + hashlib.sha256(session_id.encode("utf-8")).hexdigest()


def memories_external_id(app_name: str, user_id: str) -> str:
    """The donto session add_memory's entries are kept in."""
    return session_prefix(app_name, user_id) + MEMORIES


# -- events to turns ----------------------------------------------------------------------------


def words(content: Mapping[str, Any] | None) -> list[str]:
    """The text of a content's parts that say something (a thought is the model's, not said)."""
    parts = (content or {}).get("parts") or []
    return [p["text"] for p in parts if isinstance(p.get("text"), str) and p["text"] and not p.get("thought")]


def occurred_at(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat()


def turn_of_event(event: Mapping[str, Any]) -> dict[str, Any] | None:
    """The turn (TurnIn's fields) that keeps an event (its id, author, timestamp, invocation_id,
    partial and content as a dict), or None for one with nothing to say. A text over donto's
    MAX_TURN_CHARS is cut there: a turn is something said, long text belongs in a document."""
    if event.get("partial") or not event.get("id"):
        return None  # a streamed fragment: its whole event follows
    texts = words(event.get("content"))
    if not texts:
        return None
    text = SEPARATOR.join(texts)[:MAX_TURN_CHARS]
    kept: dict[str, Any] = {
        "role": (event.get("content") or {}).get("role"),
        "timestamp": event["timestamp"],
        "invocation_id": event.get("invocation_id") or None,
        "parts": part_lengths(texts, len(text)),
        "sha256": sha256(text),
    }
    return {
        "external_id": str(event["id"])[:MAX_EXTERNAL_ID],
        "speaker": speaker(event.get("author")),
        "text": text,
        "occurred_at": occurred_at(event["timestamp"]),
        "metadata": {EVENT_KEY: kept},
    }


def part_lengths(texts: list[str], kept: int) -> list[int]:
    """Each text part's length as far as the kept text reaches (a cut text loses its last parts)."""
    lengths, used = [], 0
    for text in texts:
        if used > kept:
            break
        lengths.append(min(len(text), kept - used))
        used += len(text) + len(SEPARATOR)
    return lengths


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def speaker(author: Any) -> str:
    """A donto speaker (a key: 1 to 512 characters, not blank) for an ADK author."""
    return author[:512] if isinstance(author, str) and author.strip() else "user"


def turn_of_memory(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The turn that keeps a MemoryEntry given to add_memory (its content, author, timestamp, id and
    custom_metadata as a dict), or None for one with no words. Keyed by its id, else by a hash of what
    it says, so the same entry added twice is kept once. ValueError when its custom_metadata is not
    JSON or passes donto's bounds on a turn's metadata."""
    texts = words(entry.get("content"))
    if not texts:
        return None
    text = SEPARATOR.join(texts)[:MAX_TURN_CHARS]
    kept = {
        "role": (entry.get("content") or {}).get("role"),
        "timestamp": entry.get("timestamp"),
        "parts": part_lengths(texts, len(text)),
        "sha256": sha256(text),
        "custom_metadata": entry.get("custom_metadata") or {},
    }
    try:
        metadata = check({MEMORY_KEY: kept})
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a memory's custom_metadata cannot be kept as a donto turn's metadata: {exc}") from None
    said = json.dumps([entry.get("author"), entry.get("timestamp"), text], ensure_ascii=False)
    external_id = entry.get("id") or "memory-" + hashlib.sha256(said.encode("utf-8")).hexdigest()
    return {
        "external_id": str(external_id)[:MAX_EXTERNAL_ID],
        "speaker": speaker(entry.get("author")),
        "text": text,
        "occurred_at": instant(entry.get("timestamp")),
        "metadata": metadata,
    }


def instant(timestamp: Any) -> str | None:
    """An ISO 8601 timestamp as donto's occurred_at (UTC where it names no offset); None for any
    other text, which stays in the metadata only (ADK's timestamp is free text an LLM reads)."""
    if not isinstance(timestamp, str):
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


# -- recall items to memory entries -------------------------------------------------------------


def entry_of_item(item: Mapping[str, Any]) -> dict[str, Any] | None:
    """The MemoryEntry fields (content as a dict) for one recall item (RecallItemOut as a dict, with
    provenance): a turn this mapping wrote comes back as its event or entry was; another writer's turn
    in the same sessions as its speaker's words; a claim as donto states it (extraction's, evidenced by
    these sessions' turns). None for what is not of those sessions (a document's passage)."""
    provenance = item.get("provenance") or {}
    metadata = item.get("metadata") or {}
    relevance = item.get("relevance")
    if provenance.get("turn_ids"):
        kept = metadata.get(EVENT_KEY) or metadata.get(MEMORY_KEY)
        text = item["text"]
        if isinstance(kept, dict) and (own := own_text(text, kept)) is not None:
            content = {"role": kept.get("role"), "parts": [{"text": t} for t in split_parts(own, kept["parts"])]}
            timestamp = kept.get("timestamp")
            if isinstance(timestamp, int | float):
                timestamp = occurred_at(timestamp)
            custom = dict(kept.get("custom_metadata") or {}) if MEMORY_KEY in metadata else {}
        else:
            content = {"role": "user" if item["subject"] == "user" else "model", "parts": [{"text": text}]}
            timestamp, custom = None, {}
        custom["donto"] = {"session": provenance.get("session_id"), "relevance": relevance}
        return {
            "id": provenance["turn_ids"][0],
            "author": item["subject"],
            "timestamp": timestamp,
            "content": content,
            "custom_metadata": custom,
        }
    if provenance.get("claim_ids"):
        return {
            "id": provenance["claim_ids"][0],
            "author": None,
            "timestamp": None,
            "content": {"role": "model", "parts": [{"text": item["text"]}]},
            "custom_metadata": {"donto": {"claim": provenance["claim_ids"][0], "relevance": relevance}},
        }
    return None


def own_text(text: str, kept: Mapping[str, Any]) -> str | None:
    """The turn's own words inside its recall item's text, which donto dates in front ("[8 May 2023] …")
    and may note after (what later replaced it): the stretch of the kept length and hash that starts
    at the text's start or after a "] "; None where none does."""
    lengths, digest = kept.get("parts"), kept.get("sha256")
    if not isinstance(lengths, list) or not all(isinstance(n, int) for n in lengths) or not isinstance(digest, str):
        return None
    size = sum(lengths) + len(SEPARATOR) * (len(lengths) - 1)
    starts = [0] + [i + 2 for i in range(len(text)) if text.startswith("] ", i)]
    for start in starts:
        own = text[start : start + size]
        if hashlib.sha256(own.encode("utf-8")).hexdigest() == digest:
            return own
    return None


def split_parts(text: str, lengths: list[int]) -> list[str]:
    parts, start = [], 0
    for length in lengths:
        parts.append(text[start : start + length])
        start += length + len(SEPARATOR)
    return parts
