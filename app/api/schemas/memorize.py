"""Memorize: text (or a stored document or session) in, an extraction job out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from app.api.schemas.common import Id, Instant, Strict
from extraction.engine import MAX_PASSES


class MemorizeIn(Strict):
    text: Annotated[str, StringConstraints(min_length=1, max_length=1_000_000, pattern=r"\S")] | None = None
    document_id: Id | None = Field(default=None, description="a registered document revision to read")
    session_id: Id | None = Field(default=None, description="an episode session (its id, as POST /v1/episodes gave)")
    title: Annotated[str, StringConstraints(max_length=1000)] | None = Field(
        default=None, description="the title of the document `text` is kept as"
    )
    occurred_at: Instant | None = Field(
        default=None,
        description="with `text`: when it was written or said. It dates the document's passages, and the "
        "model is told it, so that the facts it finds are dated against it; default: now",
    )
    mode: Literal["single", "exhaustive", "deep"] = "single"
    passes: int = Field(default=3, ge=1, le=MAX_PASSES, description="deep mode's most passes per chunk")
    lenses: list[Annotated[str, StringConstraints(min_length=1, max_length=200)]] = Field(
        default_factory=list, max_length=10, description="focused passes after the mode's own ('kinship', ...)"
    )
    run_async: bool = Field(default=True, alias="async", description="false: run now and answer with the result")


class MemorizeOut(BaseModel):
    source_kind: Literal["document", "session"]
    source_id: str = Field(description="the document revision or session the text is kept as")
    extraction: Literal["queued", "running", "succeeded", "failed", "cancelled", "not_configured"]
    job_id: str | None = None
    queue_position: int | None = Field(default=None, description="1 = next")
    eta_s: float | None = Field(default=None, description="a guess from this workspace's recent jobs")
    summary: dict[str, int | float | bool | list[str]] | None = None
