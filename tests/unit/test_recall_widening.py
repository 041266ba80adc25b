"""Recall's over-fetch for vector arms (Neo4j 5.26 cannot filter a vector index by workspace):
how far it widens while the workspace filter leaves too few rows."""

from __future__ import annotations

import pytest

from app.recall.arms import MAX_CANDIDATES, widened

pytestmark = pytest.mark.unit


def asks(found_per_ask: list[int], limit: int) -> list[int]:
    """The candidate counts widened() asks for when each ask finds the next count of rows."""
    seen: list[int] = []

    def fetch(candidates: int) -> list[dict]:
        seen.append(candidates)
        return [{}] * found_per_ask[len(seen) - 1]

    widened(fetch, limit)
    return seen


def test_one_ask_is_enough_when_the_workspace_fills_the_limit():
    assert asks([20], limit=20) == [200]


def test_a_starved_filter_widens_eightfold_and_stops_at_the_cap():
    assert asks([0, 3, 10, 19, 19], limit=20) == [200, 1600, 12800, MAX_CANDIDATES]


def test_a_large_limit_over_fetches_four_times_it():
    assert asks([100], limit=100) == [400]
