"""Recall recipes, declared as data (which arms, their weights, how they fuse), not as branches
in the search code. `route` picks a recipe from the shape of the query alone."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from donto.recall.arms import ARMS, NEIGHBOURS, SESSIONS, SPEAKERS, time_window
from donto.recall.coverage import COVER_ARMS
from donto.temporal.phrases import resolve_time_expressions


@dataclass(frozen=True)
class Recipe:
    weights: dict[str, float] = field(
        default_factory=lambda: {
            "turn_vector": 1.0,
            "passage_vector": 1.0,
            "exchange_vector": 1.0,
            "passage_context_vector": 1.0,
            "claim_vector": 1.0,
            "fulltext": 1.0,
            "session_fulltext": 1.0,
            "document_fulltext": 1.0,
            "time_window": 1.0,
            # Coverage (coverage.py): on for a question that gathers (is_aggregate, route below); for
            # others asked for by name (`arms`) or weighed in (DONTO_RECALL_ARM_WEIGHTS), where an arm
            # off by default takes the factor as its weight.
            "session_cover": 0.0,
            "session_cover_text": 0.0,
            "speaker_cover": 0.0,
        }
    )
    per_arm: int = 60  # ranked hits each arm contributes
    rrf_k: int = 15  # reciprocal-rank fusion: score += weight / (rrf_k + rank); small k lets top ranks lead
    dated_boost: float = 1.0  # multiplies a passage hit whose passage resolved a date
    neighbours_of: int = 8  # the strongest fused turns whose previous and next turns join
    neighbour_share: float = 0.5  # a neighbour scores this share of its hit's score
    session_share: float = 0.25  # a turn gains this share of its session's strength (its best turns' summed scores)
    session_depth: int = 3  # how many of a session's best turns make its strength
    session_pool: int = 100  # the best fused turns whose sessions are weighed
    speaker_boost: float = 1.5  # multiplies the score of a turn said by someone the query names
    # The share of the vector arms' query that is the kind of thing a gathering question asks after
    # (asked_for, below; route keeps it for a question that gathers and sets it to 0 for others).
    asked_for_weight: float = 0.5
    # The weight of the question as asked beside the question with the speakers it names said as "they"
    # (addressed.impersonal, weight 1) in the turn and passage arms' query: the name still says whose
    # turns matter.
    named_weight: float = 0.5
    # The first items come from different sessions (fusion.spread_over_groups): how many (route sets
    # 0 for a question after one occasion), and how near a unit of a session already there must lie
    # to join them (an answer two messages after its question).
    spread_top: int = 5
    spread_near: int = 2
    # Each matter's latest statement first (present.latest_first): route sets it for a question about now.
    latest_first: bool = False

    def weighed(self, factors: dict[str, float]) -> Recipe:
        """Each named arm's weight multiplied (DONTO_RECALL_ARM_WEIGHTS; 0 turns an arm off)."""
        if not factors:
            return self
        # A coverage arm off by default takes the factor as its weight; an arm the route turned off for
        # the question's shape (the full-text arms for a question about now) stays off.
        return replace(
            self,
            weights={
                k: factors.get(k, 0.0) if not v and k in COVER_ARMS else v * factors.get(k, 1.0)
                for k, v in self.weights.items()
            },
        )

    def only(self, arms: list[str]) -> Recipe:
        return replace(
            self,
            # A named arm runs: one the recipe has off (a coverage arm by default, a full-text arm for a
            # question about now) at weight 1.
            weights={k: v or 1.0 for k, v in self.weights.items() if k in arms},
            neighbours_of=self.neighbours_of if NEIGHBOURS in arms else 0,
            session_share=self.session_share if SESSIONS in arms else 0.0,
            speaker_boost=self.speaker_boost if SPEAKERS in arms else 1.0,
            spread_top=self.spread_top if SESSIONS in arms else 0,
        )


DEFAULT = Recipe()

_TEMPORAL = re.compile(
    r"\b(when|what (year|month|day|date|time)|which (year|month|day)|how long|how many (days|weeks|months|years)"
    r"|before|after|since|until|during|ago|first time|last time|date)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[\"“”']([^\"“”']{3,})[\"“”']")
_CAPITALISED = re.compile(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+")


# A question that gathers what was said across sessions: how many, both, ever; a list asked for by a
# plural ("What books…", "Which cities…", "What are…") or by the perfect tense ("Where has Kate
# camped?"). English question shapes only, no word lists of topics; what it was measured to be worth
# is in docs/explanation/design-notes.md.
_AGGREGATE = re.compile(
    r"\b(how many|both|ever|every|all the|list)\b"
    r"|^\W*(what|which)\s+(?!does\b|goes\b)(are|were|(kinds?|types?|sorts?)\s+of\s+\w+s|\w{3,}(?<![su]s)(?<!is)s)\b"
    r"|^\W*(what|where|which|who)\b[^?]*\b(has|have)\b(?!\s+to\b)",
    re.IGNORECASE,
)


# What a question asks after, where it names a kind of thing: "What animals are Nicolas and Nebraas
# discussing?" -> "animals", "What kind of films does Joanna enjoy?" -> "films", "What are Kate's
# hobbies?" -> "hobbies", "How many pets does Nate have?" -> "pets". Four words at most (longer is a
# clause, not a kind); a count of times or of a span of time names none.
_AUXILIARY = r"(?:are|is|was|were|do|does|did|has|have|had|can|could|would|will|should)"
_KIND_OF = r"(?:(?:kinds?|types?|sorts?)\s+of\s+)?"
_ASKED_FOR = (
    # What animals are…, Which cities has…, What kind of films does…, How many pets does…
    re.compile(rf"^\W*(?:what|which|how\s+many)\s+{_KIND_OF}(?P<kind>\w[\w -]*?)\s+{_AUXILIARY}\b", re.I),
    # What are Kate's hobbies?, What are some tips that…, What were the books she…
    re.compile(
        rf"^\W*(?i:what|which)\s+(?i:are|were)\s+(?i:(?:some|all|the)\s+)?(?:[\w ]+?'s\s+|(?:his|her|their)\s+)?"
        rf"{_KIND_OF}(?P<kind>\w[\w -]*?)\s*(?:\?|$|\b(?i:that|which|who|she|he|they)\b|\b[A-Z]\w+)",
    ),
)
_NOT_A_KIND = {"it", "that", "this", "there", "he", "she", "they", "you", "i", "we"}
_MEASURES = {"times", "seconds", "minutes", "hours", "days", "weeks", "months", "years"}


def asked_for(query: str) -> str | None:
    """The kind of thing a question asks after ("animals"), or None."""
    for pattern in _ASKED_FOR:
        found = pattern.search(query)
        if found is None:
            continue
        kind = found["kind"].strip()
        words = kind.lower().split()
        if len(words) > 4 or kind.lower() in _NOT_A_KIND or _MEASURES.intersection(words):
            return None
        return kind
    return None


_NOW = re.compile(
    r"\b(now|nowadays|currently|current|these days|still|at the moment|at present|presently|any ?more|no longer"
    r"|lately|today|latest|most recent(?:ly)?)\b",
    re.IGNORECASE,
)
# The arms that rank by the question's words.
_FULL_TEXT_ARMS = tuple(name for name, arm in ARMS.items() if not arm.uses_vector)


def about_now(query: str, now: datetime | None = None) -> bool:
    """A question about the present: it says now, currently, these days, still, at the moment... and
    names no time that is not today ("What was John currently doing in August 2023?" is about August;
    "today" and times named relatively are read against `now`, by default the clock's)."""
    if not _NOW.search(query):
        return False
    now = now or datetime.now(UTC)
    today = now.date()
    return all(m.date_from <= today <= m.date_to for m in resolve_time_expressions(query, now))


def is_aggregate(query: str) -> bool:
    return bool(_AGGREGATE.search(query))


def is_temporal(query: str) -> bool:
    return bool(_TEMPORAL.search(query))


def names_entities(query: str) -> bool:
    """Capitalised words past the first, or a quoted phrase: exact terms full-text matches well."""
    return bool(_QUOTED.search(query) or _CAPITALISED.search(query.strip()))


def route(query: str, base: Recipe = DEFAULT, now: datetime | None = None) -> Recipe:
    """The recipe for `query`'s shape; `now` is the read's present (a question about now, about_now)."""
    weights = dict(base.weights)
    dated_boost = base.dated_boost
    if is_temporal(query):  # dated passages carry the answer to "when" questions
        weights["passage_vector"] = weights.get("passage_vector", 0) * 1.5
        dated_boost = 1.5
    if names_entities(query):
        weights["fulltext"] = weights.get("fulltext", 0) * 1.5
    gathers = is_aggregate(query)
    if gathers:  # every session that speaks of the matter, not only the one that dwells on it
        weights.update({arm: 1.0 for arm in COVER_ARMS if arm in weights})
    one_occasion = (is_temporal(query) and not gathers) or time_window(query, now or datetime.now(UTC)) is not None
    present = about_now(query, now)
    if present:  # the latest word names the change ("I moved to Amsterdam"), the earlier the matter's words
        weights.update({arm: 0.0 for arm in _FULL_TEXT_ARMS if arm in weights})
    return replace(
        base,
        weights=weights,
        dated_boost=dated_boost,
        asked_for_weight=base.asked_for_weight if gathers else 0.0,
        # One occasion is told in one session: a question that names a time, or asks "When did…" ("How
        # many times has…" gathers), keeps its first items as fused.
        spread_top=0 if one_occasion else base.spread_top,
        latest_first=present,
    )
