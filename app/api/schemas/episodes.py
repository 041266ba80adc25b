"""Episodes: a session's turns in."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from app.api.schemas.common import Instant, Key, Strict


class SessionIn(Strict):
    external_id: Key
    started_at: Instant | None = None


class TurnIn(Strict):
    external_id: Key
    speaker: Key
    text: Annotated[str, StringConstraints(min_length=1, max_length=100_000)]
    occurred_at: Instant | None = None


class EpisodeIn(Strict):
    session: SessionIn
    turns: list[TurnIn] = Field(min_length=1, max_length=2000)
    extract: bool | None = Field(
        default=None,
        description="queue an extraction job over the session (needs an LLM); "
        "default: the workspace's extract_sessions setting",
    )


class TurnOutcomeOut(BaseModel):
    id: str
    external_id: str
    created: bool


class EpisodeOut(BaseModel):
    recorded_at: str
    session_id: str
    turns: list[TurnOutcomeOut]
    extraction_job_id: str | None = Field(default=None, description="with extract: the queued job")
