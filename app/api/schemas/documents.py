"""Registered source documents."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, StringConstraints

from app.api.schemas.common import Key, Strict


class DocumentIn(Strict):
    text: Annotated[str, StringConstraints(min_length=1)]
    title: Annotated[str, StringConstraints(max_length=1000)] | None = None
    source: Annotated[str, StringConstraints(max_length=2000)] | None = None
    external_id: Key | None = None


class DocumentOut(BaseModel):
    id: str
    revision: int
    sha256: str
