"""Coverage: every session that speaks of what a question asks, not only the few that crowd the top.

A multi-hop or aggregate question ("What are Kate's hobbies?", "Which cities have both Kate and
Elise been to?") rests on turns in several sessions. The turn arms rank turns against each other, so
one session that talks at length about the matter fills their top ranks, and a session that says it
once, in other words, sits below the pool fusion reads. The coverage arms rank each session by its
own best turns and hand back those turns, a few a session: every session that speaks of the matter
is nominated, and fusion weighs them with the rest."""

from __future__ import annotations

from typing import Any

from donto.recall.question import Question

VECTOR_COVER = "session_cover"  # the query vector's best turns of each session
TEXT_COVER = "session_cover_text"  # the question's words' best turns of each session
SPEAKER_COVER = "speaker_cover"  # the query vector's best turns of each session by each person it names
COVER_ARMS = (VECTOR_COVER, TEXT_COVER, SPEAKER_COVER)

# Nearest turns read before they are grouped by session: enough to hold every session of a
# conversation of a few hundred turns, and bounded however large the workspace grows.
COVER_CANDIDATES = 400
COVER_PER_SESSION = 1  # turns each session contributes


def cover_params(arm: str, question: Question, vector: list[float] | None, limit: int) -> dict[str, Any] | None:
    """The parameters of a coverage arm's query beyond the workspace and time scope (None: it cannot fire)."""
    if arm == VECTOR_COVER:
        return {
            "vector": vector,
            "cover_candidates": COVER_CANDIDATES,
            "cover_per_session": COVER_PER_SESSION,
            "limit": limit,
        }
    if arm == SPEAKER_COVER:
        return {
            "vector": vector,
            "cover_names": question.cover_names,
            "cover_candidates": COVER_CANDIDATES,
            "cover_per_session": COVER_PER_SESSION,
            "limit": limit,
        }
    if question.lucene is None:
        return None
    return {
        "lucene": question.lucene,
        "cover_text_candidates": COVER_CANDIDATES,
        "cover_per_session": COVER_PER_SESSION,
        "limit": limit,
    }
