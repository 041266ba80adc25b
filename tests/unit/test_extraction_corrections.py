"""A text that corrects itself ("sorry, it was July, not August"): the reply reader takes the fact's
`corr` (what it replaces, as said before), the prompt asks for it, a correction is another fact than
the statement it corrects, and the rule memorize uses to tell which live claim it corrects."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from scripted_llm import lines

from donto.extraction.facts import Correction, parse_reply
from donto.extraction.prompts import BUILTIN, FACTS_SCHEMA, LINES, STRUCTURED, messages
from donto.memorize.service import _corrected_by

AUGUST = {"s": "Lena", "p": "moved to", "o": "Glasgow", "vf": "in August", "q": "I moved to Glasgow in August"}
JULY = {**AUGUST, "vf": "July", "q": "sorry, it was July, not August", "corr": "August"}
SAID = datetime(2024, 9, 10, tzinfo=UTC)


def candidate(obj: str = "glasgow", valid_from: str | None = "2024-08-01", **more: object) -> dict:
    start = datetime.fromisoformat(valid_from).replace(tzinfo=UTC) if valid_from else None
    row = {"id": "c1", "object": obj, "objectKind": "entity", "validFrom": start, "validTo": None, "validWhen": None}
    return row | more


def test_corr_as_a_string_is_the_earlier_value_or_time_as_said_before():
    august, july = parse_reply(lines(AUGUST, JULY)).facts
    assert august.corrects is None
    assert july.corrects == Correction(value="August") and july.valid_from == "July"
    assert parse_reply(lines({**AUGUST, "corrects": 2019})).facts[0].corrects == Correction(value="2019")


def test_corr_as_an_object_names_the_earlier_object_start_or_end_and_true_the_earlier_statement():
    named = {**AUGUST, "o": "Leeds", "corr": {"o": "York"}}
    times = {**AUGUST, "corr": {"vf": "August", "vt": "2025"}}
    whichever = {**AUGUST, "corr": True}
    facts = parse_reply(lines(named, times, whichever)).facts
    assert [f.corrects for f in facts] == [
        Correction(object="York"),
        Correction(valid_from="August", valid_to="2025"),
        Correction(),
    ]
    assert facts[2].corrects is not None and facts[2].corrects.describe() == "the earlier statement"


def test_corr_that_says_nothing_is_no_correction_and_never_rejects_the_fact():
    for nothing in (False, "", "  ", {}, {"o": None}, [], 1.5):
        parsed = parse_reply(json.dumps({**AUGUST, "corr": nothing}))
        assert [f.corrects for f in parsed.facts] == [None] and parsed.rejected == 0, nothing


def test_a_correction_of_the_same_triple_is_another_fact_than_the_statement_it_corrects():
    august, july = parse_reply(lines(AUGUST, JULY)).facts
    assert august.line() == july.line() and august.content_key != july.content_key
    plain_july = parse_reply(lines({**AUGUST, "vf": "July"})).facts[0]
    assert plain_july.content_key == august.content_key  # without corr, the times never count
    again = parse_reply(lines(JULY)).facts[0]
    assert again.content_key == july.content_key  # the same correction stated twice is one fact


def test_the_prompt_asks_for_corr_in_both_output_shapes():
    text = messages("I moved in August. Sorry, July.", structured=False)[0]["content"]
    assert '"corr"' in BUILTIN.system and "sorry, it was July, not August" in text
    assert "corr." in LINES and "corr." in STRUCTURED
    assert FACTS_SCHEMA["properties"]["facts"]["items"]["properties"]["corr"] == {"type": "string"}


def test_a_claim_is_the_one_corrected_when_its_time_or_object_is_what_the_fact_replaces():
    assert _corrected_by(Correction(value="August"), candidate(), SAID)  # started in August 2024
    assert not _corrected_by(Correction(value="August"), candidate(valid_from="2024-07-01"), SAID)
    assert _corrected_by(Correction(value="york"), candidate(obj="york"), SAID)  # the earlier object
    assert not _corrected_by(Correction(object="york"), candidate(), SAID)
    assert _corrected_by(Correction(valid_from="2018"), candidate(valid_from="2018-01-01"), SAID)
    assert not _corrected_by(Correction(valid_from="August"), candidate(valid_from=None), SAID)  # no start
    assert _corrected_by(Correction(), candidate(), SAID)  # "the earlier statement": any of the subject's
    both = Correction(object="glasgow", valid_from="August")
    assert _corrected_by(both, candidate(), SAID) and not _corrected_by(both, candidate(obj="leeds"), SAID)


def test_a_claim_of_unknown_time_is_corrected_by_its_own_words_and_a_literal_by_its_value():
    unknown = candidate(valid_from=None, validWhen="as a child")
    assert _corrected_by(Correction(value="As a child"), unknown, SAID)
    literal = candidate(obj="42", objectKind="literal")
    assert _corrected_by(Correction(value="42"), literal, SAID)
    assert not _corrected_by(Correction(value="43"), literal, SAID)
    ended = candidate(validTo=datetime(2024, 9, 1, tzinfo=UTC))  # until the end of August
    assert _corrected_by(Correction(valid_to="August"), ended, SAID)
