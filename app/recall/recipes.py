"""Recall recipes, declared as data (which arms, their weights, how they fuse), not as branches
in the search code. `route` picks a recipe from the shape of the question alone (question.py)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from donto.recall.arms import ARMS, NEIGHBOURS, SESSIONS, SPEAKERS
from donto.recall.coverage import COVER_ARMS
from donto.recall.question import Question


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

# The arms that rank by the question's words.
_FULL_TEXT_ARMS = tuple(name for name, arm in ARMS.items() if not arm.uses_vector)


def route(question: Question, base: Recipe = DEFAULT) -> Recipe:
    """The recipe for the question's shape (question.py reads it, as of the read's present)."""
    weights = dict(base.weights)
    dated_boost = base.dated_boost
    if question.asks_when:  # dated passages carry the answer to "when" questions
        weights["passage_vector"] = weights.get("passage_vector", 0) * 1.5
        dated_boost = 1.5
    if question.names_entities:
        weights["fulltext"] = weights.get("fulltext", 0) * 1.5
    if question.gathers:  # every session that speaks of the matter, not only the one that dwells on it
        weights.update({arm: 1.0 for arm in COVER_ARMS if arm in weights})
    if question.about_now:  # the latest word names the change ("I moved to Amsterdam"), the earlier the matter's words
        weights.update({arm: 0.0 for arm in _FULL_TEXT_ARMS if arm in weights})
    return replace(
        base,
        weights=weights,
        dated_boost=dated_boost,
        asked_for_weight=base.asked_for_weight if question.gathers else 0.0,
        # One occasion is told in one session: a question that names a time, or asks "When did…" ("How
        # many times has…" gathers), keeps its first items as fused.
        spread_top=0 if question.one_occasion else base.spread_top,
        latest_first=question.about_now,
    )
