"""How far a vector arm widens its search when the time scope (filtered after the index) leaves
fewer rows than it needs: only reads as of the past do."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.recall.arms import CANDIDATES_PER_RESULT, MAX_CANDIDATES, widened
from app.temporal.instants import utc_now
from app.temporal.scope import TimeScope

pytestmark = pytest.mark.unit


def asks(found_per_ask: list[int], limit: int) -> list[int]:
    """The candidate counts asked for, the first by all arms' statement (limit x 4) and the rest by
    widened(), when each ask finds the next count of rows."""
    seen = [limit * CANDIDATES_PER_RESULT]

    def fetch(candidates: int) -> list[dict]:
        seen.append(candidates)
        return [{}] * found_per_ask[len(seen) - 1]

    widened(fetch, limit, [{}] * found_per_ask[0])
    return seen


def test_one_ask_is_enough_when_the_scope_leaves_the_limit():
    assert asks([20], limit=20) == [80]


def test_a_starved_scope_widens_eightfold_and_stops_at_the_cap():
    assert asks([0, 3, 10, 19, 19], limit=20) == [80, 640, 5120, MAX_CANDIDATES]


def test_only_a_scope_in_the_past_looks_back():
    now = utc_now()
    assert not TimeScope.now().looks_back()
    assert TimeScope(valid_at=now, known_at=now - timedelta(hours=1)).looks_back()
    assert TimeScope(valid_at=now - timedelta(days=3), known_at=now).looks_back()
