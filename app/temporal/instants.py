"""Instants on donto's two time axes: parsing ISO-8601 input and converting driver values."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any, overload


def parse_instant(value: str) -> datetime:
    """ISO-8601 date or date-time -> aware UTC datetime. A date means midnight UTC; a date-time
    without an offset is taken as UTC. Raises ValueError with a readable message."""
    if not isinstance(value, str):
        raise ValueError("must be an ISO-8601 date or date-time string")
    text = value.strip()
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO-8601 date or date-time") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:  # "0001-01-01T00:00:00+05:00" is in year 0 in UTC
        raise ValueError(f"{value!r} is outside years 1-9999 in UTC") from None


def to_native(value: Any) -> Any:
    """neo4j.time values -> datetime/date; anything else unchanged. Date-times come back with a
    fixed UTC offset: the driver sends a named zone ("UTC") as a different kind of value, and
    Neo4j never finds a zoned and an offset date-time equal."""
    value = value.to_native() if hasattr(value, "to_native") else value
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC)
    return value


@overload
def read_instant(value: str) -> datetime: ...
@overload
def read_instant(value: None) -> None: ...
def read_instant(value: str | None) -> datetime | None:
    """A date-time a read returned as Cypher's toString() text ("2023-05-08T13:56:00Z", or with a
    named zone "...Z[UTC]") -> aware UTC datetime. Recall's reads return their date-times as text:
    the driver builds its own DateTime for each in pure Python, 0.14 ms apiece, where parsing the
    text takes 2 µs (30 turns: 6.3 against 2.1 ms a read)."""
    if value is None:
        return None
    return datetime.fromisoformat(value.partition("[")[0]).astimezone(UTC)


@overload
def iso(value: datetime | date) -> str: ...
@overload
def iso(value: Any) -> str | None: ...
def iso(value: Any) -> str | None:
    """An instant (or date) as ISO-8601 in UTC with a 'Z'; None stays None."""
    value = to_native(value)
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return value.isoformat()


def utc_now() -> datetime:
    return datetime.now(UTC)
