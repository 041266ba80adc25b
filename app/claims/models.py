"""The claim as the domain sees it: what a writer asserts, and what a reader gets back."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Any

from donto.temporal.instants import parse_instant

DATATYPES = ("xsd:string", "xsd:integer", "xsd:decimal", "xsd:boolean", "xsd:date", "xsd:dateTime")
MAX_DECIMAL_EXPONENT = 1000  # a decimal's canonical form stays within about 2,000 characters
SEPARATOR = "\u241f"  # ␟ — cannot collide with ordinary text in keys, predicates or literals


@dataclass(frozen=True)
class Literal:
    """A typed literal. `lexical` is the canonical string form; `value` the native value stored in
    Neo4j (decimals stay strings so no digit is lost to floating point)."""

    lexical: str
    datatype: str

    @property
    def value(self) -> Any:
        if self.datatype == "xsd:integer":
            return int(self.lexical)
        if self.datatype == "xsd:boolean":
            return self.lexical == "true"
        if self.datatype == "xsd:date":
            return date.fromisoformat(self.lexical)
        if self.datatype == "xsd:dateTime":
            return parse_instant(self.lexical)
        return self.lexical

    @classmethod
    def parse(cls, value: Any, datatype: str) -> Literal:
        """Checks `value` against `datatype` and canonicalises it; ValueError says what is wrong."""
        if datatype not in DATATYPES:
            raise ValueError(f"datatype must be one of {', '.join(DATATYPES)}")
        return cls(_CANONICAL[datatype](value), datatype)


def _string(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError("xsd:string needs a JSON string")
    return v


def _integer(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError("xsd:integer needs a JSON integer")
    try:
        number = int(v)
    except ValueError:
        raise ValueError(f"{v!r} is not an integer") from None
    if not -(2**63) <= number < 2**63:
        raise ValueError("xsd:integer out of 64-bit range")
    return str(number)


def _decimal(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ValueError("xsd:decimal needs a JSON number or a decimal string")
    try:
        number = Decimal(str(v))
    except InvalidOperation:
        raise ValueError(f"{v!r} is not a decimal") from None
    if not number.is_finite():
        raise ValueError("xsd:decimal must be finite")
    if abs(number.adjusted()) > MAX_DECIMAL_EXPONENT or len(number.as_tuple().digits) > MAX_DECIMAL_EXPONENT:
        raise ValueError(f"xsd:decimal beyond {MAX_DECIMAL_EXPONENT} digits")  # "1e1000000": a million
    text = format(number, "f")  # exact: every digit written is kept
    return text if "." not in text else text.rstrip("0").rstrip(".") or "0"


def _boolean(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v in ("true", "false"):
        return v
    raise ValueError("xsd:boolean needs true or false")


def _date(v: Any) -> str:
    try:
        return date.fromisoformat(v).isoformat()
    except (TypeError, ValueError):
        raise ValueError(f"{v!r} is not an ISO-8601 date (YYYY-MM-DD)") from None


def _datetime(v: Any) -> str:
    instant = parse_instant(v)
    return instant.isoformat().replace("+00:00", "Z")


_CANONICAL = {
    "xsd:string": _string,
    "xsd:integer": _integer,
    "xsd:decimal": _decimal,
    "xsd:boolean": _boolean,
    "xsd:date": _date,
    "xsd:dateTime": _datetime,
}


@dataclass(frozen=True)
class Evidence:
    document_id: str
    start: int
    end: int


@dataclass(frozen=True)
class NewClaim:
    subject: str
    predicate: str
    object_entity: str | None = None
    object_literal: Literal | None = None
    context: str | None = None
    confidence: float = 1.0
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    derived_from: tuple[str, ...] = ()
    supports: tuple[str, ...] = ()
    contradicts: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()
    # The claim this one is a new version of (at most one): its transaction time closes as this is written.
    corrects: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    hypothesis: bool = False  # inferred or conceivable, not stated by its source
    # The words of a start time donto could not resolve ("as a child"): the claim's valid time is unknown.
    valid_when: str | None = None

    @property
    def object_text(self) -> str:
        """The object as one string: an entity key, or a literal's canonical form."""
        if self.object_literal is not None:
            return self.object_literal.lexical
        return self.object_entity or ""

    @cached_property  # a batch write reads it several times per claim; the fields never change
    def content_key(self) -> str:
        """sha256 of subject␟predicate␟object␟context␟valid_from␟valid_to. A literal's object part
        carries its datatype, so "42" the string and 42 the integer are different claims."""
        obj = (
            self.object_entity
            if self.object_literal is None
            else (f'"{self.object_literal.lexical}"^^{self.object_literal.datatype}')
        )
        parts = [
            self.subject,
            self.predicate,
            obj or "",
            self.context or "",
            _instant_key(self.valid_from),
            _instant_key(self.valid_to),
        ]
        if self.valid_when is not None:  # "as a child" is another time than "always"
            parts.append(f"when:{self.valid_when}")
        return hashlib.sha256(SEPARATOR.join(parts).encode("utf-8")).hexdigest()


def _instant_key(value: datetime | None) -> str:
    if value is None:
        return ""
    return (value if value.tzinfo is UTC else value.astimezone(UTC)).isoformat()


@dataclass(frozen=True)
class EvidenceSpan:
    span_id: str
    document_id: str
    start: int
    end: int
    text: str


@dataclass
class Claim:
    id: str
    subject: str
    predicate: str
    object_entity: str | None
    object_literal: Literal | None
    context: str | None
    confidence: float | None
    valid_from: datetime | None
    valid_to: datetime | None
    tx_from: datetime
    tx_to: datetime | None
    retraction_reason: str | None = None
    hypothesis: bool = False
    valid_when: str | None = None
    sources: int = 0  # independent sources its evidence cites: documents, or sessions of turns
    superseded_by: list[str] | None = None  # what replaced it in the read's scope (claims_superseded)
    links: dict[str, list[str]] = field(default_factory=dict)
    evidence: list[EvidenceSpan] = field(default_factory=list)

    @property
    def standing(self) -> str:
        return standing(self.hypothesis, self.sources)

    @property
    def object_text(self) -> str:
        return self.object_literal.lexical if self.object_literal is not None else self.object_entity or ""

    @property
    def statement(self) -> str:
        return statement(self.subject, self.predicate, self.object_text, self.context, self.hypothesis)


@dataclass(frozen=True)
class WriteOutcome:
    id: str
    created: bool


@dataclass(frozen=True)
class WriteResult:
    recorded_at: datetime
    claims: list[WriteOutcome]


# How a claim's modality (its context, when it is one of these) reads in its statement.
NEGATED = "negated"
MODALITY_PREFIX = {
    "possible": "possibly",
    "hypothetical": "hypothetically",
    "planned": "planned",
    "reported": "reportedly",
}
MODAL_CONTEXTS = [NEGATED, *MODALITY_PREFIX]  # contexts that say how a claim holds, not where it belongs
HYPOTHESIS_PREFIX = "possibly"  # a fact inferred, not stated, unless its modality says more
# Predicate heads after which NOT goes straight in: "is NOT married_to", "has NOT visited".
_AUXILIARIES = frozenset(
    ("is", "are", "was", "were", "has", "have", "had", "can", "could", "will", "would", "should")
    + ("may", "might", "must", "does", "did", "do")
)


def statement(subject: str, predicate: str, obj: str, context: str | None = None, hypothesis: bool = False) -> str:
    """A claim as the sentence an agent reads, its modality in the words: `ann likes fado`,
    `ann does NOT like fado`, `possibly: ann takes_up jazz-piano`. A context that is no modality
    (a declared claim's own) leaves the statement plain."""
    if context != NEGATED:
        line = f"{subject} {predicate} {obj}"
    elif _negatable(predicate):
        line = f"{subject} {negated(predicate)} {obj}"
    else:  # "visited": no safe way to put NOT inside it
        line = f"NOT: {subject} {predicate} {obj}"
    prefix = MODALITY_PREFIX.get(context or "") or (HYPOTHESIS_PREFIX if hypothesis else None)
    return f"{prefix}: {line}" if prefix else line


def _negatable(predicate: str) -> bool:
    head = predicate.split("_", 1)[0]
    return head in _AUXILIARIES or _third_person(head) is not None


def _third_person(word: str) -> str | None:
    """The bare verb of a third-person present `word` ("likes" -> "like", "watches" -> "watch"), or None."""
    if len(word) < 3 or not word.isalpha() or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return None
    if word.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return word[:-2]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1]


def negated(predicate: str) -> str:
    """`likes` -> `does NOT like`, `lives_in` -> `does NOT live_in`, `is_married_to` -> `is NOT married_to`."""
    head, _, rest = predicate.partition("_")
    if head in _AUXILIARIES:
        return f"{head} NOT {rest}" if rest else f"{head} NOT"
    base = _third_person(head)
    if base is None:
        return f"NOT {predicate}"
    return f"does NOT {base}_{rest}" if rest else f"does NOT {base}"


def standing(hypothesis: bool, sources: int) -> str:
    """How established a claim is: `hypothetical` (inferred or conceivable, not stated), `corroborated`
    (stated by two or more independent sources), else `asserted`."""
    if hypothesis:
        return "hypothetical"
    return "corroborated" if sources >= 2 else "asserted"
