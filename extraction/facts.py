"""Facts as the model states them, and reading them out of a reply.

The model is asked for one JSON object per line (seed 003: about 3x fewer tokens than one JSON
document, and a cut-off reply loses only its last line). Endpoints with structured output are
asked for `{"facts": [...]}` instead. `parse_reply` reads either, and salvages what it can from
a reply that is truncated, wrapped in prose or code fences, or partly malformed: every complete
object counts, anything else is counted as rejected, never fatal.

Keys are accepted long or short: subject/s, predicate/p, object/o, quote/q/surface_text,
confidence/c, datatype/dt, derived_from/from, hypothesis_only/hyp, modality/mod, id,
valid_from/vf, valid_to/vt, single_valued/sv, corrects/corr.

`corr` says the fact corrects something the text (or the speaker, earlier) said before ("sorry, it
was July, not August"): the value or time it replaces, as then stated ("August"), as a string, or
as an object naming which (`{"o": "york"}`, `{"vf": "August"}`), or `true` for "the earlier
statement of this subject and predicate". Who reads the facts decides what it corrects; the
extraction only carries what the model said."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

SEPARATOR = "\u241f"
DATATYPES = ("xsd:string", "xsd:integer", "xsd:decimal", "xsd:boolean", "xsd:date", "xsd:dateTime")
MODALITIES = ("asserted", "negated", "possible", "planned", "reported", "hypothetical")
# Predicates by which a model says two names denote one thing (the prompt asks for same_as; seed
# 003's lane wrote likelySameAs): memorize links the two keys (SAME_AS) besides keeping the claim.
IDENTITY_PREDICATES = frozenset(
    {"same_as", "is_same_as", "likely_same_as", "also_known_as", "aka", "a.k.a", "alias", "alias_of", "is_alias_of"}
)


@dataclass(frozen=True)
class Correction:
    """What a fact says it corrects, as the model stated it: the earlier value (`value`: an object or
    a time, whichever matches), or the earlier object, start or end by name; all None: the earlier
    statement of the same subject and predicate, whatever it said."""

    value: str | None = None
    object: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None

    @property
    def key(self) -> str:
        return SEPARATOR.join(x or "" for x in (self.value, self.object, self.valid_from, self.valid_to))

    def describe(self) -> str:
        """The corrected statement in words, for a job's record: 'August', 'o: york', 'the earlier one'."""
        named = [f"{k}: {v}" for k, v in (("o", self.object), ("vf", self.valid_from), ("vt", self.valid_to)) if v]
        return ", ".join(([self.value] if self.value else []) + named) or "the earlier statement"


@dataclass
class Fact:
    subject: str  # an entity key ("melanie", "charity-race")
    predicate: str  # snake_case ("ran", "works_as")
    object: str  # an entity key, or a literal's text when `datatype` is set
    datatype: str | None = None  # None: the object is an entity
    quote: str | None = None  # the exact words of the source the fact rests on
    confidence: float = 0.8
    modality: str = "asserted"
    hypothesis_only: bool = False  # inferred or conceivable, not stated
    label: str | None = None  # the model's own id for it ("f3"), for derived_from references
    derived_from: list[str] = field(default_factory=list)  # labels of the facts it was inferred from
    # When the fact began and stopped being true, as the text says it: an ISO date or the words
    # themselves ("last month", "since 2019"); the caller resolves them against the source's date.
    valid_from: str | None = None
    valid_to: str | None = None
    single_valued: bool = False  # the subject has one value of this predicate at a time (lives_in)
    corrects: Correction | None = None  # it corrects an earlier statement ("sorry, it was July")

    @property
    def content_key(self) -> str:
        """What makes two facts the same: subject, predicate and object (never confidence or wording).
        A correction is another fact than the statement it corrects, even of the same triple ("July,
        not August"): its times and what it corrects count too."""
        parts: tuple[str, ...] = (self.subject, self.predicate, self.datatype or "", self.object)
        if self.corrects is not None:
            parts += ("corrects", self.corrects.key, self.valid_from or "", self.valid_to or "")
        return hashlib.sha256(SEPARATOR.join(parts).encode("utf-8")).hexdigest()

    def line(self) -> str:
        """The fact as the prompt's compact `subject | predicate | object` line."""
        return f"{self.subject} | {self.predicate} | {self.object}"


@dataclass(frozen=True)
class Rejection:
    """Something in a reply that looked like a fact and could not be read as one."""

    text: str  # what the model wrote, at most 200 characters
    reason: str


@dataclass
class ParsedReply:
    facts: list[Fact]
    rejections: list[Rejection]  # objects that looked like facts but could not be read as one
    salvaged: bool  # the reply was not clean (prose around it, a cut-off tail, a broken document)

    @property
    def rejected(self) -> int:
        return len(self.rejections)


def entity_key(name: str) -> str:
    """A name as an entity key: NFKC, lower case, runs of spaces, underscores and slashes as one
    '-', surrounding punctuation dropped. 'Melanie ' and 'melanie' are the same entity."""
    text = unicodedata.normalize("NFKC", name).strip().lower()
    text = re.sub(r"[\s_/]+", "-", text)
    return text.strip("-.,;:!?'\"()[]{}") or text


def predicate_name(name: str) -> str:
    """A predicate as snake_case: 'works as' and 'Works-As' are 'works_as'; a namespace prefix stays."""
    text = unicodedata.normalize("NFKC", name).strip()
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text)  # camelCase -> camel_Case
    text = re.sub(r"[\s\-]+", "_", text.lower())
    return text.strip("_.,;:!?'\"") or text


def _first(obj: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in obj and obj[key] is not None:
            return obj[key]
    return None


def fact_from(obj: Any) -> Fact | None:
    """A fact from one decoded object, or None when it lacks a subject, predicate or object."""
    read = read_fact(obj)
    return read if isinstance(read, Fact) else None


def read_fact(obj: Any) -> Fact | str:
    """A fact from one decoded object, or why it is none: 'not an object', 'empty field: predicate'."""
    if not isinstance(obj, dict):
        return "not an object"
    subject, predicate, value = _first(obj, "subject", "s"), _first(obj, "predicate", "p"), _first(obj, "object", "o")
    datatype = _first(obj, "datatype", "dt")
    if isinstance(value, dict):  # {"iri": ...} / {"entity": ...} / {"literal": {"v", "dt"}} shapes
        literal = value.get("literal")
        if isinstance(literal, dict):
            value, datatype = _first(literal, "value", "v"), _first(literal, "datatype", "dt") or "xsd:string"
        else:
            value = _first(value, "entity", "iri", "value", "v")
    for name, x in (("subject", subject), ("predicate", predicate), ("object", value)):
        if not (isinstance(x, str | int | float | bool) and str(x).strip()):
            return f"empty field: {name}" if x is None or isinstance(x, str) else f"not a value: {name}"
    if isinstance(value, bool):
        datatype = datatype or "xsd:boolean"
    elif isinstance(value, int | float):
        datatype = datatype or ("xsd:integer" if isinstance(value, int) else "xsd:decimal")
    if datatype is not None and datatype not in DATATYPES:
        datatype = "xsd:string"
    obj_text = (str(value).lower() if isinstance(value, bool) else str(value)).strip()
    quote = _first(obj, "quote", "q", "surface_text", "evidence")
    if isinstance(quote, dict):
        quote = _first(quote, "surface_text", "text")
    confidence = _first(obj, "confidence", "c")
    modality = str(_first(obj, "modality", "mod") or "asserted").lower()
    derived = _first(obj, "derived_from", "from") or []
    valid_from, valid_to = (_time_text(_first(obj, *keys)) for keys in (("valid_from", "vf"), ("valid_to", "vt")))
    return Fact(
        subject=entity_key(str(subject)),
        predicate=predicate_name(str(predicate)),
        object=obj_text if datatype else entity_key(obj_text),
        datatype=datatype,
        quote=str(quote).strip() or None if isinstance(quote, str) else None,
        confidence=min(1.0, max(0.0, float(confidence))) if isinstance(confidence, int | float) else 0.8,
        modality=modality if modality in MODALITIES else "asserted",
        hypothesis_only=bool(_first(obj, "hypothesis_only", "hyp")),
        label=str(obj["id"]) if isinstance(obj.get("id"), str | int) else None,
        derived_from=[str(d) for d in derived] if isinstance(derived, list) else [str(derived)],
        valid_from=valid_from,
        valid_to=valid_to,
        single_valued=_first(obj, "single_valued", "sv") is True,
        corrects=_correction(_first(obj, "corrects", "corr")),
    )


def _correction(value: Any) -> Correction | None:
    """What `corr` says is corrected: a string (the earlier value or time), an object naming the
    earlier object (o/object), start (vf/valid_from) or end (vt/valid_to), or true (the earlier
    statement of the subject and predicate). Anything else (false, an empty string or object) is no
    correction."""
    if value is True:
        return Correction()
    if isinstance(value, str | int) and not isinstance(value, bool):
        text = _time_text(value)
        return Correction(value=text) if text else None
    if isinstance(value, dict):
        earlier = _first(value, "object", "o")
        correction = Correction(
            value=_time_text(_first(value, "value", "v")),
            object=None
            if earlier is None
            else (str(earlier).lower() if isinstance(earlier, bool) else str(earlier))[:200].strip() or None,
            valid_from=_time_text(_first(value, "valid_from", "vf")),
            valid_to=_time_text(_first(value, "valid_to", "vt")),
        )
        return correction if correction.key.strip(SEPARATOR) else None
    return None


def _time_text(value: Any) -> str | None:
    """A stated time as text: '2019', 'last month'; a bare year given as a number reads as text too."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    text = str(value).strip()[:200]
    return text or None


def _objects_in(text: str) -> tuple[list[Any], bool]:
    """Every complete top-level JSON object in text, in order, however it is wrapped; a balanced
    {...} that does not decode is a Rejection in its place. Returns (objects, clean)."""
    decoder = json.JSONDecoder()
    found: list[Any] = []
    position = 0
    clean = True
    while True:
        start = text.find("{", position)
        if start < 0:
            break
        if text[position:start].strip(" \t\r\n,[]"):
            clean = False  # prose, a fence or a broken fragment between objects
        try:
            obj, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            closed = _balanced_end(text, start)
            clean = False
            if closed is None:  # an unfinished object: a truncated tail
                break
            found.append(Rejection(text[start:closed][:200], "not valid JSON"))
            position = closed
            continue
        found.append(obj)
        position = end
    if text[position:].strip(" \t\r\n,[]}"):
        clean = False
    return found, clean


def _balanced_end(text: str, start: int) -> int | None:
    """The index after the brace that closes the one at `start` (strings respected), or None."""
    depth = 0
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def parse_reply(text: str) -> ParsedReply:
    """Facts from a reply in either shape (JSON lines, or {"facts": [...]}), salvaging every complete one."""
    objects, clean = _objects_in(text)
    facts: list[Fact] = []
    rejected: list[Rejection] = []
    for obj in objects:
        if isinstance(obj, Rejection):
            rejected.append(obj)
            continue
        items = obj["facts"] if isinstance(obj, dict) and isinstance(obj.get("facts"), list) else [obj]
        for item in items:
            read = read_fact(item)
            if isinstance(read, Fact):
                facts.append(read)
            else:
                rejected.append(Rejection(json.dumps(item, ensure_ascii=False)[:200], read))
    decoded = [o for o in objects if not isinstance(o, Rejection)]
    if not decoded and "{" in text:  # a {"facts": [ ... document cut off before its first fact closed
        inner = text.find("[", text.find('"facts"')) if '"facts"' in text else -1
        if inner >= 0:
            more = parse_reply(text[inner + 1 :])
            return ParsedReply(more.facts, rejected + more.rejections, True)
    return ParsedReply(facts, rejected, salvaged=not clean or bool(rejected))
