"""Relevance on its own scale: an item's cosine and the question's words it says, 0.5 the floor."""

from __future__ import annotations

import pytest

from donto.recall.english import ENGLISH
from donto.recall.relevance import FLOOR, nothing_relevant, relevance, words_said

pytestmark = pytest.mark.unit


def test_an_item_near_the_question_and_saying_its_words_is_relevant_and_one_far_from_it_is_not():
    assert relevance(0.90, 1.0) > 0.99
    assert relevance(0.86, 0.5) > FLOOR
    assert relevance(0.78, 0.0) < 0.2
    assert 0.0 <= relevance(0.0, 0.0) <= relevance(1.0, 1.0) <= 1.0


def test_nothing_measured_is_no_ground_to_flag_a_bundle():
    assert relevance(None, None) == FLOOR
    assert not nothing_relevant([relevance(None, None)])
    assert nothing_relevant([]) and nothing_relevant([0.1, 0.3])


def test_the_question_s_words_meet_the_same_words_in_another_form_past_stop_words():
    asked = ENGLISH.content_words("What car does Lena drive?") - ENGLISH.content_words("Lena")
    assert words_said(asked, ENGLISH.content_words("She drives an old blue car to work.")) == 1.0
    assert words_said(asked, ENGLISH.content_words("I love my flat in Headingley.")) == 0.0
    assert words_said(set(), ENGLISH.content_words("anything")) is None
