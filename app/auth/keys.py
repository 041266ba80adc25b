"""API keys. The admin key comes from DONTO_API_KEY; other keys are bound to one workspace and
stored as sha256 (they are 32 random bytes, so a fast hash is enough)."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from app.errors import Forbidden, InvalidInput, Unauthorized
from app.graph.client import GraphClient
from app.ids import uuid7
from app.temporal.instants import utc_now

DEFAULT_WORKSPACE = "default"
WORKSPACE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
KEY_PREFIX = "donto_"


@dataclass(frozen=True)
class Principal:
    workspace: str
    admin: bool


def check_workspace(name: str, field: str = "workspace") -> str:
    if not WORKSPACE_PATTERN.match(name):
        raise InvalidInput(
            "a workspace name is 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit", field=field
        )
    return name


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyService:
    def __init__(self, graph: GraphClient, admin_key: str | None):
        self.graph = graph
        self.admin_key = admin_key

    def create(self, workspace: str) -> str:
        check_workspace(workspace)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        self.graph.write_query(
            "api_key_create", key_hash=_hash(key), workspace=workspace, id=uuid7(), created_at=utc_now()
        )
        return key

    def authenticate(self, key: str | None, requested_workspace: str | None) -> Principal:
        """The workspace a request acts in. Admin keys pick it (default 'default'); bound keys may
        only act in their own."""
        if not key:
            raise Unauthorized("send 'Authorization: Bearer <key>'", field="Authorization")
        if requested_workspace is not None:
            check_workspace(requested_workspace, field="X-Donto-Workspace")
        if self.admin_key and hmac.compare_digest(key.encode(), self.admin_key.encode()):
            return Principal(requested_workspace or DEFAULT_WORKSPACE, admin=True)
        rows = self.graph.read_query("api_key_lookup", key_hash=_hash(key))
        if not rows:
            raise Unauthorized("unknown API key", field="Authorization")
        bound = rows[0]["workspace"]
        if requested_workspace is not None and requested_workspace != bound:
            raise Forbidden(f"this key is bound to workspace {bound!r}", field="X-Donto-Workspace")
        return Principal(bound, admin=False)
