"""The extraction library against a scripted OpenAI-compatible server on a real socket: the
production client and engine, with the replies small local models and busy endpoints give."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripted_llm import CARES, KM, RACE, TEXT, Reply, ScriptedLLM, lines, scripted_llm

from donto.extraction.engine import Extractor
from donto.extraction.facts import entity_key, parse_reply, predicate_name
from donto.extraction.llm import ChatClient, LLMConfig, LLMError, retry_after
from donto.extraction.prompts import APERTURES
from donto.extraction.text import anchor, chunk


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with scripted_llm() as server:
        yield server


def client(llm: ScriptedLLM, **overrides) -> ChatClient:
    settings = {"backoff_s": 0.01, "max_backoff_s": 0.05, "timeout_s": 5.0, **overrides}
    config = LLMConfig(base_url=llm.base_url, model="scripted", **settings)
    return ChatClient(config)


def engine(llm: ScriptedLLM, **overrides) -> Extractor:
    return Extractor(client(llm, structured_output="never"), **overrides)


# -- the reply reader ---------------------------------------------------------------------------


def test_json_lines_become_facts_with_normalised_keys_and_typed_literals():
    parsed = parse_reply(lines(RACE, KM, CARES))
    assert [f.line() for f in parsed.facts] == [
        "melanie | ran | charity-race",
        "charity-race | distance_km | 5",
        "melanie | cares_about | mental-health",
    ]
    assert parsed.facts[1].datatype == "xsd:integer" and parsed.facts[2].hypothesis_only
    assert parsed.facts[2].derived_from == ["f1"] and not parsed.salvaged


def test_a_truncated_reply_keeps_every_complete_line():
    cut = lines(RACE, KM) + '\n{"id": "f3", "s": "Melanie", "p": "cares'
    parsed = parse_reply(cut)
    assert len(parsed.facts) == 2 and parsed.salvaged


def test_a_truncated_facts_document_is_salvaged_object_by_object():
    document = json.dumps({"facts": [RACE, KM, CARES]})
    parsed = parse_reply(document[: document.rindex('"hyp"')])
    assert [f.predicate for f in parsed.facts] == ["ran", "distance_km"] and parsed.salvaged


def test_prose_and_code_fences_around_facts_are_ignored():
    reply = f"Sure! Here are the facts:\n```json\n{lines(RACE, KM)}\n```\nLet me know if you need more."
    parsed = parse_reply(reply)
    assert len(parsed.facts) == 2 and parsed.salvaged


def test_objects_that_are_not_facts_are_counted_not_fatal():
    parsed = parse_reply(lines(RACE, {"note": "no subject here"}) + "\n{broken: json}\n" + lines(KM))
    assert len(parsed.facts) == 2 and parsed.rejected == 2


def test_long_key_names_and_nested_objects_are_read_too():
    parsed = parse_reply(
        json.dumps(
            {
                "subject": "ex:anthony-cox",
                "predicate": "diedOn",
                "object": {"literal": {"v": "1850-03-01", "dt": "xsd:date"}},
                "anchor": None,
                "surface_text": "died 1 March 1850",
                "confidence": 0.7,
            }
        )
    )
    [fact] = parsed.facts
    assert (fact.subject, fact.predicate, fact.object, fact.datatype) == (
        "ex:anthony-cox",
        "died_on",
        "1850-03-01",
        "xsd:date",
    )
    assert fact.quote == "died 1 March 1850" and fact.confidence == 0.7


def test_names_normalise_to_one_key():
    assert entity_key("  Melanie ") == entity_key("melanie") == "melanie"
    assert entity_key("Charity_Race") == "charity-race"
    assert predicate_name("worksAs") == predicate_name("works as") == predicate_name("Works-As") == "works_as"


# -- chunks and anchors -------------------------------------------------------------------------


@given(st.text(alphabet=st.sampled_from("ab .\n"), max_size=400), st.integers(min_value=5, max_value=60))
def test_chunks_are_contiguous_bounded_slices_covering_the_text(text, size):
    pieces = chunk(text, size)
    assert all(len(p.text) <= size and text[p.start : p.start + len(p.text)] == p.text for p in pieces)
    covered = "".join(p.text for p in pieces)
    assert covered.strip() == text.strip() or "".join(text.split()) == "".join(covered.split())


def test_chunks_cut_at_paragraphs_before_lines_before_sentences():
    text = ("First paragraph sentence one. Sentence two.\n\nSecond paragraph here.\nA line. Another one. " * 3).strip()
    pieces = chunk(text, 70)
    assert pieces[0].text.endswith("\n\n")
    assert all(len(p.text) <= 70 for p in pieces)


def test_anchors_are_exact_first_then_tolerant_of_spacing_case_and_quote_style():
    source = "She said: \u201cI  RAN the race\u201d \u2014 it\u2019s done."
    exact = anchor("RAN the", source)
    assert exact and exact.exact and source[exact.start : exact.end] == "RAN the"
    loose = anchor('"i ran the race" - it\'s done', source)
    assert (
        loose
        and not loose.exact
        and source[loose.start : loose.end] == "\u201cI  RAN the race\u201d \u2014 it\u2019s done"
    )
    assert anchor("she swam", source) is None and anchor(None, source) is None


# -- the client ---------------------------------------------------------------------------------


def test_the_client_reads_text_usage_and_model(llm):
    llm.queue(Reply("hello", usage={"prompt_tokens": 12, "completion_tokens": 3}))
    with client(llm) as c:
        done = c.complete([{"role": "user", "content": "hi"}])
    assert (done.text, done.usage.prompt_tokens, done.usage.completion_tokens, done.usage.estimated) == (
        "hello",
        12,
        3,
        False,
    )
    assert llm.requests[0]["model"] == "scripted" and llm.requests[0]["max_tokens"] == 12_000


def test_usage_is_estimated_and_flagged_when_the_endpoint_reports_none(llm):
    llm.queue(Reply("x" * 400, usage=None))
    with client(llm) as c:
        done = c.complete([{"role": "user", "content": "y" * 80}])
    assert done.usage.estimated and done.usage.completion_tokens == 100 and done.usage.prompt_tokens == 20


def test_429_waits_at_least_what_retry_after_asks_then_succeeds(llm):
    llm.queue(Reply(status=429, headers={"Retry-After": "2"}), Reply("ok"))
    waits: list[float] = []
    c = ChatClient(LLMConfig(base_url=llm.base_url, model="m", backoff_s=0.01, max_backoff_s=5), sleep=waits.append)
    done = c.complete([{"role": "user", "content": "q"}])
    assert done.text == "ok" and done.attempts == 2 and waits and waits[0] >= 2


def test_5xx_is_retried_a_bounded_number_of_times_then_fails(llm):
    llm.queue(*[Reply(status=503) for _ in range(3)])
    with client(llm, max_retries=2) as c, pytest.raises(LLMError) as failure:
        c.complete([{"role": "user", "content": "q"}])
    assert failure.value.attempts == 3 and failure.value.status == 503 and len(llm.requests) == 3


def test_other_4xx_fail_at_once(llm):
    llm.queue(Reply(status=401))
    with client(llm) as c, pytest.raises(LLMError) as failure:
        c.complete([{"role": "user", "content": "q"}])
    assert failure.value.status == 401 and len(llm.requests) == 1


def test_a_slow_reply_times_out_and_is_retried(llm):
    llm.queue(Reply("late", delay_s=1.5), Reply("on time"))
    with client(llm, timeout_s=0.5) as c:
        done = c.complete([{"role": "user", "content": "q"}])
    assert done.text == "on time" and done.attempts == 2


def test_an_endpoint_without_structured_output_is_asked_again_in_plain_text_and_remembered(llm):
    llm.queue(Reply(lines(RACE), refuse_response_format=True), Reply(lines(KM)))
    with client(llm) as c:
        first = c.complete([{"role": "user", "content": "q"}], json_schema={"type": "object"})
        second = c.complete([{"role": "user", "content": "q"}], json_schema={"type": "object"})
    assert not first.structured and not second.structured and c.takes_json_schema is False
    assert ["response_format" in r for r in llm.requests] == [True, False, False]


def test_an_endpoint_with_structured_output_gets_the_schema(llm):
    llm.queue(Reply(json.dumps({"facts": [RACE]})))
    with client(llm) as c:
        done = c.complete([{"role": "user", "content": "q"}], json_schema={"type": "object"})
    assert done.structured and c.takes_json_schema is True
    assert llm.requests[0]["response_format"]["type"] == "json_schema"


def test_retry_after_reads_seconds_and_http_dates():
    from datetime import UTC, datetime

    now = datetime(2026, 11, 23, 12, 0, 0, tzinfo=UTC)
    assert retry_after("7") == 7.0
    assert retry_after("Mon, 23 Nov 2026 12:00:30 GMT", now=lambda: now) == 30.0
    assert retry_after("soon") is None and retry_after(None) is None


# -- the engine ---------------------------------------------------------------------------------


def test_single_mode_anchors_facts_and_links_premises(llm):
    llm.queue(lines(RACE, KM, CARES))
    result = engine(llm).extract(TEXT, "single")
    assert [f.fact.line() for f in result.facts][0] == "melanie | ran | charity-race"
    race, km, cares = result.facts
    assert TEXT[race.anchor.start : race.anchor.end] == "I ran a charity race" and race.anchor.exact
    assert cares.premises == [0] and cares.fact.hypothesis_only
    [report] = result.passes
    assert (report.label, report.raw, report.new, report.collisions, report.attempts) == ("single", 3, 3, 0, 1)
    assert report.replies == [lines(RACE, KM, CARES)]


def test_a_quote_that_is_not_in_the_text_leaves_the_fact_unanchored(llm):
    llm.queue(lines({**RACE, "q": "I won the marathon"}, KM))
    result = engine(llm).extract(TEXT, "single")
    assert [f.anchored for f in result.facts] == [False, True] and result.anchored == 1


def test_an_empty_reply_is_asked_again_once(llm):
    llm.queue("", lines(RACE))
    result = engine(llm).extract(TEXT, "single")
    assert len(result.facts) == 1 and result.passes[0].attempts == 2 and result.passes[0].error is None


def test_prose_twice_fails_the_pass_with_the_reason_and_keeps_both_replies(llm):
    llm.queue("I cannot help with that.", "Still prose.")
    result = engine(llm).extract(TEXT, "single")
    assert result.facts == [] and result.passes[0].error == "no usable fact in the reply"
    assert result.passes[0].replies == ["I cannot help with that.", "Still prose."]


def test_a_failing_endpoint_fails_one_pass_and_the_others_go_on(llm):
    llm.queue(lines(RACE), *[Reply(status=500) for _ in range(3)], lines(KM), "")
    result = Extractor(client(llm, structured_output="never", max_retries=2), dry_streak=5).extract(
        TEXT, "deep", passes=3
    )
    assert [r.label for r in result.passes] == ["pass_1", "pass_2", "pass_3"]
    assert result.passes[1].error.startswith("gave up after 3 attempts") and result.passes[1].new == 0
    assert [f.fact.predicate for f in result.facts] == ["ran", "distance_km"]


def test_deep_passes_see_what_was_found_count_collisions_and_stop_when_dry(llm):
    again = {**RACE, "c": 0.5}  # the same fact restated: a collision, the first copy kept
    derived = {"id": "n1", "s": "Melanie", "p": "is_a", "o": "runner", "q": "I ran", "from": ["k1"]}
    llm.queue(lines(RACE), lines(again, KM), lines(again, derived), lines(again), lines(again), lines(CARES))
    result = engine(llm, dry_streak=2).extract(TEXT, "deep", passes=7)
    assert [(r.label, r.raw, r.new, r.collisions) for r in result.passes] == [
        ("pass_1", 1, 1, 0),
        ("pass_2", 2, 1, 1),
        ("pass_3", 2, 1, 1),
        ("pass_4", 1, 0, 1),
        ("pass_5", 1, 0, 1),
    ]
    assert result.facts[0].fact.confidence == 0.95  # first write wins
    assert result.facts[2].premises == [0]  # "k1" is the first fact the pass was shown
    shown = llm.requests[1]["messages"][0]["content"]
    assert "ALREADY FOUND:\nk1: melanie | ran | charity-race" in shown
    assert "ALREADY FOUND" not in llm.requests[0]["messages"][0]["content"]


def test_exhaustive_mode_asks_the_five_apertures_and_dedups_in_their_order(llm):
    llm.default = Reply(lines(RACE))
    result = engine(llm).extract(TEXT, "exhaustive")
    assert [r.label for r in result.passes] == ["surface", "linguistic", "presupposition", "inferential", "conceivable"]
    assert len(result.facts) == 1 and result.facts[0].pass_label == "surface"
    assert sum(r.collisions for r in result.passes) == 4 and len(llm.requests) == 5
    focuses = {focus for r in llm.requests for focus in APERTURES.values() if focus in r["messages"][0]["content"]}
    assert len(focuses) == 5


def test_lenses_add_focused_passes(llm):
    llm.queue(lines(RACE), lines(KM))
    result = engine(llm).extract(TEXT, "single", lenses=["quantities"])
    assert [r.label for r in result.passes] == ["single", "lens:quantities"]
    assert "Focus only on: quantities." in llm.requests[1]["messages"][0]["content"]


def test_long_text_is_chunked_and_anchors_land_in_the_whole_source(llm):
    text = ("Filler sentence about nothing much. " * 60) + "\n\nMelanie ran a charity race. " + ("More filler. " * 40)
    llm.default = Reply(lines({"s": "Melanie", "p": "ran", "o": "charity race", "q": "Melanie ran a charity race"}))
    result = engine(llm, chunk_chars=1000).extract(text, "single")
    assert len(result.passes) == len(chunk(text, 1000)) > 2
    [fact] = result.facts
    assert text[fact.anchor.start : fact.anchor.end] == "Melanie ran a charity race"


def test_a_model_that_ignores_the_schema_is_still_read(llm):
    llm.queue(Reply("Here you go:\n" + lines(RACE, KM)))
    result = Extractor(client(llm)).extract(TEXT, "single")
    assert len(result.facts) == 2 and llm.requests[0]["response_format"]["type"] == "json_schema"


def test_token_usage_adds_up_over_passes(llm):
    llm.queue(lines(RACE), Reply(lines(KM), usage=None), "")
    result = engine(llm, dry_streak=1).extract(TEXT, "deep", passes=2)
    assert result.usage.prompt_tokens > 100 and result.usage.estimated


def test_bad_modes_and_pass_counts_are_refused(llm):
    with pytest.raises(ValueError):
        engine(llm).extract(TEXT, "telepathic")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        engine(llm).extract(TEXT, "deep", passes=11)


def test_an_endpoint_that_answers_500_naming_response_format_is_asked_in_lines_at_once(llm):
    refusal = json.dumps({"error": {"message": "body.response_format.type: Input should be 'text' or 'json_object'"}})
    llm.queue(Reply(status=500, body=refusal), Reply(lines(RACE)))
    with client(llm) as c:
        done = c.complete([{"role": "user", "content": "q"}], json_schema={"type": "object"})
    assert done.text == lines(RACE) and not done.structured and c.takes_json_schema is False
    assert len(llm.requests) == 2  # no retries of the refused request


def test_instructions_travel_in_the_one_user_message_since_some_templates_drop_system_messages(llm):
    llm.queue(lines(RACE))
    engine(llm).extract(TEXT, "single")
    [message] = llm.requests[0]["messages"]
    assert message["role"] == "user" and "You extract facts" in message["content"] and TEXT in message["content"]


def test_a_fact_copied_from_the_prompts_own_examples_is_dropped_unless_the_text_says_it(llm):
    from donto.extraction.prompts import EXAMPLES

    llm.queue(lines(EXAMPLES[0], RACE))
    result = engine(llm).extract(TEXT, "single")
    assert [f.fact.predicate for f in result.facts] == ["ran"] and result.passes[0].rejected == 1
    llm.queue(lines(EXAMPLES[0]))
    said = engine(llm).extract("Ada wrote her notes on the Analytical Engine in 1843.", "single")
    assert [f.fact.line() for f in said.facts] == ["ada-lovelace | wrote | notes-on-the-analytical-engine"]


# -- concurrency --------------------------------------------------------------------------------

PEOPLE = ["Ada", "Babbage", "Curie", "Darwin", "Euler", "Faraday", "Gauss", "Hopper"]
MANY = "\n\n".join(f"{name} wrote a paper. " + "Filler words about nothing. " * 30 for name in PEOPLE)


def by_chunk(delay_s: float = 0.0):
    """Answers each request with facts about the people its chunk names, in the order it names them,
    and a restatement of Ada's fact (a collision, across chunks): what a chunk gets depends on its
    text and pass only, never on the order the requests arrive in."""

    def respond(body: dict) -> Reply:
        prompt = body["messages"][0]["content"]
        text = prompt.split("TEXT:\n", 1)[1]
        known = prompt.count("\nk") if "ALREADY FOUND" in prompt else 0
        facts = [
            {"id": f"f{i}", "s": name, "p": "wrote", "o": f"paper {known}", "q": f"{name} wrote a paper"}
            for i, name in enumerate(n for n in PEOPLE if f"{n} wrote" in text)
        ]
        derived = [{"id": "d", "s": f["s"], "p": "is_a", "o": "writer", "q": f["q"], "from": ["k1"]} for f in facts]
        ada = {"s": "Ada", "p": "wrote", "o": "paper 0", "q": "Ada wrote a paper"}
        return Reply(lines(*facts, *(derived[:1] if known else []), ada), delay_s=delay_s)

    return respond


def outcome(result):
    return (
        [(f.fact.line(), f.pass_label, f.chunk, f.anchor, f.premises) for f in result.facts],
        [(r.label, r.chunk, r.raw, r.new, r.collisions, r.error) for r in result.passes],
        [(s.pass_label, s.chunk, s.outcome, s.index) for s in result.stated],
    )


@pytest.mark.parametrize("mode", ["single", "deep", "exhaustive"])
def test_chunks_extracted_concurrently_give_the_sequential_result(llm, mode):
    llm.respond = by_chunk()
    sequential = engine(llm, chunk_chars=800, concurrency=1).extract(MANY, mode, passes=3, lenses=["work"])
    llm.respond = by_chunk(delay_s=0.02)
    concurrent = engine(llm, chunk_chars=800, concurrency=4).extract(MANY, mode, passes=3, lenses=["work"])
    assert len({p.chunk for p in sequential.passes}) >= 4
    assert outcome(concurrent) == outcome(sequential)


def test_a_deep_pass_is_shown_its_own_chunks_earlier_facts_and_its_premises_point_at_them(llm):
    llm.respond = by_chunk()
    result = engine(llm, chunk_chars=800, concurrency=4, dry_streak=5).extract(MANY, "deep", passes=2)
    for request in llm.requests:
        prompt = request["messages"][0]["content"]
        if "ALREADY FOUND" in prompt:  # a second pass: its own chunk's first-pass facts, and only those
            shown = prompt.split("ALREADY FOUND:\n", 1)[1].split("\n\n", 1)[0]
            text = prompt.split("TEXT:\n", 1)[1]
            named = [n for n in PEOPLE if f"{n} wrote" in text]
            first = named[0] if named else "Ada"  # a chunk of filler only: the restated fact alone
            assert shown.splitlines()[0] == f"k1: {first.lower()} | wrote | paper-0"
            assert all(n.lower() in shown for n in named) and all(
                n.lower() not in shown for n in PEOPLE if n not in named and n != "Ada"
            )
    derived = [f for f in result.facts if f.fact.predicate == "is_a"]
    assert derived and all(result.facts[f.premises[0]].fact.subject == f.fact.subject for f in derived)


def test_requests_in_flight_never_pass_the_shared_limit(llm):
    from concurrent.futures import ThreadPoolExecutor

    from donto.extraction.llm import RequestLimit

    llm.respond = by_chunk(delay_s=0.05)
    shared = RequestLimit(3)
    clients = [
        ChatClient(LLMConfig(base_url=llm.base_url, model="s", structured_output="never"), limit=shared)
        for _ in range(2)
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:  # two extractions at once, exhaustive: 5 apertures a chunk
        done = list(pool.map(lambda c: Extractor(c, chunk_chars=800).extract(MANY, "exhaustive"), clients))
    assert llm.peak == shared.peak == 3 and len(llm.requests) == sum(len(r.passes) for r in done) >= 20


def test_an_on_pass_that_raises_stops_the_chunks_still_to_come(llm):
    llm.respond = by_chunk(delay_s=0.05)

    def stop(report):
        raise RuntimeError("cancelled")

    with pytest.raises(RuntimeError):
        engine(llm, chunk_chars=800, concurrency=2).extract(MANY, "deep", passes=5, on_pass=stop)
    assert len(llm.requests) < len(chunk(MANY, 800)) * 5


def test_each_pass_is_reported_as_it_is_answered_not_when_its_chunk_ends(llm):
    """A job records its passes (and is cancelled) pass by pass: the first pass of a one-chunk deep
    extraction reaches on_pass while the second is still waiting on a slow reply."""
    llm.queue(lines(RACE), Reply(lines(KM), delay_s=1.5), lines(CARES))
    started = time.monotonic()
    reported: list[tuple[str, float]] = []
    engine(llm).extract(TEXT, "deep", passes=3, on_pass=lambda r: reported.append((r.label, time.monotonic())))
    assert [label for label, _ in reported] == ["pass_1", "pass_2", "pass_3"]
    assert reported[0][1] - started < 1.0 <= reported[1][1] - started
