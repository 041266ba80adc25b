"""The retrieval penalty's ordering (app/subjects/ranking.py): what outranks what at equal similarity."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from donto.subjects.ranking import Candidate, score, weight

pytestmark = pytest.mark.unit

NOW = datetime(2026, 6, 1, tzinfo=UTC)
CURRENT = 5


def observation(days_old: float = 30, generation: int = CURRENT - 1, **kw) -> Candidate:
    written = NOW - timedelta(days=days_old)
    return Candidate(
        "observation", kw.pop("similarity", 0.6), generation, written, kw.pop("reinforced_at", written), **kw
    )


def understanding(days_old: float = 30, **kw) -> Candidate:
    written = NOW - timedelta(days=days_old)
    return Candidate("understanding", kw.pop("similarity", 0.6), CURRENT - 1, written, written, **kw)


def ranked(**candidates: Candidate) -> list[str]:
    return sorted(candidates, key=lambda name: -score(candidates[name], CURRENT, NOW))


def test_an_understanding_outranks_the_observation_it_covers():
    assert ranked(raw=observation(covered=True), synthesis=understanding()) == ["synthesis", "raw"]


def test_an_unconsolidated_observation_outranks_an_old_covered_one():
    assert ranked(old=observation(covered=True), new=observation(days_old=0, generation=CURRENT)) == ["new", "old"]


def test_a_fresh_unconsolidated_observation_can_outrank_an_understanding():
    # the recency boost is what lets new, not yet consolidated knowledge surface (seed 002)
    assert ranked(u=understanding(days_old=200), new=observation(days_old=0, generation=CURRENT)) == ["new", "u"]


def test_recent_outranks_old_and_reinforcement_slows_the_decay():
    assert ranked(week=observation(days_old=7), year=observation(days_old=365)) == ["week", "year"]
    old = NOW - timedelta(days=365)
    used = observation(days_old=365, reinforced_at=NOW - timedelta(days=1))
    assert ranked(idle=observation(days_old=365), reinforced=used) == ["reinforced", "idle"]
    assert old < used.reinforced_at


def test_provenance_confidence_usefulness_and_doubt():
    assert ranked(sure=observation(confidence=1.0), unsure=observation(confidence=0.1)) == ["sure", "unsure"]
    assert ranked(useful=observation(useful=2), plain=observation()) == ["useful", "plain"]
    assert ranked(doubted=observation(questionable=1), plain=observation()) == ["plain", "doubted"]
    assert weight(observation(questionable=1, useful=1), CURRENT, NOW) == weight(observation(useful=1), CURRENT, NOW)


def test_similarity_still_dominates_the_penalty():
    worst = observation(days_old=3650, covered=True, confidence=0.0, questionable=2, similarity=0.9)
    best = observation(days_old=0, generation=CURRENT, confidence=1.0, useful=3, similarity=0.15)
    assert score(worst, CURRENT, NOW) > score(best, CURRENT, NOW)
    assert 0.15 < weight(worst, CURRENT, NOW) < weight(best, CURRENT, NOW) < 2.0
