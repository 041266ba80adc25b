"""Whether a document's new revision is a new version in the world or a correction of the one before.

A **version** is valid from its `occurred_at`, and ends the one before it there (as known from its
registration on: a read as known before still sees the one before it open). A **correction**
replaces the one before in transaction time only and takes its valid start: a typo fixed is still
the text that held from then. Unasked, a revision dated later than the one before it is a version,
one with the same date or none a correction. Strict rather than clever: a version is never put
into the history before the one it follows, and a correction needs a revision to correct."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from donto.errors import InvalidInput

RevisionKind = Literal["version", "correction"]
REVISION_KINDS: tuple[RevisionKind, ...] = ("version", "correction")


@dataclass(frozen=True)
class Previous:
    """The revision a new one follows (the latest under its external id, retracted or not)."""

    occurred_at: datetime | None
    valid_from: datetime | None  # its valid start: its own, else (registered before versions) its occurred_at


@dataclass(frozen=True)
class Placed:
    kind: RevisionKind
    valid_from: datetime | None  # None: valid from no particular time (an undated first version)


def place(
    asked: RevisionKind | None, occurred_at: datetime | None, previous: Previous | None, named: bool = True
) -> Placed:
    """The new revision's kind and valid start; InvalidInput naming the field where neither fits. A
    document with no external id (`named` False) has no versions: its text registered again after a
    retraction, or with other metadata, replaces the one before in transaction time, as it always did."""
    if not named:
        if asked is not None:
            raise InvalidInput("only a document with an external_id has versions and corrections", "revision_kind")
        return Placed("correction" if previous else "version", occurred_at)
    if previous is None:
        if asked == "correction":
            raise InvalidInput(
                "there is no revision to correct: a document's first revision is a version", "revision_kind"
            )
        return Placed("version", occurred_at)
    kind = asked or default_kind(occurred_at, previous)
    if kind == "correction":
        # Where the one it corrects had no start, its own date starts it, as a revision's always did.
        return Placed("correction", previous.valid_from or occurred_at)
    if occurred_at is None:
        raise InvalidInput("a version is valid from its occurred_at: give one", "occurred_at")
    if previous.valid_from is not None and occurred_at <= previous.valid_from:
        raise InvalidInput(
            f"a new version is dated after the one it follows (valid from {previous.valid_from.isoformat()}); "
            "to fix that one instead, send revision_kind 'correction'",
            "occurred_at",
        )
    return Placed("version", occurred_at)


def default_kind(occurred_at: datetime | None, previous: Previous) -> RevisionKind:
    """Later than the one before: a version; the same date or none: a correction. An earlier date is
    neither (a version never goes into the history before the one it follows): InvalidInput."""
    if occurred_at is None or previous.occurred_at is None or occurred_at == previous.occurred_at:
        return "correction"
    if occurred_at < previous.occurred_at:
        raise InvalidInput(
            f"occurred_at is before the revision it follows ({previous.occurred_at.isoformat()}): a new version "
            "is dated after it; send revision_kind 'correction' to correct that revision",
            "occurred_at",
        )
    return "version"
