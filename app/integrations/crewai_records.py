"""How CrewAI's memory records map onto donto's documents, pure and framework-free (no crewai import,
so the fast tier tests it without crewai): one record is one document, its content the document's
text (what donto cuts into passages, embeds and recalls), its fields kept in the document's metadata.

A scope is a path (`/company/team`); its documents' external ids start with `crewai:` and the path,
each label escaped (`%` `/` `#` as %25 %2F %23) and followed by `/`, then `#` and the record's id
escaped: `crewai:/company/team/#<id>`. Every record under a scope, its sub-scopes' included, has an
external id starting with that scope's prefix (`crewai:/company/`), and no record of a sibling whose
name merely starts alike (`/companyx`) does, so a documents listing or a recall scope by prefix is a
scope and everything below it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from donto.integrations.store_mapping import escape, unescape

PREFIX = "crewai:"
SOURCE = "crewai"  # the registered documents' `source`
METADATA_KEY = "crewai"  # the document metadata's one key: the record's fields
MAX_EXTERNAL_ID = 512  # donto's Key (app/api/schemas/common.py)
MAX_METADATA_BYTES = 16 * 1024  # donto.metadata.MAX_METADATA_BYTES: a longer content is read from the text
FIELDS = ("id", "scope", "categories", "metadata", "importance", "created_at", "last_accessed", "source", "private")


def normalize_scope(path: str | None) -> str:
    """A scope as CrewAI writes it (crewai.memory.utils.normalize_scope_path): a leading `/`, no
    trailing one, no empty labels; `/` for none."""
    if not path or path == "/":
        return "/"
    path = re.sub(r"/+", "/", path)
    if not path.startswith("/"):
        path = "/" + path
    return path.rstrip("/") or "/"


def scope_labels(scope: str | None) -> list[str]:
    return [label for label in normalize_scope(scope).split("/") if label]


def scope_prefix(scope: str | None) -> str:
    """The start every external id of a record in this scope or below it shares: `crewai:/` for the root."""
    return PREFIX + "/" + "".join(escape(label) + "/" for label in scope_labels(scope))


def external_id(scope: str | None, record_id: str) -> str:
    """The document external id of the record `record_id` in `scope`; ValueError when it is longer
    than donto's external ids (512 characters) or the id is empty."""
    if not record_id:
        raise ValueError("a memory record's id is empty")
    named = scope_prefix(scope) + "#" + escape(record_id)
    if len(named) > MAX_EXTERNAL_ID:
        raise ValueError(
            f"scope {normalize_scope(scope)!r} and record id {record_id!r} are too long to name in donto "
            f"(external ids: {MAX_EXTERNAL_ID} characters)"
        )
    return named


def parse_external_id(external: str) -> tuple[str, str]:
    """(scope, record id) of an external id external_id made; ValueError for one it could not have made."""
    if not external.startswith(PREFIX + "/") or "#" not in external:
        raise ValueError(f"{external!r} is not a CrewAI memory record's external id")
    path, record_id = external[len(PREFIX) + 1 :].split("#", 1)
    if (path and not path.endswith("/")) or not record_id:
        raise ValueError(f"{external!r} is not a CrewAI memory record's external id")
    labels = [unescape(label) for label in path.split("/")[:-1]]
    return "/" + "/".join(labels), unescape(record_id)


def utc(moment: datetime | str) -> datetime:
    """An instant, aware and in UTC: CrewAI's datetimes are naive UTC (datetime.utcnow())."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def utc_text(moment: datetime | str) -> str:
    """An instant as donto takes it."""
    return utc(moment).isoformat()


def document_of_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """What register_document takes for a record (its fields as `MemoryRecord.model_dump(mode="json")`
    gives them): its content the text, its fields the metadata, dated by its created_at. A content
    too long to keep in the metadata too (16 KiB in all) is kept in the text alone."""
    fields = {name: record.get(name) for name in FIELDS}
    fields["scope"] = normalize_scope(fields["scope"])
    content = str(record.get("content") or "")
    kept = {**fields, "content": content}
    if len(json.dumps({METADATA_KEY: kept}, separators=(",", ":"), ensure_ascii=False).encode()) > MAX_METADATA_BYTES:
        kept = {**fields, "content": None}  # read back from the document's text
    if len(json.dumps({METADATA_KEY: kept}, separators=(",", ":"), ensure_ascii=False).encode()) > MAX_METADATA_BYTES:
        raise ValueError(f"memory record {fields['id']!r}: its metadata and categories exceed donto's 16 KiB")
    document: dict[str, Any] = {
        "text": content,
        "external_id": external_id(fields["scope"], str(fields["id"] or "")),
        "metadata": {METADATA_KEY: kept},
        "source": SOURCE,
    }
    if created := record.get("created_at"):
        document["occurred_at"] = utc_text(created)
    return document


def record_of_document(metadata: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The record's fields a document's metadata holds (`content` None where it is kept in the text
    alone), or None for a document under the prefix that no record made."""
    kept = (metadata or {}).get(METADATA_KEY)
    if not isinstance(kept, Mapping) or not {"id", "scope", "content"} <= kept.keys():
        return None
    return dict(kept)


def in_scope(record_scope: str, scope: str | None) -> bool:
    """Whether a record's scope is `scope` or below it (label by label: `/a` holds `/a/b`, not `/ab`)."""
    wanted = scope_labels(scope)
    return scope_labels(record_scope)[: len(wanted)] == wanted


def matches(
    record: Mapping[str, Any],
    *,
    categories: Sequence[str] | None = None,
    metadata_filter: Mapping[str, Any] | None = None,
    older_than: datetime | None = None,
) -> bool:
    """CrewAI's storage filters, as its LanceDB storage applies them: any of the categories, each
    metadata field equal, created before `older_than`."""
    if categories and not set(categories) & set(record.get("categories") or ()):
        return False
    if metadata_filter and not all((record.get("metadata") or {}).get(k) == v for k, v in metadata_filter.items()):
        return False
    if older_than is not None:
        created = record.get("created_at")
        if created is None:
            return False
        if utc(created) >= utc(older_than):
            return False
    return True


def visible(record: Mapping[str, Any], source: str | None, include_private: bool) -> bool:
    """CrewAI's privacy rule: a private record is seen only by its own source (never by a caller with
    none), unless include_private."""
    return include_private or not record.get("private") or (source is not None and record.get("source") == source)


def child_scopes(scopes: Iterable[str], parent: str | None) -> list[str]:
    """The scopes one label below `parent` that hold a record, themselves or below: sorted."""
    depth = len(scope_labels(parent))
    children = {
        "/" + "/".join(labels[: depth + 1])
        for scope in scopes
        if in_scope(scope, parent) and len(labels := scope_labels(scope)) > depth
    }
    return sorted(children)
