"""A claim's statement says what was said: its modality in the words, never a bare triple that
reads as the opposite; and the times a model gives are read as donto can vouch for them."""

from __future__ import annotations

from datetime import UTC, datetime

from donto.claims.models import standing, statement
from donto.memorize.service import valid_times


def test_a_denial_reads_as_a_denial_whatever_the_predicate_looks_like():
    assert statement("ann", "likes", "fado", "negated") == "ann does NOT like fado"
    assert statement("ann", "lives_in", "faro", "negated") == "ann does NOT live_in faro"
    assert statement("ann", "watches", "tv", "negated") == "ann does NOT watch tv"
    assert statement("ann", "is_married_to", "bo", "negated") == "ann is NOT married_to bo"
    assert statement("ann", "visited", "paris", "negated") == "NOT: ann visited paris"


def test_a_guess_or_a_plan_says_so_and_an_assertion_stays_plain():
    assert statement("ann", "takes_up", "jazz-piano", "possible", True) == "possibly: ann takes_up jazz-piano"
    assert statement("ann", "likes", "jazz", None, True) == "possibly: ann likes jazz"
    assert statement("ann", "moves_to", "porto", "planned") == "planned: ann moves_to porto"
    assert statement("ann", "likes", "fado", "negated", True) == "possibly: ann does NOT like fado"
    assert statement("ann", "likes", "fado") == "ann likes fado"
    assert statement("ann", "likes", "fado", "work-notes") == "ann likes fado"  # a declared context, no modality


def test_standing_follows_the_hypothesis_flag_then_the_count_of_sources():
    assert standing(True, 3) == "hypothetical"
    assert standing(False, 2) == "corroborated"
    assert standing(False, 1) == standing(False, 0) == "asserted"


def test_a_start_donto_cannot_resolve_leaves_the_valid_time_unknown_and_now_is_no_time():
    said = datetime(2024, 1, 10, tzinfo=UTC)
    assert valid_times("as a child", None, said) == (None, None, ["as a child"])
    assert valid_times("these days", None, said) == (said, None, [])
    assert valid_times("since 2019", None, said)[0] == datetime(2019, 1, 1, tzinfo=UTC)
