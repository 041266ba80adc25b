"""A later turn that corrects an earlier one, linked without an LLM where its words say so:
`(later:Turn)-[:CORRECTS]->(earlier:Turn)`.

"Sorry, it was July, not August" corrects the speaker's own earlier turn of the same session that
said August. The language (recall/language.py: `correction`, `corrects`) reads the words; this
module picks the earlier turn and writes the link, in the write transaction of the turns, at its
transaction time:

- only the correcting turn's own speaker's live turns of the same session, before it, at most
  CORRECTION_WINDOW turns of the session back (the turns of the same request included);
- the earlier turn must say the value taken back ("August"), or, where the correction names only
  the right value ("sorry, I meant July"), exactly one other value of its kind (one month);
- of several earlier turns that do, the nearest: a speaker corrects what they said last, and an
  older mention of the same value is left as it was. One link a correcting turn, none when unsure.

Reads show the mark while the correcting turn is live and the link was recorded by their
`known_at` (cypher/session_turns.cypher, turn_get, recall_turn_corrections)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto.graph.client import GraphClient
from donto.recall.language import Language

# How far back a correction reaches: turns of the session (every speaker's) before the correcting one.
CORRECTION_WINDOW = 50


def links(new: Sequence[Mapping[str, Any]], held: Sequence[Mapping[str, Any]], language: Language) -> list[dict]:
    """The CORRECTS links for the `new` turns (rows with id, seq, speaker, text), among `held` (the
    session's recent live turns, the new ones included, as episode_correction_candidates reads them):
    each new turn whose words correct something, to the nearest earlier turn of its speaker within
    CORRECTION_WINDOW that said what it takes back."""
    found = []
    for turn in new:
        correction = language.correction(turn["text"] or "")
        if correction is None:
            continue
        earlier = [
            t
            for t in held
            if turn["seq"] - CORRECTION_WINDOW <= t["seq"] < turn["seq"] and t["speaker"] == turn["speaker"]
        ]
        for candidate in sorted(earlier, key=lambda t: -t["seq"]):
            if language.corrects(candidate["text"] or "", correction):
                found.append(
                    {
                        "later": turn["id"],
                        "earlier": candidate["id"],
                        "value": correction.value,
                        "replaced": correction.replaced,
                    }
                )
                break
    return found


def write_corrections(
    graph: GraphClient,
    tx: ManagedTransaction,
    workspace: str,
    session_external_id: str,
    new: Sequence[Mapping[str, Any]],
    recorded_at: datetime,
    language: Language,
) -> int:
    """Link the `new` turns just written (in `tx`, at `recorded_at`) to the earlier turns they
    correct; the number of links written. Reads nothing where no new turn's words correct."""
    correcting = [t for t in new if language.correction(t["text"] or "") is not None]
    if not correcting:
        return 0
    first = min(t["seq"] for t in correcting)
    last = max(t["seq"] for t in correcting)
    held = graph.run(
        tx,
        "episode_correction_candidates",
        workspace=workspace,
        session_external_id=session_external_id,
        speakers=sorted({t["speaker"] for t in correcting}),
        from_seq=first - CORRECTION_WINDOW,
        to_seq=last,
    )[0]["rows"]
    found = links(correcting, held, language)
    if not found:
        return 0
    return graph.run(tx, "turns_correct", workspace=workspace, recorded_at=recorded_at, links=found)[0]["linked"]
