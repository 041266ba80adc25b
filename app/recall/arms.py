"""Recall arms: what each one searches (declared as data) and how one is run against the graph.

An arm is one named query in cypher/ that ranks turns, passages, sessions or claims for a
question. The steps after fusion (neighbours, sessions, speakers) are not indexes, but can be
switched on and off by name like the arms."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from donto.errors import IndexUnavailable
from donto.graph.client import GraphClient
from donto.recall.coverage import COVER_ARMS, SPEAKER_COVER, TEXT_COVER, VECTOR_COVER, cover_params
from donto.recall.question import Question
from donto.temporal.scope import TimeScope

log = logging.getLogger(__name__)

# Candidates the full-text arm ranks before the workspace and time scope filter them down to its limit.
CANDIDATES_PER_RESULT = 4
# A vector arm searches one workspace's vectors (filtered inside the index) and asks for just its limit:
# an HNSW search's cost grows with how many it is asked for (over 1M claims, 240 took 46 ms where 60
# took 26). The time scope has no place in SEARCH's WHERE (it needs OR), so when it leaves fewer than
# the limit and the index had more to give, the arm asks again for more (see widened), at most this many.
MAX_CANDIDATES = 20_000


@dataclass(frozen=True)
class QueryVectors:
    """The vector arms' queries. `units` for turns and passages: the question with the speakers it
    names said as "they" (addressed.impersonal), since every turn is embedded with its speaker's
    label; `claims` for claims: the question as asked, since a claim's subject is what it is about."""

    units: list[float]
    claims: list[float]


@dataclass(frozen=True)
class Arm:
    name: str  # the `source` tag of items it finds
    query: str  # its file in cypher/
    uses_vector: bool
    # "turns", "claims", "documents": the workspace must hold one of these for the arm to find anything
    holds: tuple[str, ...]
    index: str | None  # the vector or full-text index it searches: while that one builds, the arm is left out
    needs_time: bool = False  # fires only when the query names a time
    widens: bool = True  # a vector arm asks again for more when the time scope leaves it short
    # Its rows' `score` is the unit's (or claim's) cosine to the question, one model, one measure: the
    # steps that weigh how near a unit is (present.claims_compete) read it. A coverage arm's or the time
    # window's rows are ranked by other things first.
    cosine: bool = False


ARMS: dict[str, Arm] = {
    arm.name: arm
    for arm in (
        Arm(
            "turn_vector",
            query="recall_turn_vector",
            uses_vector=True,
            holds=("turns",),
            index="turn_embedding",
            cosine=True,
        ),
        Arm(
            "passage_vector",
            query="recall_passage_vector",
            uses_vector=True,
            holds=("turns", "documents"),
            index="passage_embedding",
            cosine=True,
        ),
        Arm(
            "exchange_vector",
            query="recall_exchange_vector",
            uses_vector=True,
            holds=("turns",),
            index="turn_context_embedding",
            cosine=True,
        ),
        Arm(
            "passage_context_vector",
            query="recall_passage_context_vector",
            uses_vector=True,
            holds=("documents",),
            index="passage_context_embedding",
            cosine=True,
        ),
        Arm(
            "claim_vector",
            query="recall_claim_vector",
            uses_vector=True,
            holds=("claims",),
            index="claim_embedding",
            cosine=True,
        ),
        Arm("fulltext", query="recall_fulltext", uses_vector=False, holds=(), index="recall_search"),
        Arm(
            "session_fulltext",
            query="recall_session_fulltext",
            uses_vector=False,
            holds=("turns",),
            index="session_text",
        ),
        Arm(
            "document_fulltext",
            query="recall_document_fulltext",
            uses_vector=False,
            holds=("documents",),
            index="document_text",
        ),
        Arm(
            VECTOR_COVER,
            query="recall_session_cover",
            uses_vector=True,
            holds=("turns",),
            index="turn_embedding",
            widens=False,  # one turn a session: fewer rows than its limit says nothing of the index
        ),
        Arm(TEXT_COVER, query="recall_session_cover_text", uses_vector=False, holds=("turns",), index="recall_search"),
        Arm(
            SPEAKER_COVER,
            query="recall_speaker_cover",
            uses_vector=True,
            holds=("turns",),
            index="turn_embedding",
            widens=False,
        ),
        Arm(
            "time_window",
            query="recall_time_window",
            uses_vector=True,
            holds=("turns", "documents"),
            index=None,
            needs_time=True,
        ),
    )
}
NEIGHBOURS = "neighbours"  # not an index: the ±1 turns or document passages around the strongest hits
SESSIONS = "sessions"  # not an index: turns gain from the strength of their session, passages of their document
SPEAKERS = "speakers"  # not an index: turns said by someone the query names gain
ARM_NAMES = (*ARMS, NEIGHBOURS, SESSIONS, SPEAKERS)


def arm_params(
    arm: Arm, question: Question, vectors: QueryVectors | None, limit: int, sessions: Sequence[str] | None = None
) -> dict[str, Any] | None:
    """The parameters of the arm's query beyond the workspace, time scope and sessions, or None where it
    cannot fire: a full-text arm when the question has no searchable word, the time-window arm
    when it names no time, an arm of documents alone when the recall keeps to `sessions`."""
    if sessions is not None and arm.holds == ("documents",):
        return None
    if vectors is not None and arm.name == "claim_vector":
        return {"claim_vector": vectors.claims, "candidates": limit, "limit": limit}
    units = vectors.units if vectors is not None else None
    if arm.name in COVER_ARMS:
        return cover_params(arm.name, question, units, limit)
    if arm.needs_time:
        window = question.window
        return None if window is None else {"vector": units, "limit": limit, **window}
    if not arm.uses_vector:
        if question.lucene is None:
            return None
        # Its own name: the vector arms' `candidates` (their limit) is another value in the same statement.
        return {"lucene": question.lucene, "fulltext_candidates": limit * CANDIDATES_PER_RESULT, "limit": limit}
    return {"vector": units, "candidates": limit, "limit": limit}


def merge_params(params: dict[str, Any], own: dict[str, Any], arm: str) -> None:
    """Adds an arm's parameters to the one statement's. Arms share a name only where they mean the
    same value: a clash would silently give one arm another's value (it once made every vector arm
    ask its index for the full-text arm's 4x headroom), so it is a bug to fail on, loudly."""
    for name, value in own.items():
        if name in params and params[name] != value:
            raise ValueError(f"recall arm {arm!r} sets ${name} to {value!r}, another arm to {params[name]!r}")
        params[name] = value


@dataclass(frozen=True)
class ArmsFound:
    rows: list[list[dict[str, Any]]]  # each arm's, in the order asked
    holds: dict[str, bool]  # {"turns": ..., "claims": ..., "documents": ...}
    unavailable: tuple[str, ...] = ()  # arms left out: their index is being built or missing
    linked: dict[str, list[str]] = field(default_factory=dict)  # a key the question names -> keys SAME_AS it


def run_arms(
    graph: GraphClient,
    arms: Sequence[Arm],
    workspace: str,
    question: Question,
    vectors: QueryVectors | None,
    limit: int,
    scope: TimeScope,
    follow_identity: bool = True,
    sessions: Sequence[str] | None = None,
) -> ArmsFound:
    """Each arm's ranked rows for the question, best first (at most `limit`), all arms and what the
    workspace holds in one statement; with `sessions` (external ids), only those sessions' turns and
    passages and the claims their turns are evidence of. A vector arm the time scope left short asks again for more
    (see widened). An arm whose index is not online (Neo4j still building it after a schema upgrade,
    or `donto reembed` rebuilding it) is left out, and named in `unavailable`, rather than failing
    the whole recall."""
    params: dict[str, Any] = {"workspace": workspace, **scope.params()}
    params["mentions"] = question.mentions if follow_identity else []
    params["sessions"] = list(sessions) if sessions is not None else None
    firing = []
    for arm in arms:
        own = arm_params(arm, question, vectors, limit, sessions)
        if own is None:
            continue
        firing.append(arm)
        merge_params(params, own, arm.name)
    unavailable: list[str] = []
    while True:
        try:
            found = graph.read_lists(
                ["recall_workspace_holds", "recall_identity", *(arm.query for arm in firing)],
                **params,
            )
            break
        except IndexUnavailable as exc:
            waiting = [arm for arm in firing if arm.index == exc.index]
            if not waiting:
                raise
            log.warning("recall runs without %s: %s", [a.name for a in waiting], exc.message)
            unavailable += [arm.name for arm in waiting]
            firing = [arm for arm in firing if arm not in waiting]
    holds = found.pop("recall_workspace_holds")[0]
    linked = {row["key"]: list(row["linked"]) for row in found.pop("recall_identity")}
    for arm in firing:
        if arm.uses_vector and arm.widens and not arm.needs_time:
            # An arm that found nothing says nothing of what the index holds (the time scope may have
            # left none of a full answer): it asks again where the workspace holds the arm's kind.
            found[arm.query] = widened(
                lambda candidates: graph.read_list(arm.query, **{**params, "candidates": candidates}),  # noqa: B023
                limit,
                found[arm.query],
                when_empty=not arm.holds or any(holds[kind] for kind in arm.holds),
            )
    return ArmsFound([found.get(arm.query, []) for arm in arms], holds, tuple(unavailable), linked)


def widened(
    fetch: Callable[[int], list[dict[str, Any]]], limit: int, rows: list[dict[str, Any]], when_empty: bool
) -> list[dict[str, Any]]:
    """`rows` (what `limit` candidates left after the time scope), else fetch(candidates)'s, asking
    for 8x more candidates, up to MAX_CANDIDATES, while fewer than `limit` remain and the index gave
    all it was asked for (each row says how many: `searched`), so that it may hold more. Rows that
    are none say nothing of the index: then it asks again only `when_empty`."""
    candidates = limit
    while len(rows) < limit and candidates < MAX_CANDIDATES:
        index_holds_no_more = rows[0]["searched"] < candidates if rows else not when_empty
        if index_holds_no_more:
            break
        candidates = min(candidates * 8, MAX_CANDIDATES)
        rows = fetch(candidates)
    return rows
