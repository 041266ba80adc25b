"""A recalled item's metadata, as the retriever adapters hand it to their framework. Pure: no framework,
no client, no I/O, so the mapping is unit-tested without a server.

The text is the item's own (`item.text`, dated as donto renders it: "[8 May 2023] ..."): it is what an
agent reads. Everything else donto says of the item goes into the metadata, under the API's own names,
so a reader of a Document or a Node finds what docs/reference/rest.md documents:

- relevance (0..1, one meaning across questions and workspaces: below 0.5 the item is more likely about
  something else than an answer), source (the arm that contributed most), subject, predicate, object;
- a claim's state, context, hypothesis and standing, a replaced turn's replaced_by, where the item has them;
- provenance (turn ids, session id, claim ids, status; a passage's document id, revision, offsets, title)
  as the API answers it;
- workspace: the workspace read; valid_at and known_at: the time scope the item was recalled at, when the
  retriever was given one (without, donto reads as of now)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from donto.api.schemas.recall import RecallItemOut

# Set on claims (state, context, hypothesis, standing) or on replaced turns and passages (replaced_by);
# left out of the metadata where the API leaves them out.
OPTIONAL_FIELDS = ("state", "context", "hypothesis", "standing", "replaced_by")


MAX_RECALL_K = 200  # recall's most items


def recall_k(wanted: int) -> int:
    """How many items to recall for `wanted` records that an adapter keeps as documents: a record may
    come back as several passages, and some are filtered out after."""
    return min(MAX_RECALL_K, max(20, 4 * wanted))


def best_by_document(items: Iterable[RecallItemOut], prefix: str) -> dict[str, float]:
    """The external ids (under `prefix`) of the documents the recalled items come from, each scored
    by its best item's relevance, in recall's order: a document's best passage is its score."""
    scores: dict[str, float] = {}
    for item in items:
        external = item.provenance.external_id if item.provenance else None
        if external is not None and external.startswith(prefix):
            scores[external] = max(scores.get(external, 0.0), item.relevance or 0.0)
    return scores


def instant_text(value: str | datetime | None) -> str | None:
    """An instant as metadata keeps it: ISO 8601 text, as the caller gave it when it was text."""
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def item_metadata(
    item: RecallItemOut,
    *,
    workspace: str | None = None,
    valid_at: str | datetime | None = None,
    known_at: str | datetime | None = None,
) -> dict[str, Any]:
    """The metadata of one recalled item: JSON values only (str, float, bool, None, lists and dicts of them),
    so a framework can serialise, trace or store it as it is."""
    metadata: dict[str, Any] = {
        "relevance": item.relevance,
        "source": item.source,
        "subject": item.subject,
        "predicate": item.predicate,
        "object": item.object,
    }
    for name in OPTIONAL_FIELDS:
        if (value := getattr(item, name)) is not None:
            metadata[name] = value
    if item.provenance is not None:
        # exclude_unset: a turn's or a claim's provenance has no document fields, as the API answers it
        metadata["provenance"] = item.provenance.model_dump(mode="json", exclude_unset=True)
    if workspace is not None:
        metadata["workspace"] = workspace
    for name, instant in (("valid_at", valid_at), ("known_at", known_at)):
        if instant is not None:
            metadata[name] = instant_text(instant)
    return metadata
