"""The retrieval penalty: how a match's similarity becomes its rank in bring_to_mind, recall and search.

Memory prefers the synthesized view: an understanding outranks the raw observations it covers, and
an observation written since the last consolidation outranks an old one that nobody has used. For a
candidate with cosine similarity `sim` (the best over the workspace's perspectives):

    score = sim × kind × coverage × recency × staleness × provenance

    kind        understanding 1.15, observation 1.0
    coverage    observation an active understanding covers (it is a source of one, related_to one, or
                an active understanding about exactly its subjects was written after it): 0.6; else 1.0
    recency     observation of the workspace's current generation (not consolidated yet): 1.2;
                else 1 + 0.2 × 0.5^(days since written / 7)      (a week-old one gets half the boost)
    staleness   1 − 0.2 × (1 − 0.5^(days since last reinforced / 90)), where reinforced is the
                latest of written, marked useful and surfaced: never below 0.8
    provenance  (0.9 + 0.1 × confidence) × (1 + 0.1 × min(useful, 3)) × (0.7 if questionable > useful)
                (confidence defaults to 0.7 when the writer gave none)

`sim` is the similarity on donto's scale (Encoder.similarity: the cosine rescaled so that 0 is where
the model puts unrelated texts and 1 the same text; the vector index's score s in [0, 1] is
(1 + cos) / 2, so cos = 2s − 1; floored at 0), or for a word search the BM25 score over the best
one's. Rescaled, because e5-small-v2 puts unrelated texts near 0.7 cosine: the factors below would
otherwise outweigh the difference between an unrelated match and a good one. Every factor is
bounded, so the weights reorder close matches and never bury a strong one: the most favoured item
weighs at most about 5× the least. The ordering these weights imply is pinned by
tests/unit/test_memory_ranking.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

UNDERSTANDING_WEIGHT = 1.15
COVERED_WEIGHT = 0.6
CURRENT_GENERATION_BOOST = 1.2
RECENCY_BOOST = 0.2
RECENCY_HALF_LIFE_DAYS = 7.0
STALENESS_MAX = 0.2
STALENESS_HALF_LIFE_DAYS = 90.0
DEFAULT_CONFIDENCE = 0.7
QUESTIONABLE_WEIGHT = 0.7


@dataclass(frozen=True)
class Candidate:
    source: str  # "understanding" | "observation"
    similarity: float
    generation: int
    created_at: datetime
    reinforced_at: datetime  # latest of written, marked useful, surfaced
    covered: bool = False
    confidence: float | None = None
    useful: int = 0
    questionable: int = 0


def _half_life(days: float, half_life: float) -> float:
    return float(0.5 ** (max(days, 0.0) / half_life))


def weight(c: Candidate, current_generation: int, now: datetime) -> float:
    """The product of the factors above (1.0 is neutral)."""
    confidence = DEFAULT_CONFIDENCE if c.confidence is None else min(max(c.confidence, 0.0), 1.0)
    provenance = (0.9 + 0.1 * confidence) * (1 + 0.1 * min(c.useful, 3))
    if c.questionable > c.useful:
        provenance *= QUESTIONABLE_WEIGHT
    idle_days = (now - c.reinforced_at).total_seconds() / 86400
    staleness = 1 - STALENESS_MAX * (1 - _half_life(idle_days, STALENESS_HALF_LIFE_DAYS))
    if c.source == "understanding":
        return UNDERSTANDING_WEIGHT * staleness * provenance
    coverage = COVERED_WEIGHT if c.covered else 1.0
    if c.generation >= current_generation:
        recency = CURRENT_GENERATION_BOOST
    else:
        age_days = (now - c.created_at).total_seconds() / 86400
        recency = 1 + RECENCY_BOOST * _half_life(age_days, RECENCY_HALF_LIFE_DAYS)
    return coverage * recency * staleness * provenance


def score(c: Candidate, current_generation: int, now: datetime) -> float:
    return c.similarity * weight(c, current_generation, now)
