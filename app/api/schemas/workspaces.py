"""Workspace settings."""

from __future__ import annotations

from pydantic import BaseModel, Field

from donto.api.schemas.common import Strict


class WorkspaceSettingsIn(Strict):
    extract_sessions: bool = Field(description="queue an extraction job whenever an episode is posted")


class WorkspaceSettingsOut(BaseModel):
    workspace: str
    extract_sessions: bool
    updated_at: str | None = Field(description="null while the workspace runs on the defaults")
