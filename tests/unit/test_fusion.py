"""Recall's fusion on hand-made rankings: no graph, no model."""

from __future__ import annotations

import pytest

from donto.recall.fusion import (
    Candidate,
    add_neighbours,
    boost_speakers,
    chosen_items,
    credit_groups,
    fuse,
    ranked,
    spread_over_groups,
    weigh_groups,
)
from donto.recall.question import read
from donto.recall.recipes import DEFAULT, Recipe, route

RECIPE = Recipe(rrf_k=10)


def fused(*arms: tuple[str, float, list[dict]], recipe: Recipe = RECIPE) -> dict[tuple[str, str], Candidate]:
    candidates: dict[tuple[str, str], Candidate] = {}
    for name, weight, rows in arms:
        fuse(candidates, name, weight, rows, recipe)
    return candidates


def turns(*ids: str) -> list[dict]:
    return [{"turnId": i} for i in ids]


def test_reciprocal_rank_scores_add_up_across_arms():
    c = fused(("a", 1.0, turns("t1", "t2")), ("b", 1.0, turns("t2", "t3")))
    assert c[("turn", "t1")].score == pytest.approx(1 / 11)
    assert c[("turn", "t2")].score == pytest.approx(1 / 12 + 1 / 11)
    assert [x.id for x in ranked(c.values())] == ["t2", "t1", "t3"]


def test_an_arm_counts_a_thing_once_at_its_best_rank():
    c = fused(("a", 1.0, turns("t1", "t1", "t2")))
    assert c[("turn", "t1")].score == pytest.approx(1 / 11)
    assert c[("turn", "t2")].score == pytest.approx(1 / 12)  # the repeat took no rank


def test_weights_scale_an_arms_share_and_the_source_is_the_biggest_share():
    c = fused(("weak", 0.5, turns("t1")), ("strong", 2.0, turns("t2", "t1")))
    assert c[("turn", "t1")].arms == pytest.approx({"weak": 0.5 / 11, "strong": 2.0 / 12})
    assert c[("turn", "t1")].source == "strong"


def test_a_claim_hit_promotes_every_turn_it_cites_and_remembers_the_claim():
    c = fused(("claim_vector", 1.0, [{"claimId": "c1", "turnIds": ["t1", "t2"]}, {"claimId": "c2"}]))
    assert c[("turn", "t1")].score == c[("turn", "t2")].score == pytest.approx(1 / 11)
    assert c[("turn", "t1")].claim_ids == ["c1"]
    assert c[("claim", "c2")].score == pytest.approx(1 / 12)  # a claim with no turn stands alone


def test_dated_passages_gain_the_recipes_dated_boost():
    recipe = Recipe(rrf_k=10, dated_boost=1.5)
    c = fused(("passage_vector", 1.0, [{"turnId": "t1", "dated": True}, {"turnId": "t2"}]), recipe=recipe)
    assert c[("turn", "t1")].score == pytest.approx(1.5 / 11)
    assert c[("turn", "t2")].score == pytest.approx(1 / 12)


PLACES = {
    "p1": {"documentId": "d1", "previousId": None, "nextId": "p2"},
    "p2": {"documentId": "d1", "previousId": "p1", "nextId": None},
    "t1": {"sessionExternalId": "s1", "speaker": "Melanie", "previousId": None, "nextId": "t2"},
    "t2": {"sessionExternalId": "s1", "speaker": "Caroline", "previousId": "t1", "nextId": "t3"},
    "t3": {"sessionExternalId": "s1", "speaker": "Melanie", "previousId": "t2", "nextId": None},
    "u1": {"sessionExternalId": "s2", "speaker": "Caroline", "previousId": None, "nextId": None},
}


def test_a_session_hit_lifts_the_turns_of_that_session_only():
    c = fused(("fulltext", 1.0, turns("u1", "t1")), ("session_fulltext", 1.0, [{"sessionExternalId": "s1"}]))
    session = {("session", "s1"): c.pop(("session", "s1"))}
    order = credit_groups(ranked(c.values()), PLACES, session)
    assert [x.id for x in order] == ["t1", "u1"]
    assert order[0].source == "fulltext"  # the arm that found it stays its source


def test_a_document_passage_stands_for_itself_and_a_document_hit_lifts_its_passages_only():
    c = fused(
        ("fulltext", 1.0, [{"turnId": "u1"}, {"passageId": "p2", "place": {"documentId": "d1"}}]),
        ("document_fulltext", 1.0, [{"documentId": "d1"}]),
    )
    assert c[("passage", "p2")].score == pytest.approx(1 / 12)
    document = {("document", "d1"): c.pop(("document", "d1"))}
    order = credit_groups(ranked(c.values()), PLACES, document)
    assert [(x.kind, x.id) for x in order] == [("passage", "p2"), ("turn", "u1")]


def test_neighbours_of_a_strong_document_passage_are_its_passages():
    c = fused(("a", 1.0, [{"passageId": "p1"}]))
    order = add_neighbours(ranked(c.values()), PLACES, Recipe(rrf_k=10, neighbours_of=1, neighbour_share=0.5), c)
    assert [(x.kind, x.id) for x in order] == [("passage", "p1"), ("passage", "p2")]


def test_turns_said_by_someone_the_question_names_are_boosted():
    c = fused(("fulltext", 1.0, turns("t2", "t1")))
    order = boost_speakers(
        ranked(c.values()), PLACES, read("What does Melanie paint?").words, Recipe(rrf_k=10, speaker_boost=1.5)
    )
    assert [x.id for x in order] == ["t1", "t2"]


def test_a_turn_gains_from_its_sessions_other_strong_turns():
    c = fused(("a", 1.0, turns("u1", "t1", "t2", "t3")))
    order = weigh_groups(ranked(c.values()), PLACES, Recipe(rrf_k=10, session_share=0.25, session_depth=3))
    assert order[0].id == "t1"  # s1's three hits outweigh u1's lone first place


def test_neighbours_of_the_strongest_turns_join_below_their_hit():
    c = fused(("a", 1.0, turns("t2")))
    order = add_neighbours(ranked(c.values()), PLACES, Recipe(rrf_k=10, neighbours_of=1, neighbour_share=0.5), c)
    assert [x.id for x in order] == ["t2", "t1", "t3"]
    assert order[1].score == pytest.approx(order[0].score * 0.5) and order[1].source == "neighbours"


def test_ties_keep_the_order_the_arms_were_fused_in():
    c = fused(("a", 1.0, turns("x")), ("b", 1.0, turns("y")))
    assert [x.id for x in ranked(c.values())] == ["x", "y"]


def test_routing_favours_dated_passages_for_when_questions_and_full_text_for_names():
    when = route(read("When did she go to the support group?"))
    assert when.weights["passage_vector"] == DEFAULT.weights["passage_vector"] * 1.5 and when.dated_boost == 1.5
    named = route(read("what did she say about Oscar"))
    assert named.weights["fulltext"] == DEFAULT.weights["fulltext"] * 1.5
    plain = route(read("what does she like to eat"))
    assert plain.weights == DEFAULT.weights


def test_asking_for_some_arms_switches_the_steps_off_unless_named():
    only = DEFAULT.only(["fulltext", "neighbours"])
    assert set(only.weights) == {"fulltext"} and only.neighbours_of == DEFAULT.neighbours_of
    assert only.session_share == 0.0 and only.speaker_boost == 1.0


def test_a_lines_adjacent_passages_come_back_as_one_item_and_free_their_slots():
    ranking = [Candidate("passage", "a2"), Candidate("turn", "t1"), Candidate("passage", "a3"),
               Candidate("passage", "a5"), Candidate("passage", "b1"), Candidate("turn", "t2")]  # fmt: skip
    runs = {"a2": ("d:0", 2), "a3": ("d:0", 3), "a5": ("d:0", 5), "b1": ("d:90", 6)}
    items = chosen_items(ranking, 3, runs)
    # a3 joins a2 (the next passage of its line); a5 is not next to the run, so it is an item of its own
    assert [[c.id for c in item] for item in items] == [["a2", "a3"], ["t1"], ["a5"]]
    assert [[c.id for c in item] for item in chosen_items(ranking, 5, runs)][3:] == [["b1"], ["t2"]]


SPOTS = {"a0": ("s:a", 0), "a5": ("s:a", 5), "a6": ("s:a", 6), "a9": ("s:a", 9), "b3": ("s:b", 3), "c1": ("s:c", 1)}


def test_a_gathering_questions_first_places_go_to_sessions_not_yet_there():
    ranking = [Candidate("turn", i) for i in ("a0", "a5", "a9", "b3", "a6", "c1", "x")]
    order = spread_over_groups(ranking, SPOTS, Recipe(spread_top=3, spread_near=2))
    # a5 and a9 wait below b3 and c1; the best keeps its place, and past the window nothing moves
    assert [c.id for c in order] == ["a0", "b3", "c1", "a5", "a9", "a6", "x"]


def test_a_unit_beside_one_of_its_session_at_the_head_stays_with_it():
    ranking = [Candidate("turn", i) for i in ("a5", "a6", "a9", "b3", "c1")]
    order = spread_over_groups(ranking, SPOTS, Recipe(spread_top=3, spread_near=2))
    assert [c.id for c in order][:3] == ["a5", "a6", "b3"]  # a6 answers a5; a9 is three places on


def test_claims_and_units_of_unknown_place_are_never_held_back():
    ranking = [Candidate("turn", "a0"), Candidate("claim", "k1"), Candidate("turn", "a9"), Candidate("turn", "q")]
    order = spread_over_groups(ranking, SPOTS, Recipe(spread_top=2, spread_near=2))
    assert [c.id for c in order] == ["a0", "k1", "a9", "q"]


def test_a_question_after_one_occasion_is_not_spread_unless_it_gathers_and_naming_steps_without_sessions_is_not():
    assert route(read("What does Kate do on weekends?")).spread_top == DEFAULT.spread_top > 0
    assert route(read("What are Kate's hobbies?")).spread_top == DEFAULT.spread_top
    assert route(read("When did Kate start pottery?")).spread_top == 0
    assert route(read("How many times has Kate been to Lisbon since she moved?")).spread_top == DEFAULT.spread_top
    assert route(read("What are Kate's hobbies?")).only(["turn_vector"]).spread_top == 0


def test_a_unit_whose_place_in_its_session_is_unknown_is_near_nothing():
    spots = {"a0": ("s:a", 0), "a1": ("s:a", None), "b3": ("s:b", 3)}
    ranking = [Candidate("turn", i) for i in ("a0", "a1", "b3")]
    assert [c.id for c in spread_over_groups(ranking, spots, Recipe(spread_top=2, spread_near=2))] == ["a0", "b3", "a1"]
