"""The pure mapping under donto.integrations.langgraph.DontoStore: external ids that name an item
injectively and reversibly within donto's Key bounds, and share their namespace prefix's start; the
store filter's operators; namespace listing by prefix, suffix, wildcard and depth; a value's text."""

from __future__ import annotations

import pytest

from donto.integrations import store_mapping as m

NAMESPACES = [("users",), ("users", "ann"), ("us", "ers"), ("a/b",), ("a", "b"), ("a#", "b"), ("%2F",), ("ü", "日本")]
KEYS = ["k", "", "a/b", "#", "%", "%2F", "%h00", "日本語 key", "x" * 400]


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("key", KEYS)
def test_an_external_id_reads_back_as_its_namespace_and_key(namespace, key):
    external = m.external_id(namespace, key)
    assert len(external) <= m.MAX_EXTERNAL_ID and external.strip()
    assert m.parse_external_id(external) == (namespace, key)


def test_no_two_items_share_an_external_id():
    ids = [m.external_id(ns, k) for ns in NAMESPACES for k in KEYS]
    assert len(set(ids)) == len(ids)


def test_an_overlong_key_is_named_by_its_hash_and_stays_distinct():
    long_a, long_b = "a" * 600, "a" * 599 + "b"
    first, second = m.external_id(("n",), long_a), m.external_id(("n",), long_b)
    assert first != second and len(first) <= 512 and m.parse_external_id(first) == (("n",), None)
    assert m.external_id(("n",), "%h" + "0" * 64) != m.external_id(("n",), long_a)  # an escaped key never hashes
    with pytest.raises(ValueError, match="too long"):
        m.external_id(("n" * 600,), "k")


def test_items_under_a_namespace_prefix_and_only_they_start_with_its_external_prefix():
    prefix = m.namespace_prefix(("a",))
    inside = [m.external_id(("a",), "k"), m.external_id(("a", "b"), "k"), m.external_id(("a", "b", "c"), "#")]
    outside = [m.external_id(("ab",), "k"), m.external_id(("a/b",), "k"), m.external_id(("b", "a"), "k")]
    assert all(e.startswith(prefix) for e in inside)
    assert not any(e.startswith(prefix) for e in outside)
    assert all(e.startswith(m.namespace_prefix(())) for e in inside + outside)


def test_foreign_external_ids_are_refused():
    for external in ("notes/ann", "langgraph:no-key", "langgraph:a#k"):
        with pytest.raises(ValueError):
            m.parse_external_id(external)


VALUE = {"n": 5, "s": "m", "f": 2.5, "b": True, "none": None, "nested": {"x": [1, 2]}, "tags": ["a", "b"]}


@pytest.mark.parametrize(
    ("filter", "passes"),
    [
        ({"n": 5}, True),
        ({"n": 6}, False),
        ({"b": 1}, False),  # JSON's true is not 1
        ({"nested": {"x": [1, 2]}}, True),
        ({"nested": {"x": [2, 1]}}, False),
        ({"tags": ["a", "b"], "s": "m"}, True),
        ({"n": {"$eq": 5}}, True),
        ({"n": {"$ne": 5}}, False),
        ({"s": {"$ne": "z"}}, True),
        ({"missing": {"$ne": 1}}, True),
        ({"n": {"$gt": 4}}, True),
        ({"n": {"$gt": 5}}, False),
        ({"n": {"$gte": 5}}, True),
        ({"f": {"$lt": 3}}, True),
        ({"f": {"$lt": 2.5}}, False),
        ({"f": {"$lte": 2.5}}, True),
        ({"n": {"$gte": 1, "$lte": 9}}, True),
        ({"n": {"$gt": "4"}}, False),  # a number and a string have no order
        ({"s": {"$gt": "a"}}, True),
        ({"missing": {"$lt": 1}}, False),
        ({"b": {"$gt": 0}}, False),
    ],
)
def test_a_filter_passes_values_as_its_operators_say(filter, passes):
    assert m.matches(VALUE, filter) is passes


def test_an_unknown_operator_is_refused_by_name():
    with pytest.raises(ValueError, match=r"\$like"):
        m.matches(VALUE, {"s": {"$like": "m"}})


STORED = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"), ("x",)]


@pytest.mark.parametrize(
    ("conditions", "max_depth", "expected"),
    [
        ([], None, sorted(STORED)),
        ([("prefix", ("a", "b"))], 3, [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]),
        ([("suffix", ("f",))], None, [("a", "b", "f"), ("a", "c", "f")]),
        ([("prefix", ("a", "*", "f"))], None, [("a", "b", "f"), ("a", "c", "f")]),
        ([("prefix", ("a",)), ("suffix", ("*", "i"))], None, [("a", "b", "d", "i")]),
        ([], 1, [("a",), ("x",)]),
        ([("prefix", ("a", "b", "c", "d"))], None, []),
    ],
)
def test_namespaces_are_listed_as_their_conditions_and_depth_say(conditions, max_depth, expected):
    assert m.listed_namespaces(STORED, conditions, max_depth) == expected


def test_a_namespace_listing_pages_by_offset_and_limit():
    assert m.listed_namespaces(STORED, limit=2, offset=1) == sorted(STORED)[1:3]


def test_a_listing_asks_donto_for_the_literal_part_of_its_prefix():
    assert m.listing_prefix([("suffix", ("z",)), ("prefix", ("a", "*", "c"))]) == ("a",)
    assert m.listing_prefix([("suffix", ("z",))]) == ()


def test_a_values_text_is_its_string_content_a_line_a_field():
    value = {"food": "pizza\nwith olives", "rating": 5, "tags": ["hot", "cheap"], "none": None, "deep": {"x": "y"}}
    assert m.value_lines(value) == ["food: pizza with olives", "rating: 5", "tags: hot", "tags: cheap", "x: y"]
    assert m.item_metadata(("u",), "k", value) == {"namespace": ["u"], "key": "k", "value": value}


def test_the_adapter_without_langgraph_says_which_extra_to_install(monkeypatch):
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "langgraph.store.base", None)  # as if LangGraph were not installed
    monkeypatch.delitem(sys.modules, "donto.integrations.langgraph", raising=False)
    with pytest.raises(ImportError, match=r'pip install "donto-memory\[langgraph\]"'):
        importlib.import_module("donto.integrations.langgraph")
