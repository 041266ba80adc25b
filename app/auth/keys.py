"""API keys. The admin key comes from DONTO_API_KEY; other keys are bound to one workspace and
stored as sha256 (they are 32 random bytes, so a fast hash is enough), with their first characters
as a fingerprint. Every authentication reads the graph, so a revocation holds from the next request.

Authentication also enforces the request limits (app/auth/limits.py) and counts each key's use
(app/auth/usage.py); the admin key is limited and counted as the key "admin".

A valid key is accepted whatever else its client address sent. Behind a proxy or a NAT many clients
share one address, and a key is 256 random bits, so the failure window defends against no guess:
it bounds what failing requests cost (a client looping on a revoked key, a scanner). Past an
address's limit its failing requests are refused (429) and answered only after a delay, and one
that cannot be a valid key (none, not a key's shape, a key that failed before) is refused without
reading the graph."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from dataclasses import dataclass, replace
from datetime import datetime

from donto.auth.limits import FailureWindows, RecentlySeen, TokenBuckets, whole_seconds
from donto.auth.usage import UsageLog
from donto.errors import Conflict, Forbidden, InvalidInput, NotFound, RateLimited, Unauthorized
from donto.graph.client import GraphClient
from donto.ids import uuid7
from donto.settings import ApiSettings
from donto.temporal.instants import iso, to_native, utc_now

log = logging.getLogger(__name__)

DEFAULT_WORKSPACE = "default"
WORKSPACE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
KEY_PREFIX = "donto_"
KEY_SHAPE = re.compile(r"^donto_[A-Za-z0-9_-]{43}$")  # what _new_key makes: the prefix and 32 bytes, base64url
FINGERPRINT_CHARS = len(KEY_PREFIX) + 4  # 24 of the key's 256 random bits: tells keys apart, guesses nothing
ADMIN_KEY_ID = "admin"


@dataclass(frozen=True)
class Principal:
    workspace: str
    admin: bool
    key_id: str = ADMIN_KEY_ID


@dataclass(frozen=True)
class IssuedKey:
    """A new key: `key` is shown once and never stored."""

    id: str
    workspace: str
    key: str


@dataclass(frozen=True)
class KeyInfo:
    """A key as `donto keys list` shows it. The admin key has no workspace and no dates of its own."""

    id: str
    workspace: str | None
    fingerprint: str
    created_at: datetime | None
    last_used_at: datetime | None
    revoked_at: datetime | None
    replaced_by: str | None = None
    replaces: str | None = None
    requests: int = 0
    rejected: int = 0


def check_workspace(name: str, field: str = "workspace") -> str:
    if not WORKSPACE_PATTERN.fullmatch(name):  # match() let a trailing newline through `$`
        raise InvalidInput(
            "a workspace name is 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit", field=field
        )
    return name


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeyService:
    def __init__(self, graph: GraphClient, admin_key: str | None, api: ApiSettings):
        self.graph = graph
        self.admin_key = admin_key
        self.buckets = TokenBuckets(api.rate_limit_per_s, api.rate_limit_burst)
        self.failures = FailureWindows(api.auth_failure_limit, api.auth_failure_window_s)
        self.failure_delay_s = api.auth_failure_delay_s
        self.failed_hashes = RecentlySeen()  # keys that failed: refused without a read past an address's limit
        self.usage = UsageLog(graph, api.key_usage_flush_s)

    # -- lifecycle ----------------------------------------------------------------------------

    def create(self, workspace: str) -> IssuedKey:
        check_workspace(workspace)
        key, key_id = _new_key(), uuid7()
        self.graph.write_query(
            "api_key_create",
            key_hash=_hash(key),
            prefix=key[:FINGERPRINT_CHARS],
            workspace=workspace,
            id=key_id,
            created_at=utc_now(),
        )
        return IssuedKey(key_id, workspace, key)

    def revoke(self, key_id: str) -> tuple[str, datetime]:
        """Revoke a key (its workspace and the instant): the next request with it is a 401.
        Conflict when it was revoked already."""
        rows = self.graph.write_query("api_key_revoke", id=self._bound_id(key_id), now=utc_now())
        if not rows:
            raise NotFound(f"no API key {key_id!r}", field="key_id")
        if not rows[0]["revokedNow"]:
            raise Conflict(f"API key {key_id!r} was revoked at {iso(rows[0]['revokedAt'])}", field="key_id")
        return rows[0]["workspace"], to_native(rows[0]["revokedAt"])

    def rotate(self, key_id: str) -> IssuedKey:
        """A new key for the same workspace; the old one is revoked in the same transaction."""
        key, new_id = _new_key(), uuid7()
        rows = self.graph.write_query(
            "api_key_rotate",
            id=self._bound_id(key_id),
            new_id=new_id,
            key_hash=_hash(key),
            prefix=key[:FINGERPRINT_CHARS],
            now=utc_now(),
        )
        if not rows:
            raise NotFound(f"no API key {key_id!r}", field="key_id")
        if not rows[0]["rotated"]:
            raise Conflict(f"API key {key_id!r} was revoked at {iso(rows[0]['revokedAt'])}", field="key_id")
        return IssuedKey(new_id, rows[0]["workspace"], key)

    def list(self, workspace: str | None = None) -> list[KeyInfo]:
        """Every key (of one workspace), oldest first, with its counted use as last flushed; the
        admin key comes first once it has been used (in that workspace)."""
        if workspace is not None:
            check_workspace(workspace)
        rows = self.graph.read_query("api_key_list", workspace=workspace)
        ids = [ADMIN_KEY_ID] + [r["id"] for r in rows]
        totals = {t["keyId"]: t for t in self.graph.read_query("key_usage_totals", ids=ids, workspace=workspace)}
        keys = []
        if ADMIN_KEY_ID in totals:
            keys.append(KeyInfo(ADMIN_KEY_ID, None, "DONTO_API_KEY", None, None, None))
        keys += [
            KeyInfo(
                r["id"],
                r["workspace"],
                r["fingerprint"],
                to_native(r["createdAt"]),
                to_native(r["lastUsedAt"]),
                to_native(r["revokedAt"]),
                r["replacedBy"],
                r["replaces"],
            )
            for r in rows
        ]
        return [_with_totals(k, totals.get(k.id)) for k in keys]

    def flush_usage(self) -> int:
        """Write the counted key use now (a background thread does it every few seconds)."""
        return self.usage.flush()

    def close(self) -> None:
        self.usage.close()

    def _bound_id(self, key_id: str) -> str:
        if key_id == ADMIN_KEY_ID:
            raise InvalidInput("the admin key is DONTO_API_KEY: change it there and restart", field="key_id")
        return key_id

    # -- requests -----------------------------------------------------------------------------

    def authenticate(self, key: str | None, requested_workspace: str | None, address: str | None = None) -> Principal:
        """The workspace a request acts in. Admin keys pick it (default 'default'); bound keys may
        only act in their own. A valid key is accepted whatever its address did; an address that
        failed too often has its failing requests refused (429, after `failure_delay_s`) until its
        window ends; a key past its rate is refused (429) until it refills."""
        address = address or "unknown"
        over_limit = self.failures.blocked_for(address)
        if not key:
            missing = Unauthorized("send 'Authorization: Bearer <key>'", field="Authorization")
            raise self._failed(address, over_limit, missing)
        if requested_workspace is not None:
            check_workspace(requested_workspace, field="X-Donto-Workspace")
        if self.admin_key and hmac.compare_digest(key.encode(), self.admin_key.encode()):
            return self._admit(Principal(requested_workspace or DEFAULT_WORKSPACE, admin=True))
        key_hash = _hash(key)
        if over_limit and (not KEY_SHAPE.match(key) or key_hash in self.failed_hashes):
            raise self._failed(address, over_limit, Unauthorized("unknown API key", field="Authorization"))
        rows = self.graph.read_query("api_key_lookup", key_hash=key_hash)
        if not rows:
            self.failed_hashes.add(key_hash)
            raise self._failed(address, over_limit, Unauthorized("unknown API key", field="Authorization"))
        key_id, bound = rows[0]["id"], rows[0]["workspace"]
        if rows[0]["revokedAt"] is not None:
            self.failed_hashes.add(key_hash)
            self.usage.rejected(key_id, bound)
            raise self._failed(address, over_limit, Unauthorized("this API key was revoked", field="Authorization"))
        if requested_workspace is not None and requested_workspace != bound:
            self.usage.rejected(key_id, bound)
            raise Forbidden(f"this key is bound to workspace {bound!r}", field="X-Donto-Workspace")
        return self._admit(Principal(bound, admin=False, key_id=key_id))

    def _admit(self, principal: Principal) -> Principal:
        wait = self.buckets.take(principal.key_id)
        if wait:
            self.usage.rejected(principal.key_id, principal.workspace)
            raise RateLimited("too many requests with this API key", whole_seconds(wait), field="Authorization")
        self.usage.accepted(principal.key_id, principal.workspace)
        return principal

    def _failed(self, address: str, over_limit: float, refusal: Unauthorized) -> Unauthorized | RateLimited:
        """A failed authentication, counted against its address: the refusal itself until the address
        reaches its limit, then a 429 that the API sends after failure_delay_s."""
        if over_limit:
            return RateLimited(
                f"too many failed authentications from this address ({refusal.message}); a valid key is still accepted",
                whole_seconds(over_limit),
                field="Authorization",
                delay_s=self.failure_delay_s,
            )
        if self.failures.record(address):
            log.warning(
                "%s failed authentication too often: its failing requests are refused for %.0f s",
                address,
                self.failures.window_s,
            )
        return refusal


def _new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def _with_totals(key: KeyInfo, totals: dict | None) -> KeyInfo:
    if totals is None:
        return key
    last_used = key.last_used_at or to_native(totals["lastUsedAt"])
    return replace(key, requests=totals["requests"], rejected=totals["rejected"], last_used_at=last_used)
