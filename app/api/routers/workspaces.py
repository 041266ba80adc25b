"""The caller's workspace and its settings."""

from __future__ import annotations

from fastapi import APIRouter

from donto.api.deps import MemoryDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY
from donto.api.schemas.workspaces import WorkspaceSettingsIn, WorkspaceSettingsOut
from donto.temporal.instants import iso
from donto.workspaces.service import WorkspaceSettings

router = APIRouter(prefix="/v1/workspace", tags=["workspace"], responses=KEYED)


def _out(workspace: str, settings: WorkspaceSettings) -> WorkspaceSettingsOut:
    return WorkspaceSettingsOut(
        workspace=workspace, extract_sessions=settings.extract_sessions, updated_at=iso(settings.updated_at)
    )


@router.get("", response_model=WorkspaceSettingsOut)
def get_settings(memory: MemoryDep, workspace: WorkspaceDep) -> WorkspaceSettingsOut:
    return _out(workspace, memory.workspaces.settings(workspace))


@router.put("", response_model=WorkspaceSettingsOut, responses=WITH_BODY)
def put_settings(body: WorkspaceSettingsIn, memory: MemoryDep, workspace: WorkspaceDep) -> WorkspaceSettingsOut:
    """`extract_sessions: true`: every episode posted to this workspace queues an extraction job
    over its session (a post can still say `"extract": false`)."""
    return _out(workspace, memory.workspaces.update(workspace, body.extract_sessions))
