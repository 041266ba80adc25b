"""Rendering: chosen candidates into the memory bundle's items, and the bundle trimmed to a token
budget. Pure: the turn and claim details come in as the recall queries returned them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from donto.claims.models import standing, statement
from donto.recall.fusion import Candidate
from donto.temporal.instants import read_instant
from donto.temporal.phrases import date_tag_text


@dataclass
class Provenance:
    turn_ids: list[str]  # the turns' external ids (what the client called them)
    session_id: str | None  # the session's external id
    claim_ids: list[str]  # claims whose hits brought this item
    status: str | None = None  # the premise walk's verdict over claim_ids, when any
    # A registered document's passage: the revision and where in its text (text[start:end] is the passage).
    document_id: str | None = None
    revision: int | None = None
    start: int | None = None
    end: int | None = None
    title: str | None = None
    external_id: str | None = None  # the document's


@dataclass
class RecallItem:
    subject: str
    predicate: str  # "said" for a turn, "says" for a document's passage
    object: str | None  # None for a turn or a passage
    text: str  # what the agent reads, dated: "[8 May 2023] ..."
    source: str  # the arm that contributed most
    provenance: Provenance | None = field(default=None)  # only when asked for
    # A claim's: current | superseded | contested | potentially_stale | time_unknown
    state: str | None = None
    context: str | None = None  # a claim's modality (negated, possible, ...); None: asserted, or not a claim
    hypothesis: bool | None = None  # a claim's: inferred or conceivable, not stated
    standing: str | None = None  # a claim's: asserted | corroborated | hypothetical
    replaced_by: str | None = None  # a later statement on the same matter (present.py): its turn's external id
    corrected_by: str | None = None  # a later turn that corrects this one (episodes/corrections.py): its external id
    relevance: float | None = None  # how well it answers the question, in [0, 1] (relevance.py)
    metadata: dict[str, Any] | None = None  # a turn's, as posted with it (never searched)


def date_label(moment: datetime) -> str:
    return f"{moment.day} {moment.strftime('%B %Y')}"


def turn_item(c: Candidate, turn: Mapping[str, Any], with_provenance: bool) -> RecallItem:
    tags = [date_label(read_instant(turn["occurredAt"]))] if turn["occurredAt"] else []
    tags += [date_tag_text(d["phrase"], d["tag"]) for d in turn["dates"] if d["phrase"]]
    prefix = f"[{'; '.join(dict.fromkeys(tags))}] " if tags else ""
    provenance = Provenance([turn["externalId"]], turn["sessionExternalId"], list(c.claim_ids))
    return RecallItem(
        subject=turn["speaker"],
        predicate="said",
        object=None,
        text=prefix + turn["text"],
        source=c.source,
        provenance=provenance if with_provenance else None,
        metadata=json.loads(turn["metadata"]) if turn.get("metadata") else None,
    )


def passage_item(c: Candidate, run: Sequence[Mapping[str, Any]], with_provenance: bool) -> RecallItem:
    """A run of a registered document's passages in one line: what the document says there (or, in a
    transcript, who said it), dated as a turn is (the document's date, and the dates the passages' own
    time expressions resolved to), and, for a version a later one ended, until when it held ("until
    1 June 2024"). Its offsets span the run: text[start:end] of that revision."""
    run = sorted(run, key=lambda p: p["start"])
    first = run[0]
    tags = [date_label(read_instant(first["occurredAt"]))] if first["occurredAt"] else []
    if ended := read_instant(first.get("validTo")):
        tags.append(f"until {date_label(ended)}")
    tags += list(dict.fromkeys(date_tag_text(p["datePhrase"], p["dateTag"]) for p in run if p["datePhrase"]))
    prefix = f"[{'; '.join(dict.fromkeys(tags))}] " if tags else ""
    provenance = Provenance(
        [], None, [], None, first["documentId"], first["revision"], first["start"], run[-1]["end"], first["title"],
        first["externalId"],
    )  # fmt: skip
    return RecallItem(
        subject=first["speaker"] or first["title"] or first["externalId"] or "document",
        predicate="said" if first["speaker"] else "says",
        object=None,
        text=prefix + " ".join(p["text"] for p in run),
        source=c.source,
        provenance=provenance if with_provenance else None,
    )


def claim_item(c: Candidate, claim: Mapping[str, Any], with_provenance: bool) -> RecallItem:
    """A claim with no turn behind it reads as a dated statement with the words its evidence cites,
    its modality in the statement itself ("ann does NOT like fado", "possibly: ann takes_up
    jazz-piano"), a time donto could not resolve as its words ("[time unknown: as a child]"), and a
    second source's agreement as "(2 sources)"."""
    start = read_instant(claim["validFrom"])
    quotes = "".join(f' "{q}"' for q in claim["quotes"])
    if claim.get("validWhen"):
        prefix = f"[time unknown: {claim['validWhen']}] "
    else:
        prefix = f"[{date_label(start)}] " if start else ""
    sources = claim.get("sources") or 0
    hypothesis = bool(claim.get("hypothesis"))
    said = statement(claim["subject"], claim["predicate"], claim["object"], claim.get("context"), hypothesis)
    agreed = f" ({sources} sources)" if sources >= 2 else ""
    provenance = Provenance([], None, [c.id])
    return RecallItem(
        subject=claim["subject"],
        predicate=claim["predicate"],
        object=claim["object"],
        text=f"{prefix}{said}{agreed}{quotes}",
        source=c.source,
        provenance=provenance if with_provenance else None,
        context=claim.get("context"),
        hypothesis=hypothesis,
        standing=standing(hypothesis, sources),
    )


OPTIONAL = (
    "provenance",
    "state",
    "context",
    "hypothesis",
    "standing",
    "replaced_by",
    "corrected_by",
    "relevance",
    "metadata",
)  # left out of the answer when None


def estimate_tokens(item: RecallItem) -> int:
    """About four characters a token, counted over what the agent reads (the item as JSON)."""
    visible = {k: v for k, v in asdict(item).items() if not (k in OPTIONAL and v is None)}
    return max(1, len(json.dumps(visible, ensure_ascii=False)) // 4)


def trim_to_tokens(items: list[RecallItem], budget: int) -> list[RecallItem]:
    """Keep the best-ranked items whose running total fits the budget."""
    kept: list[RecallItem] = []
    used = 0
    for item in items:
        cost = estimate_tokens(item)
        if used + cost > budget:
            break
        kept.append(item)
        used += cost
    return kept
