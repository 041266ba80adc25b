"""Workspace settings: what a workspace asks donto to do by default. For now one switch: extract
claims from every new or extended episode session (needs an LLM endpoint)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from donto.graph.client import GraphClient
from donto.temporal.instants import to_native, utc_now


@dataclass(frozen=True)
class WorkspaceSettings:
    extract_sessions: bool = False
    updated_at: datetime | None = None  # None: never set, the defaults


class WorkspaceService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def settings(self, workspace: str) -> WorkspaceSettings:
        rows = self.graph.read_query("workspace_get", workspace=workspace)
        if not rows:
            return WorkspaceSettings()
        return WorkspaceSettings(bool(rows[0]["extractSessions"]), to_native(rows[0]["updatedAt"]))

    def update(self, workspace: str, extract_sessions: bool) -> WorkspaceSettings:
        row = self.graph.write_query(
            "workspace_put", workspace=workspace, extract_sessions=extract_sessions, now=utc_now()
        )[0]
        return WorkspaceSettings(bool(row["extractSessions"]), to_native(row["updatedAt"]))
