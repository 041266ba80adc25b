"""The claim, subject and memory-event listings' cursors: what one hands out comes back as the same sort
key, and anything else is a 422 (InvalidInput) naming the query parameter."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from donto import cursors
from donto.errors import InvalidInput
from donto.predicates.service import check_aliases


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize("name", ["Ada", "people/ada", 'Zoë ␟ "quoted" \\ 名前', "x" * 512, " padded "])
def test_a_subject_cursor_round_trips_its_name(name: str):
    cursor = cursors.encode_subject(name)
    assert cursors.decode_subject(cursor) == name
    assert cursor.isascii() and "=" not in cursor and "+" not in cursor and "/" not in cursor  # URL-safe as is


def test_an_event_cursor_round_trips_its_time_and_id():
    at = datetime(2026, 11, 23, 7, 11, 1, 100643, tzinfo=UTC)
    assert cursors.decode_event(cursors.encode_event(at, "01a2073e-6b4d-7d01-8000-000000000000")) == (
        at,
        "01a2073e-6b4d-7d01-8000-000000000000",
    )
    offset = datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=2)))
    assert cursors.decode_event(cursors.encode_event(offset, "e"))[0] == offset


def test_a_claim_cursor_round_trips_its_id():
    claim_id = "01a2073e-6b4d-7d01-8000-000000000000"
    assert cursors.decode_claim(cursors.encode_claim(claim_id)) == claim_id


def test_a_claim_cursor_handed_out_before_cursors_named_their_listing_still_pages_on():
    assert cursors.decode_claim(b64("after:01a2073e-6b4d-7d01-8000-000000000000")) == (
        "01a2073e-6b4d-7d01-8000-000000000000"
    )


@pytest.mark.parametrize(
    "cursor",
    ["garbage", b64("before:x"), b64('["claims"]'), b64('["claims", 7]'), b64('["subjects", "Ada"]')],
)
def test_a_claim_cursor_not_handed_out_is_invalid_input_naming_the_parameter(cursor: str):
    with pytest.raises(InvalidInput) as refused:
        cursors.decode_claim(cursor)
    assert refused.value.field == "cursor" and "handed out" in refused.value.message


NO_CURSOR = [  # what no listing hands out
    "garbage",
    "!!!!",
    "a",  # not a whole base64 quantum
    b64("not json"),
    b64("{}"),
    b64("[]"),
    b64('"subjects"'),
    b64('["subjects"]'),
    b64('["subjects", 1]'),
    base64.urlsafe_b64encode(b"\xff\xfe").decode(),  # not UTF-8
    cursors.encode_claim("01a2073e-6b4d-7d01-8000-000000000000"),  # the claim listing's
]
NOT_A_SUBJECT_CURSOR = [
    *NO_CURSOR,
    b64('["subjects", "a", "b"]'),
    b64('["claims", "a"]'),
    b64('["events", "2026-01-01T00:00:00+00:00", "id"]'),  # the event log's
]


@pytest.mark.parametrize("cursor", NOT_A_SUBJECT_CURSOR)
def test_a_subject_cursor_not_handed_out_is_invalid_input_naming_the_parameter(cursor: str):
    with pytest.raises(InvalidInput) as refused:
        cursors.decode_subject(cursor)
    assert refused.value.field == "cursor" and "handed out" in refused.value.message


@pytest.mark.parametrize(
    "cursor",
    [
        *NO_CURSOR,
        cursors.encode_subject("Ada"),  # the subject listing's
        b64('["events", "yesterday", "id"]'),
        b64('["events", "2026-01-01T00:00:00", "id"]'),  # no offset: never handed out
        b64('["events", "2026-01-01T00:00:00+00:00", null]'),
        b64('["events", "2026-01-01T00:00:00+00:00"]'),
    ],
)
def test_an_event_cursor_not_handed_out_is_invalid_input_naming_the_parameter(cursor: str):
    with pytest.raises(InvalidInput) as refused:
        cursors.decode_event(cursor)
    assert refused.value.field == "before"


def test_a_cursor_is_json_naming_its_listing():
    # Listings cannot take each other's cursors: each names the listing it came from.
    decoded = json.loads(base64.urlsafe_b64decode(cursors.encode_subject("Ada") + "=="))
    assert decoded == ["subjects", "Ada"]


@pytest.mark.parametrize(
    ("name", "aliases", "field"),
    [("y", ["y"], "aliases[0]"), ("y", ["a", "b", "a"], "aliases[2]"), ("y", ["a", "y"], "aliases[1]")],
)
def test_an_alias_list_at_odds_with_itself_is_invalid_input_naming_the_alias(name, aliases, field):
    with pytest.raises(InvalidInput) as refused:
        check_aliases(name, aliases)
    assert refused.value.field == field


def test_aliases_are_compared_exactly():
    check_aliases("ceo_of", ["Ceo_of", "chief", "Chief", " chief"])  # no error: letter case and spaces count
