"""The time scope of a read: which valid time, as known at which transaction time.

Made once at the boundary (an HTTP parameter or body, a CLI option, an MCP argument), where an
absent instant means "now"; services take a TimeScope and never default a time themselves, so
every read of one request sees the same instant on both axes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from donto.temporal.instants import utc_now


@dataclass(frozen=True)
class TimeScope:
    valid_at: datetime  # what was true in the world at this instant ...
    known_at: datetime  # ... according to what donto had recorded by this one

    @classmethod
    def resolve(cls, valid_at: datetime | None = None, known_at: datetime | None = None) -> TimeScope:
        """The scope a caller asked for; each instant left out is now (one clock reading for both)."""
        now = utc_now()
        return cls(valid_at=valid_at or now, known_at=known_at or now)

    @classmethod
    def now(cls) -> TimeScope:
        return cls.resolve()

    def params(self) -> dict[str, datetime]:
        """The `$valid_at` / `$known_at` parameters of a named query."""
        return {"valid_at": self.valid_at, "known_at": self.known_at}
