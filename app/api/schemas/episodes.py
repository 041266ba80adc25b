"""Episodes: a session's turns in."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, Field, StringConstraints, field_validator

from donto import metadata as turn_metadata
from donto.api.schemas.common import Instant, Key, Strict
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.episodes.service import EpisodeResult, NewTurn


class SessionIn(Strict):
    external_id: Key
    started_at: Instant | None = None


# Every passage of an episode is embedded while the request waits (about 150 characters a
# passage): these keep that to seconds. Longer text goes to POST /v1/documents or /v1/memorize.
MAX_TURN_CHARS = 20_000
MAX_EPISODE_CHARS = 40_000


class TurnIn(Strict):
    external_id: Key
    speaker: Key
    text: Annotated[str, StringConstraints(max_length=MAX_TURN_CHARS)] = Field(
        description="what was said; may be empty (a message with no words, e.g. one that only calls a tool): "
        "an empty or blank turn is kept and read back, but has no passages and recall never finds it"
    )
    occurred_at: Instant | None = None
    metadata: dict[str, Any] | None = Field(
        default=None,
        description=f"a JSON object kept with the turn and handed back on every read of it (role, tool call ids, "
        f"...); at most {turn_metadata.MAX_METADATA_BYTES:,} bytes as JSON and {turn_metadata.MAX_METADATA_DEPTH} "
        "levels deep; never searched",
    )

    @field_validator("metadata")
    @classmethod
    def _bounded(cls, metadata: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if metadata is None else turn_metadata.check(metadata)


class EpisodeIn(Strict):
    session: SessionIn
    turns: list[TurnIn] = Field(
        min_length=1, max_length=2000, description=f"at most {MAX_EPISODE_CHARS:,} characters of text in all"
    )
    extract: bool | None = Field(
        default=None,
        description="queue an extraction job over the session (needs an LLM); "
        "default: the workspace's extract_sessions setting",
    )

    @field_validator("turns")
    @classmethod
    def _not_too_long(cls, turns: list[TurnIn]) -> list[TurnIn]:
        if sum(len(t.text) for t in turns) > MAX_EPISODE_CHARS:
            raise ValueError(
                f"over {MAX_EPISODE_CHARS:,} characters of text in one request: send the turns in several "
                "requests, or long text to /v1/documents or /v1/memorize"
            )
        return turns

    def new_turns(self) -> list[NewTurn]:
        from donto.episodes.service import NewTurn  # here, not at the top: only the server converts

        return [NewTurn(t.external_id, t.speaker, t.text, t.occurred_at, t.metadata) for t in self.turns]


class TurnOutcomeOut(BaseModel):
    id: str
    external_id: str
    created: bool


class EpisodeOut(BaseModel):
    recorded_at: str
    session_id: str
    turns: list[TurnOutcomeOut]
    extraction_job_id: str | None = Field(default=None, description="with extract: the queued job")

    @classmethod
    def of(cls, result: EpisodeResult, job_id: str | None) -> EpisodeOut:
        return cls(
            extraction_job_id=job_id,
            recorded_at=iso(result.recorded_at),
            session_id=result.session_id,
            turns=[TurnOutcomeOut(id=t.id, external_id=t.external_id, created=t.created) for t in result.turns],
        )
