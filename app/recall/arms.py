"""Recall arms: what each one searches (declared as data) and how one is run against the graph.

An arm is one named query in cypher/ that ranks turns, passages, sessions or claims for a
question. The steps after fusion (neighbours, sessions, speakers) are not indexes, but can be
switched on and off by name like the arms."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import time as dtime
from typing import Any

from app.graph.client import GraphClient
from app.recall.lucene import lucene_query
from app.temporal.phrases import resolve_time_expressions
from app.temporal.scope import TimeScope

# Candidates an index arm ranks before the time scope (and, for full text, the workspace) filters them
# down to its limit. Vector arms search one workspace's vectors (filtered inside the index); their time
# filters have no place in SEARCH's WHERE (they need OR), so they keep this headroom.
CANDIDATES_PER_RESULT = 4
# A read as of the past may find most of the workspace's nearest vectors too new: the arm then asks
# for more candidates, at most this many.
MAX_CANDIDATES = 20_000


@dataclass(frozen=True)
class Arm:
    name: str  # the `source` tag of items it finds
    query: str  # its file in cypher/
    uses_vector: bool
    holds: str | None  # "turns" or "claims": what the workspace must hold for this arm to find anything
    needs_time: bool = False  # fires only when the query names a time


ARMS: dict[str, Arm] = {
    arm.name: arm
    for arm in (
        Arm("turn_vector", query="recall_turn_vector", uses_vector=True, holds="turns"),
        Arm("passage_vector", query="recall_passage_vector", uses_vector=True, holds="turns"),
        Arm("exchange_vector", query="recall_exchange_vector", uses_vector=True, holds="turns"),
        Arm("claim_vector", query="recall_claim_vector", uses_vector=True, holds="claims"),
        Arm("fulltext", query="recall_fulltext", uses_vector=False, holds=None),
        Arm("session_fulltext", query="recall_session_fulltext", uses_vector=False, holds="turns"),
        Arm("time_window", query="recall_time_window", uses_vector=True, holds="turns", needs_time=True),
    )
}
NEIGHBOURS = "neighbours"  # not an index: the ±1 turns around the strongest hits
SESSIONS = "sessions"  # not an index: turns gain from the strength of their session
SPEAKERS = "speakers"  # not an index: turns said by someone the query names gain
ARM_NAMES = (*ARMS, NEIGHBOURS, SESSIONS, SPEAKERS)


def run_arm(
    graph: GraphClient,
    arm: Arm,
    workspace: str,
    question: str,
    vector: list[float] | None,
    limit: int,
    scope: TimeScope,
) -> list[dict[str, Any]]:
    """The arm's ranked rows for the question, best first (at most `limit`)."""
    params: dict[str, Any] = {"workspace": workspace, **scope.params()}
    if arm.needs_time:
        window = time_window(question, scope.known_at)
        if window is None:
            return []
        return graph.read_list(arm.query, vector=vector, limit=limit, **window, **params)
    candidates = limit * CANDIDATES_PER_RESULT
    if not arm.uses_vector:
        lucene = lucene_query(question)
        if lucene is None:
            return []
        return graph.read_list(arm.query, lucene=lucene, candidates=candidates, limit=limit, **params)

    def fetch(candidates: int) -> list[dict[str, Any]]:
        return graph.read_list(arm.query, vector=vector, candidates=candidates, limit=limit, **params)

    return widened(fetch, limit) if scope.looks_back() else fetch(candidates)


def widened(fetch: Callable[[int], list[dict[str, Any]]], limit: int) -> list[dict[str, Any]]:
    """fetch(candidates)'s rows, asking for 8x more candidates while the time scope leaves fewer than
    `limit` of them, up to MAX_CANDIDATES."""
    candidates = limit * CANDIDATES_PER_RESULT
    while True:
        rows = fetch(candidates)
        if len(rows) >= limit or candidates >= MAX_CANDIDATES:
            return rows
        candidates = min(candidates * 8, MAX_CANDIDATES)


def time_window(question: str, now: datetime) -> dict[str, Any] | None:
    """The time a question names ("in May 2023", "on 8 May, 2023", "last week"), as the parameters
    of the time-window arm; a day gets a day's slack either side for time zones."""
    mentions = resolve_time_expressions(question, now)
    if not mentions:
        return None
    first = mentions[0]
    slack = timedelta(days=1 if first.granularity == "day" else 0)
    try:
        start, end = first.date_from - slack, first.date_to + slack
        return {
            "date_from": start,
            "date_to": end,
            "window_from": datetime.combine(start, dtime.min, tzinfo=UTC),
            "window_to": datetime.combine(end + timedelta(days=1), dtime.min, tzinfo=UTC),
        }
    except OverflowError:  # a day at the very edge of the calendar: recall without the window
        return None
