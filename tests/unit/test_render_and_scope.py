"""Rendering recall items, trimming to a token budget, and the time scope: pure Python."""

from __future__ import annotations

from datetime import UTC, datetime

from donto.recall.fusion import Candidate
from donto.recall.render import Provenance, RecallItem, claim_item, estimate_tokens, trim_to_tokens, turn_item
from donto.temporal.instants import read_instant
from donto.temporal.scope import TimeScope

TURN = {
    "externalId": "D1:3",
    "sessionExternalId": "s1",
    "speaker": "Caroline",
    "text": "I went yesterday.",
    "occurredAt": "2023-05-08T13:56:00Z",  # recall's reads return date-times as Cypher's toString() text
    "dates": [{"phrase": "yesterday", "tag": "7 May 2023"}, {"phrase": None, "tag": "8 May 2023"}],
}


def candidate(kind: str, id: str, claim_ids: list[str] | None = None) -> Candidate:
    return Candidate(kind, id, score=1.0, arms={"fulltext": 1.0}, claim_ids=claim_ids or [])


def test_a_turn_reads_as_what_its_speaker_said_with_its_dates():
    item = turn_item(candidate("turn", "t1", ["c1"]), TURN, with_provenance=True)
    assert (item.subject, item.predicate, item.object, item.source) == ("Caroline", "said", None, "fulltext")
    assert item.text == "[8 May 2023; yesterday: 7 May 2023] I went yesterday."
    assert item.provenance == Provenance(["D1:3"], "s1", ["c1"], None)
    assert turn_item(candidate("turn", "t1"), TURN, with_provenance=False).provenance is None


def test_date_times_read_as_cypher_writes_them_come_back_in_utc():
    # toString() of a date-time: with an offset, with a named zone, without seconds, with nanoseconds
    assert read_instant("2023-05-08T13:56:00Z") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert read_instant("2023-05-08T15:56+02:00[Europe/Berlin]") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert read_instant("2023-05-08T13:56Z[UTC]") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert read_instant("2023-05-08T13:56:00.123456789Z") == datetime(2023, 5, 8, 13, 56, 0, 123456, tzinfo=UTC)
    assert read_instant(None) is None


def test_a_claim_without_a_turn_reads_as_a_dated_statement_with_its_quotes():
    claim = {
        "subject": "caroline",
        "predicate": "visited",
        "object": "lisbon",
        "quotes": ["we saw Lisbon"],
        "validFrom": "2023-09-02T00:00Z",
    }
    item = claim_item(candidate("claim", "c9"), claim, with_provenance=True)
    assert item.text == '[2 September 2023] caroline visited lisbon "we saw Lisbon"'
    assert item.provenance == Provenance([], None, ["c9"], None)


def test_trimming_keeps_the_best_ranked_items_that_fit():
    items = [RecallItem("a", "said", None, "x" * 200, "fulltext") for _ in range(5)]
    cost = estimate_tokens(items[0])
    assert trim_to_tokens(items, cost * 3 + cost // 2) == items[:3]
    assert trim_to_tokens(items, cost - 1) == []


def test_provenance_counts_towards_the_budget_only_when_present():
    bare = RecallItem("a", "said", None, "text", "fulltext")
    with_provenance = RecallItem("a", "said", None, "text", "fulltext", Provenance(["D1:1"], "s1", []))
    assert estimate_tokens(with_provenance) > estimate_tokens(bare)


def test_a_scope_fills_what_the_caller_left_out_with_one_now():
    scope = TimeScope.resolve()
    assert scope.valid_at == scope.known_at and scope.valid_at.tzinfo is not None
    then = datetime(2020, 1, 1, tzinfo=UTC)
    assert TimeScope.resolve(valid_at=then).valid_at == then
    as_known_then = TimeScope.resolve(known_at=then)
    assert as_known_then.known_at == then and as_known_then.valid_at > then
    assert as_known_then.params() == {"valid_at": as_known_then.valid_at, "known_at": then}
