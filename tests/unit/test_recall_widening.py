"""How far a vector arm widens its search when the time scope (filtered after the index) leaves
fewer rows than it needs: only while the index gave all it was asked for, so may hold more."""

from __future__ import annotations

import pytest

from donto.recall.arms import MAX_CANDIDATES, widened

pytestmark = pytest.mark.unit


def asks(answers: list[tuple[int, int]], limit: int, when_empty: bool = False) -> list[int]:
    """The candidate counts asked for, the first by all arms' statement (the limit) and the rest by
    widened(), when each ask's index gives answers[i] = (searched, rows left by the time scope)."""
    seen = [limit]

    def rows(searched: int, left: int) -> list[dict]:
        return [{"searched": searched}] * left

    def fetch(candidates: int) -> list[dict]:
        seen.append(candidates)
        return rows(*answers[len(seen) - 1])

    widened(fetch, limit, rows(*answers[0]), when_empty=when_empty)
    return seen


def test_one_ask_is_enough_when_the_scope_leaves_the_limit():
    assert asks([(20, 20)], limit=20) == [20]


def test_a_starved_scope_widens_eightfold_and_stops_at_the_cap():
    answers = [(20, 3), (160, 10), (1280, 19), (10240, 19), (MAX_CANDIDATES, 19)]
    assert asks(answers, limit=20) == [20, 160, 1280, 10240, MAX_CANDIDATES]


def test_an_index_that_gave_fewer_than_asked_holds_no_more():
    assert asks([(12, 5)], limit=20) == [20]
    assert asks([(20, 3), (90, 8)], limit=20) == [20, 160]


def test_nothing_found_widens_only_when_asked_to():
    assert asks([(0, 0)], limit=20) == [20]
    assert asks([(0, 0), (160, 0), (1280, 30)], limit=20, when_empty=True) == [20, 160, 1280]
