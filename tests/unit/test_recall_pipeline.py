"""Recall's pipeline as declared: each stage says what it does, and the stages that only order come
after every stage that scores, so that no sort by score undoes an order they set."""

from __future__ import annotations

import pytest

from donto.recall.english import ENGLISH
from donto.recall.service import PIPELINE

pytestmark = pytest.mark.unit

KINDS = ("reads", "scores", "orders", "renders")


def test_every_stage_is_named_once_and_says_what_it_does():
    names = [stage.name for stage in PIPELINE]
    assert len(names) == len(set(names))
    assert all(stage.does in KINDS for stage in PIPELINE)


def test_no_stage_scores_after_one_that_orders_and_rendering_comes_last():
    kinds = [stage.does for stage in PIPELINE]
    first_order = kinds.index("orders")
    assert "scores" not in kinds[first_order:]
    first_render = kinds.index("renders")
    assert set(kinds[first_render:]) == {"renders"}


def test_a_plan_a_guess_a_question_or_a_trip_cannot_replace_and_a_plain_statement_can():
    for tentative in (
        "Thinking about a hiking trip to Skye in May, if work lets me.",
        "Maybe I will get a dog someday, not sure.",
        "Should I move to Leeds?",
        "I visited Amsterdam for a weekend, the canals were lovely.",
    ):
        assert not ENGLISH.replaces(tentative), tentative
    for stated in (
        "I left nursing and moved to Glasgow in August.",
        "I'm a UX researcher at Medly now.",
        "The doctor raised my atorvastatin to 20 mg.",
    ):
        assert ENGLISH.replaces(stated), stated
