"""Relevance: how well one item answers the question, a number in [0, 1] that means the same across
questions and workspaces, so that an agent can tell a bundle memory can answer from one about a
thing never mentioned (the bundle's `nothing_relevant`) and say "I don't know".

Fusion's scores cannot say it: reciprocal ranks are relative to the other candidates of the one
question, and every question has a first item. Relevance is read from what the item itself says of
the question, by two measures an arm takes and that are absolute:
- **meaning**: the cosine of the item's embedding to the question's (the turn and passage arms'
  measure), mapped linearly from COSINE_NONE (as near as unrelated text of the same kind comes with
  the default model, e5-small-v2, whose cosines crowd into 0.7-0.95) to COSINE_FULL (as near as an
  answer comes);
- **words**: the share of the question's content words (the language's, past its stop words and
  the names of the people it asks about) that the item's text says.
Their weighted mean (WORDS_SHARE for the words; an item with no embedding, a claim no vector arm
found, is read by its words alone) is read through a logistic centred at CROSSING, so that 0.5 is
the floor: below it, an item is more likely about something else than an answer. The constants
were measured on bench own-memory's workspaces (docs/explanation/design-notes.md has the figures);
they belong to the default model: another model's cosines lie elsewhere."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np

COSINE_NONE = 0.80
COSINE_FULL = 0.90
WORDS_SHARE = 0.3
# The raw measure (0-1) is read through a logistic centred where the best items of questions memory can
# answer and of questions about things never mentioned cross on our own workspaces (0.15), so that
# relevance 0.5 is the floor: above it an item is more likely an answer than not.
CROSSING = 0.15
STEEPNESS = 12.0
FLOOR = 0.5


def by_meaning(cosine: float) -> float:
    return float(min(1.0, max(0.0, (cosine - COSINE_NONE) / (COSINE_FULL - COSINE_NONE))))


def relevance(cosine: float | None, said: float | None) -> float:
    """An item's relevance from its cosine to the question and the share of the question's words it
    says (None: not measured: no embedding; a question with no content word, read as half said)."""
    if cosine is None and said is None:
        return 0.5  # nothing measured: as likely as not, and no ground to flag the bundle
    meaning = by_meaning(cosine) if cosine is not None else None
    words = 0.5 if said is None else said
    raw = words if meaning is None else (1 - WORDS_SHARE) * meaning + WORDS_SHARE * words
    return round(1 / (1 + math.exp(-STEEPNESS * (raw - CROSSING))), 3)


def words_said(asked: Collection[str], text: Collection[str]) -> float | None:
    """The share of the question's content words `asked` among the item's `text` words (None: none asked)."""
    if not asked:
        return None
    return len(set(asked) & set(text)) / len(set(asked))


def cosines(query: Sequence[float], embeddings: Sequence[Sequence[float] | None]) -> list[float | None]:
    """Each embedding's cosine to the query (None where a unit has none)."""
    q = np.asarray(query, dtype=np.float32)
    q /= max(float(np.linalg.norm(q)), 1e-12)
    out: list[float | None] = []
    for e in embeddings:
        if not e:
            out.append(None)
            continue
        v = np.asarray(e, dtype=np.float32)
        out.append(float(v @ q) / max(float(np.linalg.norm(v)), 1e-12))
    return out


def nothing_relevant(scores: Sequence[float]) -> bool:
    """No item reaches the floor (an empty bundle included)."""
    return not any(s >= FLOOR for s in scores)
