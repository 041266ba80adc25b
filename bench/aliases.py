"""`python -m bench aliases`: where extraction's alias threshold falls among predicate pairs.

Paraphrase pairs (one predicate another names the same way) and other pairs (antonyms, inverses,
tenses, neighbours) are phrased as memorize phrases them and scored on donto's similarity scale with
the configured model; the report says which pairs reach ALIAS_SIMILARITY, so a change of model or
threshold is judged on the same pairs. No Neo4j."""

from __future__ import annotations

import argparse

from donto.memorize.service import ALIAS_SIMILARITY, _cosine, _phrasing
from donto.memory import Memory
from donto.settings import Settings

PARAPHRASES = (
    *(("lives_in", "resides_in"), ("lives_in", "lives_at"), ("works_at", "employed_at"), ("works_at", "works_for")),
    *(("job_title", "job"), ("married_to", "spouse_of"), ("married_to", "is_married_to"), ("occupation", "profession")),
    *(("likes", "enjoys"), ("born_in", "birthplace"), ("age", "aged"), ("ceo", "chief_executive")),
    *(("has_child", "parent_of"), ("owns", "possesses"), ("studies_at", "attends_school"), ("wrote", "authored")),
    *(("lives_in", "lives_in_city"), ("moved_to", "relocated_to"), ("works_as", "occupation")),
    *(("favorite_color", "favourite_colour"), ("has_pet", "owns_pet")),
)
OTHERS = (
    *(("lives_in", "works_in"), ("lives_in", "born_in"), ("works_at", "lives_at"), ("likes", "dislikes")),
    *(("married_to", "divorced_from"), ("born_in", "died_in"), ("parent_of", "child_of"), ("owns", "sold")),
    *(("works_at", "worked_at"), ("ceo", "cfo"), ("likes", "loves"), ("visited", "lives_in")),
    *(("studies_at", "teaches_at"), ("has_child", "has_sibling"), ("age", "height"), ("job_title", "salary")),
    *(("wants", "has"), ("plays", "watches"), ("bought", "sold"), ("manager_of", "reports_to")),
    *(("moved_to", "moved_from"), ("friend_of", "enemy_of"), ("started", "finished"), ("hired", "fired")),
)


def run(settings: Settings, args: argparse.Namespace) -> int:
    encoder = Memory(settings).encoder  # a Memory opens no connection until asked: the model alone

    def scored(pairs: tuple[tuple[str, str], ...]) -> list[tuple[float, str, str]]:
        vectors = encoder.encode([_phrasing(p) for pair in pairs for p in pair])
        return sorted(
            (encoder.similarity(_cosine(vectors[2 * i], vectors[2 * i + 1])), a, b) for i, (a, b) in enumerate(pairs)
        )

    for name, pairs in (("paraphrases", PARAPHRASES), ("other pairs", OTHERS)):
        rows = scored(pairs)
        reach = [f"{a} / {b} {s:.2f}" for s, a, b in rows if s >= ALIAS_SIMILARITY]
        print(f"{name}: {len(reach)} of {len(rows)} reach {ALIAS_SIMILARITY} [{encoder.name}]: {', '.join(reach)}")
        print("  all: " + ", ".join(f"{a} / {b} {s:.2f}" for s, a, b in rows))
    return 0
