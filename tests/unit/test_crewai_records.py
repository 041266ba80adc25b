"""The pure mapping under donto.integrations.crewai.DontoMemory (no crewai needed): a scope is an
external-id prefix that holds its sub-scopes and no sibling that merely starts alike; an external id
reads back as its scope and record id; a record's fields make a document and read back from its
metadata; CrewAI's filters and privacy rule as its own storage applies them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from donto.integrations import crewai_records as m

SCOPES = ["/", "/a", "/a/b", "/ab", "/a#", "/%2F", "/ü/日本", "/crew/research-crew/agent/writer"]
IDS = ["4c1f7c9e-0b0e-4b4a-9d2a-3f1e6b2a9c11", "a/b", "#", "%", "%2F", "日本語 id"]


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("record_id", IDS)
def test_an_external_id_reads_back_as_its_scope_and_record_id(scope, record_id):
    external = m.external_id(scope, record_id)
    assert external.startswith(m.scope_prefix(scope)) and len(external) <= m.MAX_EXTERNAL_ID
    assert m.parse_external_id(external) == (scope, record_id)


def test_no_two_records_share_an_external_id():
    ids = [m.external_id(s, r) for s in SCOPES for r in IDS]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize(
    ("written", "normal"),
    [("", "/"), (None, "/"), ("/", "/"), ("a/b", "/a/b"), ("/a//b/", "/a/b"), ("//a", "/a")],
)
def test_a_scope_is_normalised_as_crewai_writes_it(written, normal):
    assert m.normalize_scope(written) == normal
    assert m.scope_prefix(written) == m.scope_prefix(normal)


def test_a_scope_s_prefix_holds_its_sub_scopes_and_no_sibling_that_starts_alike():
    office = m.scope_prefix("/office")
    assert office == "crewai:/office/"
    assert m.external_id("/office/lisbon", "r").startswith(office)
    assert m.external_id("/office", "r").startswith(office)
    assert not m.external_id("/officex", "r").startswith(office)
    assert m.scope_prefix("/") == "crewai:/" and m.external_id("/officex", "r").startswith("crewai:/")
    assert m.in_scope("/office/lisbon", "/office") and not m.in_scope("/officex", "/office")
    assert m.in_scope("/anything", None) and m.in_scope("/", "/")


def test_a_label_with_a_slash_or_hash_cannot_reach_another_scope():
    # crewai's scope labels never hold '/', but an id with '/' or '#' stays inside its scope's prefix
    external = m.external_id("/a", "b/#c")
    assert external == "crewai:/a/#b%2F%23c"
    assert not external.startswith(m.scope_prefix("/a/b"))


@pytest.mark.parametrize("external", ["langgraph:/a/#r", "crewai:a/#r", "crewai:/a", "crewai:/a#r", "crewai:/a/#"])
def test_an_external_id_no_record_could_have_is_refused(external):
    with pytest.raises(ValueError):
        m.parse_external_id(external)


def test_an_overlong_scope_or_empty_id_is_refused_naming_it():
    with pytest.raises(ValueError, match="too long"):
        m.external_id("/" + "x" * 600, "r")
    with pytest.raises(ValueError, match="empty"):
        m.external_id("/a", "")


def record(**fields):
    return {
        "id": "r1",
        "content": "The Lisbon boardroom door code is 4417.",
        "scope": "/office/lisbon",
        "categories": ["access"],
        "metadata": {"floor": 3},
        "importance": 0.9,
        "created_at": "2026-03-02T09:00:00",
        "last_accessed": "2026-03-02T09:00:00",
        "source": None,
        "private": False,
    } | fields


def test_a_record_is_a_document_of_its_content_dated_by_its_creation_and_reads_back_from_its_metadata():
    document = m.document_of_record(record())
    assert document["text"] == "The Lisbon boardroom door code is 4417."
    assert document["external_id"] == "crewai:/office/lisbon/#r1"
    assert document["source"] == "crewai" and document["occurred_at"] == "2026-03-02T09:00:00+00:00"
    assert m.record_of_document(document["metadata"]) == record()


def test_a_content_too_long_for_the_metadata_is_kept_in_the_text_alone():
    long = "word " * 5000
    document = m.document_of_record(record(content=long))
    assert document["text"] == long
    assert m.record_of_document(document["metadata"])["content"] is None


def test_metadata_too_large_for_donto_is_refused_before_anything_is_written():
    with pytest.raises(ValueError, match="16 KiB"):
        m.document_of_record(record(metadata={"blob": "x" * 20000}))


def test_a_document_no_record_made_is_no_record():
    assert m.record_of_document(None) is None
    assert m.record_of_document({"namespace": ["a"], "key": "k", "value": {}}) is None
    assert m.record_of_document({"crewai": {"id": "r1"}}) is None


def test_filters_are_crewai_s_any_category_each_metadata_field_and_created_before():
    kept = record()
    assert m.matches(kept) and m.matches(kept, categories=["parking", "access"])
    assert not m.matches(kept, categories=["parking"])
    assert m.matches(kept, metadata_filter={"floor": 3}) and not m.matches(kept, metadata_filter={"floor": 4})
    created = datetime(2026, 3, 2, 9, tzinfo=UTC)
    assert m.matches(kept, older_than=created + timedelta(seconds=1))
    assert not m.matches(kept, older_than=created)
    assert m.matches(kept, older_than=datetime(2026, 3, 2, 9, 0, 1))  # naive: UTC, as CrewAI writes it


def test_a_private_record_is_seen_only_by_its_own_source():
    private = record(private=True, source="ann")
    assert not m.visible(private, None, False) and not m.visible(private, "bob", False)
    assert m.visible(private, "ann", False) and m.visible(private, None, True)
    assert m.visible(record(private=True, source=None), None, False) is False  # None is no one's source
    assert m.visible(record(), None, False)


def test_child_scopes_are_the_labels_one_below_that_hold_records():
    scopes = ["/office/lisbon", "/office/lisbon/floor-3", "/office/porto", "/officex", "/"]
    assert m.child_scopes(scopes, "/office") == ["/office/lisbon", "/office/porto"]
    assert m.child_scopes(scopes, "/") == ["/office", "/officex"]
    assert m.child_scopes(scopes, "/office/porto") == []
