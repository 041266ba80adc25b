"""What is true now: three steps recall takes after fusion, pure but for the rows handed in.

- **The latest word first.** A question about the present ("Where does Maria live now?") wants the
  latest statement on the matter, not the one that matched best. Two turns (or document passages)
  are on the same matter when the same person said them (or both came from documents without a
  speaker), in different sessions or documents, and their embeddings are at least SAME_MATTER alike;
  the later one replaced the earlier only where it says what is ("I moved to Glasgow", "I'm a
  researcher now"): a plan, a trip, a visit, a guess or a question replaces nothing (the language's
  `replaces`), and there nothing is moved or said. Among the best units (at least MATTERS_AMONG), a
  replaced statement is followed down its chain (the later statement on its matter that best answers the question, then
  the one that replaced that, ...), each link moved above the one it replaced, and each
  replaced item says what replaced it last (`replaced_by`, and a note in its text): an agent
  reading top-down reads the newest word first, then the older ones, marked.
- **Claims compete.** A claim with no turn behind it is one arm's hit among units that several arms
  found, so it sank below chatter that only shares its words. A current claim now ranks just above
  the best unit it is nearer the question than (each by its own vector arm's cosine, one model, one
  measure); a claim a later one replaced is not lifted, and ranks below its successors.
- **A document's claim brings its sentence**: the passages its evidence span lies in are appended to
  its item's text (render's statement is left as it is).

No LLM, no tuning to questions: one measured constant, SAME_MATTER (design notes), and MATTERS_AMONG,
recall's default bundle size."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from donto.recall.arms import ARMS
from donto.recall.fusion import UNITS, Candidate, ranked
from donto.recall.render import RecallItem, date_label
from donto.temporal.instants import read_instant

# Cosine between two statements' embeddings (e5-small-v2, as stored) from which a later statement by
# the same person is taken to be on the same matter as an earlier one. See docs/explanation/design-notes.md.
SAME_MATTER = 0.85
NOTE_CHARS = 90  # how much of the later statement an earlier item quotes
# A bundle's matters are read among at least this many units (recall's default k): in a bundle of
# three, the latest word on a matter can rank below the three it replaced, and must still lead it.
MATTERS_AMONG = 20


@dataclass(frozen=True)
class Later:
    """The statement that replaced an item's: what the item points to and quotes."""

    unit_id: str
    external_id: str | None
    said: str  # its date label, "" where it has none
    text: str


def latest_first(
    ranking: list[Candidate],
    units: Mapping[str, Mapping[str, Any]],
    top: int,
    replaces: Callable[[str], bool],
    asks: Callable[[str], bool],
) -> tuple[list[Candidate], dict[str, Later]]:
    """`ranking` with, among its best `top` units (`units`: their rows from recall_present_units, by
    id), each statement a later one on its matter replaced followed down its chain of replacements,
    every link above the one it replaced (the latest word first); and, for each replaced unit, the
    latest statement that replaced it. Only a later statement that `replaces` (the language's word that
    it says a change or what holds now, not a plan, a trip, a guess) replaces anything: where it cannot
    tell, the two keep their places and neither says anything of the other. A question (`asks`)
    stated nothing, so nothing replaces it."""
    considered = [c for c in ranking if c.kind in UNITS and c.id in units and units[c.id]["embedding"]][:top]
    if len(considered) < 2:
        return ranking, {}
    rows = [units[c.id] for c in considered]
    vectors = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    alike = vectors @ vectors.T
    times = [read_instant(r["occurredAt"]) for r in rows]
    speakers = [(r["speaker"] or "").strip().lower() for r in rows]
    can_replace = [replaces(r["text"] or "") for r in rows]
    stated = [not asks(r["text"] or "") for r in rows]
    # next_of[i]: of the later statements on i's matter, the one that best answers the question
    next_of: dict[int, int] = {}
    for i, j in ((i, j) for i in range(len(rows)) for j in range(len(rows))):
        ti, tj = times[i], times[j]
        if (
            ti is None
            or tj is None
            or tj <= ti
            or not can_replace[j]
            or not stated[i]
            or speakers[i] != speakers[j]
            or rows[i]["source"] == rows[j]["source"]
            or alike[i, j] < SAME_MATTER
        ):
            continue
        best = next_of.get(i)
        if best is None or considered[j].score > considered[best].score:  # the most to the point of them
            next_of[i] = j
    if not next_of:
        return ranking, {}
    # Moved in the list, not re-sorted by score, and no score changed: the order steps before this one
    # set (the first items spread over sessions, a reranker's) stays where nothing was replaced.
    order = list(ranking)
    replaced: dict[str, Later] = {}
    for i in next_of:
        # Down the chain to the latest word, each link placed above the one it replaced (just above,
        # where it stood below), so the chain reads newest first, every step above the earliest.
        below, j = considered[i], i
        while j in next_of:  # times rise down the chain: it ends
            j = next_of[j]
            link = considered[j]
            if order.index(link) > order.index(below):
                order.remove(link)
                order.insert(order.index(below), link)
            below = link
        row, when = rows[j], times[j]
        said = date_label(when) if when else ""
        replaced[considered[i].id] = Later(considered[j].id, row["externalId"], said, row["text"])
    return order, replaced


def note_replaced(item: RecallItem, later: Later) -> None:
    """The item says a later statement on its matter replaced it, and which."""
    text = later.text if len(later.text) <= NOTE_CHARS else later.text[: NOTE_CHARS - 1].rstrip() + "…"
    when = f"[{later.said}] " if later.said else ""
    item.text = f"{item.text} (a later statement: {when}{text})"
    item.replaced_by = later.external_id or later.unit_id


def note_corrected(item: RecallItem, correction: Mapping[str, Any]) -> None:
    """The item says a later turn corrects it ("sorry, it was July, not August"), and which: its
    external id in `corrected_by`, its words (dated) in the text, as a replaced item quotes its successor."""
    text = correction["text"] or ""
    text = text if len(text) <= NOTE_CHARS else text[: NOTE_CHARS - 1].rstrip() + "…"
    when = read_instant(correction.get("occurredAt"))
    said = f"[{date_label(when)}] " if when else ""
    item.text = f"{item.text} (corrected later: {said}{text})"
    item.corrected_by = correction["externalId"] or correction["correctorId"]


def cosines(names: Sequence[str], rows: Sequence[Sequence[Mapping[str, Any]]]) -> dict[tuple[str, str], float]:
    """Each unit's and lone claim's best cosine to the question over the arms that found it and score by
    cosine (arms.Arm.cosine)."""
    found: dict[tuple[str, str], float] = {}
    for name, arm_rows in zip(names, rows):
        if not ARMS[name].cosine:
            continue
        for row in arm_rows:
            if name == "claim_vector":
                if row.get("turnIds"):
                    continue  # it promotes its turns, which are weighed as turns
                key = ("claim", row["claimId"])
            elif row.get("turnId"):
                key = ("turn", row["turnId"])
            elif row.get("passageId"):
                key = ("passage", row["passageId"])
            else:
                continue
            found[key] = max(found.get(key, 0.0), float(row["score"]))
    return found


def claims_compete(
    ranking: list[Candidate],
    near: Mapping[tuple[str, str], float],
    superseded_by: Mapping[str, Iterable[str]],
) -> list[Candidate]:
    """A current claim ranks just above the best unit it is nearer the question than; a replaced
    claim (`superseded_by`: claim id -> the claims that replaced it) is not lifted, and ranks below
    those of them in the running. Units that no vector arm found (only their words matched) are passed by."""
    claims = [c for c in ranking if c.kind == "claim"]
    if not claims:
        return ranking
    units = [(near.get((c.kind, c.id)), c) for c in ranking if c.kind in UNITS]
    for claim in claims:
        if claim.id in superseded_by:
            continue
        mine = near.get(("claim", claim.id))
        if mine is None:
            continue
        beaten = [u.score for cosine, u in units if cosine is None or cosine < mine]
        if beaten and max(beaten) >= claim.score:
            claim.score = math.nextafter(max(beaten), math.inf)
    by_id = {c.id: c for c in claims}
    for claim in claims:
        successors = [by_id[s] for s in superseded_by.get(claim.id, ()) if s in by_id]
        if successors:
            below = min(s.score for s in successors)
            claim.score = min(claim.score, math.nextafter(below, -math.inf))
    return ranked(ranking)


def with_sentence(item: RecallItem, source: Mapping[str, Any]) -> None:
    """A document's claim reads with the sentences it was extracted from (recall_claim_passages)."""
    if source["passages"]:
        where = f" ({source['title']})" if source["title"] else ""
        item.text = f"{item.text} — from the document{where}: {' '.join(source['passages'])}"
