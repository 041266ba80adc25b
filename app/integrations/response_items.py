"""Responses-API items (what the OpenAI Agents SDK keeps as a session's history: messages, tool
calls and their outputs, reasoning, ...) as donto turns, and back. Pure: no SDK, no client, no I/O,
so the mapping is unit-tested without either.

One item is one turn: `speaker` its role (a message) or its type (anything else), `text` what it
says in words (a message's text, a call as "name(arguments)", an output's text; "" where it says
nothing), so that recall finds it like any conversation; and the item itself, exactly, in the
turn's metadata under ITEM_KEY, which is what reads hand back.

An item too big for one turn's metadata (donto bounds it: MAX_METADATA_BYTES as JSON,
MAX_METADATA_DEPTH levels; a long tool output, an image's base64) is split, not refused: its
compact JSON is cut into parts, each a turn of its own under PART_KEY naming the item, its place
and how many there are, the first part carrying the item's text. Reads join the parts back; an
item whose parts are not all live (a write or a pop cut short) is left out of every read rather
than handed back broken. Beyond MAX_ITEM_BYTES an item is refused (ItemTooLarge), before anything
is written: a turn store is no blob store.

A turn not written by this mapping (the same session fed by MCP, REST or another framework) reads
back as a message: its speaker is its role when it is one the Responses API knows, else the turn is
a user message "speaker: text"; one that says nothing is left out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from donto.api.schemas.episodes import MAX_TURN_CHARS
from donto.metadata import MAX_METADATA_BYTES, MAX_METADATA_DEPTH, depth, serialise

ITEM_KEY = "openai_agents_item"  # metadata {ITEM_KEY: item}: the whole item
PART_KEY = "openai_agents_item_part"  # metadata {PART_KEY: {item, index, of, json}}: one part of one
MAX_ITEM_BYTES = 4 * 1024 * 1024  # an item's compact JSON, UTF-8; beyond this add_items refuses it
ROLES = frozenset({"user", "assistant", "system", "developer"})  # a message's roles in the Responses API


class ItemTooLarge(ValueError):
    """An item over MAX_ITEM_BYTES as JSON: refused before anything of the batch was written."""


class StoredTurn(Protocol):
    """What a read of a session's turns hands back about each (donto's TurnOut has these)."""

    @property
    def id(self) -> str: ...
    @property
    def speaker(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def metadata(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class ReadItem:
    """An item read back, with the ids of the live turns that hold it (one, or its parts in order)."""

    item: dict[str, Any]
    turn_ids: tuple[str, ...]


# -- an item's words ----------------------------------------------------------------------------


def speaker_of(item: dict[str, Any]) -> str:
    """A message's role; for anything else its type ("function_call", "reasoning", ...)."""
    for key in ("role", "type"):
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value[:512]  # a donto key is at most 512 characters
    return "item"


def text_of(item: dict[str, Any]) -> str:
    """What the item says in words, for a reader and for recall; "" where it says nothing."""
    if "role" in item:
        return content_text(item.get("content"))
    name, arguments = item.get("name"), item.get("arguments", item.get("input"))
    if isinstance(name, str) and arguments is not None:
        return f"{name}({arguments if isinstance(arguments, str) else compact(arguments)})"
    if "output" in item:
        return content_text(item["output"])
    kind = item.get("type")
    if kind == "reasoning":
        return "\n".join(t for t in (content_text(item.get("summary")), content_text(item.get("content"))) if t)
    action: dict[str, Any] = item["action"] if isinstance(item.get("action"), dict) else {}
    if kind == "web_search_call" and isinstance(action.get("query"), str):
        return action["query"]
    if kind == "file_search_call":
        return "\n".join(q for q in item.get("queries") or [] if isinstance(q, str))
    if isinstance(action.get("command"), list):  # a shell call: its command line
        return " ".join(str(word) for word in action["command"])
    if isinstance(item.get("code"), str):  # a code interpreter call
        return item["code"]
    return ""


def content_text(content: Any) -> str:
    """A message's content (a string, or parts: input_text, output_text, refusal, summary_text, ...)
    as text: the parts' words joined by newlines; an image or a file says nothing."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    words = []
    for part in content:
        if isinstance(part, str):
            words.append(part)
        elif isinstance(part, dict):
            said = part.get("text", part.get("refusal"))
            if isinstance(said, str):
                words.append(said)
    return "\n".join(w for w in words if w)


def compact(value: Any) -> str:
    """Compact JSON, non-ASCII kept as is (what donto stores); a value JSON cannot say is a TypeError."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"a session item must be JSON (a Responses-API item as a dict): {exc}") from None


# -- items to turns -----------------------------------------------------------------------------


def turns_of(item: dict[str, Any], item_id: str, occurred_at: datetime | None = None) -> list[dict[str, Any]]:
    """The turns (TurnIn's fields) that keep one item: one, or its parts in order. `item_id` is the
    turn's external id (unique per item; a part's is `item_id.index`)."""
    if not isinstance(item, dict):
        raise TypeError(f"a session item is a dict (a Responses-API item), not a {type(item).__name__}")
    whole = {ITEM_KEY: item}
    stored = compact(whole)
    size = len(stored.encode("utf-8"))
    base = {"speaker": speaker_of(item), "occurred_at": occurred_at.isoformat() if occurred_at else None}
    text = text_of(item)[:MAX_TURN_CHARS]
    if size <= MAX_METADATA_BYTES and depth(whole) <= MAX_METADATA_DEPTH:
        return [{"external_id": item_id, **base, "text": text, "metadata": whole}]
    item_json = compact(item)
    if (item_bytes := len(item_json.encode("utf-8"))) > MAX_ITEM_BYTES:
        raise ItemTooLarge(
            f"a {speaker_of(item)} item of {item_bytes:,} bytes as JSON is over the {MAX_ITEM_BYTES:,} a donto "
            "session keeps for one item; nothing of this batch was written"
        )
    pieces = split(item_json, part_budget(item_id))
    return [
        {
            "external_id": f"{item_id}.{index}",
            **base,
            "text": text if index == 0 else "",
            "metadata": {PART_KEY: {"item": item_id, "index": index, "of": len(pieces), "json": piece}},
        }
        for index, piece in enumerate(pieces)
    ]


def part_budget(item_id: str) -> int:
    """How many bytes of the item's JSON (as escaped inside the part's JSON) one part may carry."""
    widest = {PART_KEY: {"item": item_id, "index": 10**6, "of": 10**6, "json": ""}}
    return MAX_METADATA_BYTES - len(serialise(widest).encode("utf-8"))


def split(text: str, budget: int) -> list[str]:
    """`text` cut into pieces each at most `budget` bytes once written as a JSON string's contents
    (quotes and backslashes doubled, UTF-8), in order: joined, they are `text`."""
    pieces, start = [], 0
    while start < len(text):
        size = min(budget, len(text) - start)
        while (cost := escaped_bytes(text[start : start + size])) > budget:
            size = max(1, size * budget // cost - 1)  # shrinks each time; one character always fits
        pieces.append(text[start : start + size])
        start += size
    return pieces


def escaped_bytes(piece: str) -> int:
    return len(json.dumps(piece, ensure_ascii=False).encode("utf-8")) - 2


# -- turns to items -----------------------------------------------------------------------------


@dataclass
class _Parts:
    of: int
    pieces: dict[int, str] = field(default_factory=dict)
    turn_ids: dict[int, str] = field(default_factory=dict)


def items_of(turns: Iterable[StoredTurn]) -> list[ReadItem]:
    """The items `turns` (a session's, in order) hold, in the order they were added: each whole one,
    each split one whose parts are all here (at its first part's place), each other turn that says
    something as a message."""
    slots: list[ReadItem | str] = []  # an item, or the id of a split item, in first-seen order
    parts: dict[str, _Parts] = {}
    for turn in turns:
        metadata = turn.metadata or {}
        if isinstance(whole := metadata.get(ITEM_KEY), dict):
            slots.append(ReadItem(whole, (turn.id,)))
        elif PART_KEY in metadata:
            if (part := _part(metadata[PART_KEY])) is None:
                continue  # not a part this mapping wrote: nothing to join
            item_id, index, of, piece = part
            group = parts.get(item_id)
            if group is None:
                group = parts[item_id] = _Parts(of)
                slots.append(item_id)
            group.pieces[index], group.turn_ids[index] = piece, turn.id
        elif turn.text.strip():
            slots.append(ReadItem(message_of(turn.speaker, turn.text), (turn.id,)))
    items = []
    for slot in slots:
        if isinstance(slot, ReadItem):
            items.append(slot)
        elif sorted((group := parts[slot]).pieces) == list(range(group.of)):
            try:
                item = json.loads("".join(group.pieces[i] for i in range(group.of)))
            except ValueError:
                continue
            items.append(ReadItem(item, tuple(group.turn_ids[i] for i in range(group.of))))
    return items


def _part(part: Any) -> tuple[str, int, int, str] | None:
    """A part's (item id, index, count, piece of JSON), or None for metadata of another shape."""
    if not isinstance(part, dict):
        return None
    item_id, index, of, piece = (part.get(k) for k in ("item", "index", "of", "json"))
    if isinstance(item_id, str) and isinstance(index, int) and isinstance(of, int) and isinstance(piece, str):
        return item_id, index, of, piece
    return None


def message_of(speaker: str, text: str) -> dict[str, Any]:
    """A turn someone else wrote, as a message the Responses API takes."""
    if speaker in ROLES:
        return {"role": speaker, "content": text}
    return {"role": "user", "content": f"{speaker}: {text}"}


def batches(turns: Sequence[dict[str, Any]], *, max_turns: int, max_chars: int, max_bytes: int) -> list[list[dict]]:
    """The turns in order, cut into requests within donto's bounds on one episode write: turns per
    request, characters of text per request, bytes of body (as the client sends it, ASCII-escaped)."""
    out: list[list[dict]] = []
    current: list[dict] = []
    chars = size = 0
    for turn in turns:
        turn_chars, turn_size = len(turn["text"]), len(json.dumps(turn)) + 1
        if current and (len(current) >= max_turns or chars + turn_chars > max_chars or size + turn_size > max_bytes):
            out.append(current)
            current, chars, size = [], 0, 0
        current.append(turn)
        chars, size = chars + turn_chars, size + turn_size
    if current:
        out.append(current)
    return out
