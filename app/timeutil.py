"""Instants on donto's two time axes: parsing ISO-8601 input and converting driver values."""

from __future__ import annotations

import os
import time
from datetime import date, datetime, timezone
from typing import Any


def parse_instant(value: str) -> datetime:
    """ISO-8601 date or date-time -> aware UTC datetime. A date means midnight UTC; a date-time
    without an offset is taken as UTC. Raises ValueError with a readable message."""
    if not isinstance(value, str):
        raise ValueError("must be an ISO-8601 date or date-time string")
    text = value.strip()
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO-8601 date or date-time") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.astimezone(timezone.utc)


def to_native(value: Any) -> Any:
    """neo4j.time values -> datetime/date; anything else unchanged. Date-times come back with a
    fixed UTC offset: the driver sends a named zone ("UTC") as a different kind of value, and
    Neo4j never finds a zoned and an offset date-time equal."""
    value = value.to_native() if hasattr(value, "to_native") else value
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(timezone.utc)
    return value


def iso(value: Any) -> str | None:
    value = to_native(value)
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    return value.isoformat()


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def uuid7() -> str:
    """A time-ordered UUID (RFC 9562 v7): ids sort roughly by creation, which keeps keyset
    pagination in write order."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | (rand >> 68 & 0xFFF) << 64 | 0b10 << 62 | (rand & ((1 << 62) - 1))
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
