"""Keyset cursors of the listings that page (claims, subjects, memory events, sessions, a session's
turns): opaque to clients, checked when they come back. A cursor is base64url JSON naming its
listing and the sort key of the last row handed out, so a value this API never handed out (or one of
another listing) is a 422 naming the query parameter, never a silent first page."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from donto.errors import InvalidInput

CLAIMS = "claims"
SUBJECTS = "subjects"
EVENTS = "events"
SESSIONS = "sessions"
TURNS = "turns"
LEGACY_CLAIM_PREFIX = "after:"  # the claim listing's cursors before they named their listing


def encode(listing: str, *key: str) -> str:
    text = json.dumps([listing, *key], ensure_ascii=False, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode(listing: str, cursor: str, parts: int, field: str) -> list[str]:
    """The `parts` strings of the sort key `cursor` carries; 422 naming `field` when this API
    could not have handed it out for `listing`."""
    text = _base64_text(cursor)
    try:
        value = json.loads(text) if text is not None else None
    except ValueError:
        value = None
    if (
        not isinstance(value, list)
        or len(value) != parts + 1
        or value[0] != listing
        or not all(isinstance(part, str) for part in value[1:])
    ):
        raise InvalidInput(f"{field} is not one this API handed out", field=field)
    return value[1:]


def encode_claim(last_id: str) -> str:
    """After the claim of this id (the as-of listing is in id order)."""
    return encode(CLAIMS, last_id)


def decode_claim(cursor: str, field: str = "cursor") -> str:
    try:
        [last_id] = decode(CLAIMS, cursor, 1, field)
    except InvalidInput:
        # A page begun before the upgrade goes on: base64url of "after:<id>".
        legacy = _base64_text(cursor)
        if legacy is None or not legacy.startswith(LEGACY_CLAIM_PREFIX):
            raise
        return legacy.removeprefix(LEGACY_CLAIM_PREFIX)
    return last_id


def encode_subject(name: str) -> str:
    """After the subject of this name (the listing is in name order, and a name is one subject's)."""
    return encode(SUBJECTS, name)


def decode_subject(cursor: str, field: str = "cursor") -> str:
    [name] = decode(SUBJECTS, cursor, 1, field)
    return name


def encode_event(at: datetime, event_id: str) -> str:
    """Before this event: the log is newest first by time, then id (one write's events share a time)."""
    return encode(EVENTS, at.isoformat(), event_id)


def decode_event(cursor: str, field: str = "before") -> tuple[datetime, str]:
    at, event_id = decode(EVENTS, cursor, 2, field)
    try:
        instant = datetime.fromisoformat(at)
    except ValueError:
        instant = None
    if instant is None or instant.tzinfo is None:
        raise InvalidInput(f"{field} is not one this API handed out", field=field)
    return instant, event_id


def encode_session(session_id: str) -> str:
    """After (or before) the session of this id (the listing is in id order: the order they began in)."""
    return encode(SESSIONS, session_id)


def decode_session(cursor: str, field: str = "cursor") -> str:
    [session_id] = decode(SESSIONS, cursor, 1, field)
    return session_id


def encode_turn(session_external_id: str, seq: int) -> str:
    """Past this turn of this session, either way (a session's turns are in `seq` order)."""
    return encode(TURNS, session_external_id, str(seq))


def decode_turn(cursor: str, session_external_id: str, field: str) -> int:
    """The seq a turn cursor stands for. A bare number is a turn's `seq` as a read gave it (what an agent
    keeps to ask for what came after); a cursor of another session's turns is refused like any other."""
    if cursor.isascii() and cursor.isdigit() and len(cursor) <= 18:
        return int(cursor)
    session, seq = decode(TURNS, cursor, 2, field)
    if session != session_external_id or not seq.isdigit():
        raise InvalidInput(f"{field} is not one this API handed out for session {session_external_id!r}", field=field)
    return int(seq)


def _base64_text(cursor: str) -> str | None:
    try:
        return base64.b64decode(cursor + "=" * (-len(cursor) % 4), altchars=b"-_", validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
