"""Recall's arms as declared in app/recall/arms.py agree with their Cypher files, and run together in
one statement without one arm's parameters overriding another's."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from donto.graph.queries import QueryLibrary
from donto.recall.arms import ARMS, QueryVectors, arm_params, merge_params
from donto.recall.question import read
from donto.temporal.scope import TimeScope

pytestmark = pytest.mark.unit

SEARCHED_INDEX = re.compile(r"VECTOR INDEX (\w+) FOR|fulltext\.queryNodes\('(\w+)'")


def test_each_arm_names_the_index_its_query_searches():
    # An arm is left out of recall while its index builds; a wrong name would fail the whole recall instead.
    library = QueryLibrary()
    for arm in ARMS.values():
        searched = {a or b for a, b in SEARCHED_INDEX.findall(library[arm.query].text)}
        assert searched == ({arm.index} if arm.index else set()), arm.name


def test_every_arm_fires_together_without_two_giving_one_parameter_different_values():
    scope = TimeScope(valid_at=datetime(2024, 1, 1, tzinfo=UTC), known_at=datetime(2024, 1, 1, tzinfo=UTC))
    params: dict = {"workspace": "w", **scope.params()}
    for arm in ARMS.values():
        own = arm_params(
            arm, read("what did Caroline do in May 2023?", scope.known_at), QueryVectors([0.1, 0.2], [0.3, 0.4]), 20
        )
        assert own is not None, arm.name
        merge_params(params, own, arm.name)
    assert params["candidates"] == params["limit"] == 20 and params["fulltext_candidates"] == 80


def test_a_parameter_two_arms_set_differently_is_refused_by_name():
    params = {"candidates": 20}
    with pytest.raises(ValueError, match=r"'fulltext' sets \$candidates to 80"):
        merge_params(params, {"candidates": 80}, "fulltext")
    merge_params(params, {"candidates": 20, "lucene": "x"}, "turn_vector")
    assert params == {"candidates": 20, "lucene": "x"}
