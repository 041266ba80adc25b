"""How a key-value store's items (a namespace of labels, a key, a JSON value) map onto donto's
documents, pure and framework-free: one item is one document, its external id made from the
namespace and key, its value kept exactly in the document's metadata, its searchable text in the
document's text. Also the store's filter and namespace-listing rules, which run client-side.

An external id is `langgraph:` then each namespace label escaped and followed by `/`, then `#` and
the key escaped (`%` `/` `#` as %25 %2F %23): injective and reversible, and every item under a
namespace prefix has an external id starting with that prefix's own (`langgraph:users/ann/`), so a
prefix listing or recall scope is a namespace prefix. A key too long for donto's 512 characters is
named by its SHA-256 instead (`#%h…`, which no escaped key can be); the metadata still holds it."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

PREFIX = "langgraph:"
MAX_EXTERNAL_ID = 512  # donto's Key (app/api/schemas/common.py)
HASHED_KEY = "%h"  # after '#': the key's SHA-256 in hex; '%h' is never an escape's start
OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


def escape(label: str) -> str:
    return label.replace("%", "%25").replace("/", "%2F").replace("#", "%23")


def unescape(text: str) -> str:
    return text.replace("%2F", "/").replace("%23", "#").replace("%25", "%")


def namespace_prefix(namespace: Sequence[str]) -> str:
    """The start every external id under this namespace (and the namespaces below it) shares."""
    return PREFIX + "".join(escape(label) + "/" for label in namespace)


def external_id(namespace: Sequence[str], key: str) -> str:
    """The document external id of the item (namespace, key); ValueError when the namespace alone
    is too long for donto's external ids."""
    start = namespace_prefix(namespace) + "#"
    named = start + escape(key)
    if len(named) <= MAX_EXTERNAL_ID:
        return named
    hashed = start + HASHED_KEY + hashlib.sha256(key.encode("utf-8")).hexdigest()
    if len(hashed) > MAX_EXTERNAL_ID:
        raise ValueError(f"namespace {tuple(namespace)!r} is too long to name in donto (external ids: 512 characters)")
    return hashed


def parse_external_id(external: str) -> tuple[tuple[str, ...], str | None]:
    """(namespace, key) of an external id external_id made; key None where it was hashed.
    ValueError for one it could not have made."""
    if not external.startswith(PREFIX) or "#" not in external:
        raise ValueError(f"{external!r} is not a store item's external id")
    path, key = external[len(PREFIX) :].split("#", 1)
    if path and not path.endswith("/"):
        raise ValueError(f"{external!r} is not a store item's external id")
    namespace = tuple(unescape(label) for label in path.split("/")[:-1])
    return namespace, None if key.startswith(HASHED_KEY) else unescape(key)


def item_metadata(namespace: Sequence[str], key: str, value: Mapping[str, Any]) -> dict[str, Any]:
    """The document metadata an item is kept as: the value exactly, beside its namespace and key."""
    return {"namespace": list(namespace), "key": key, "value": dict(value)}


def value_lines(value: Any, name: str | None = None) -> list[str]:
    """A value's string content, a line a leaf (`field: text` under a field's name): what the whole
    value is searched by when no fields are named."""
    if isinstance(value, Mapping):
        return [line for k, v in value.items() for line in value_lines(v, str(k))]
    if isinstance(value, (list, tuple)):
        return [line for v in value for line in value_lines(v, name)]
    if value is None:
        return []
    text = " ".join(str(value).split())  # one line: donto cuts a text into passages by line
    if not text:
        return []
    return [f"{name}: {text}" if name else text]


def matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """Whether an item's value passes a store filter: each field equal to its filter value (nested
    objects and lists compared as JSON), or passing each of its operators ($eq, $ne, $gt, $gte, $lt,
    $lte). An order comparison between values that have none (a string and a number, a missing
    field) does not pass, as in a JSONB store."""
    return not filter or all(_compare(value.get(field), wanted) for field, wanted in filter.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(isinstance(k, str) and k.startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        return isinstance(actual, Mapping) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted))
        )
    return _same(actual, wanted)


def _same(a: Any, b: Any) -> bool:
    # JSON's true is not its 1: Python's True == 1 would say so.
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return _compare(actual, operand)
    if op == "$ne":
        return not _compare(actual, operand)
    if op not in OPERATORS:
        raise ValueError(f"unsupported filter operator {op!r}: use one of {', '.join(OPERATORS)}")
    ordered = _ordered(actual, operand)
    if ordered is None:
        return False
    a, b = ordered
    if op == "$gt":
        return a > b
    if op == "$gte":
        return a >= b
    if op == "$lt":
        return a < b
    return a <= b


def _ordered(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Two values that have an order between them: two numbers, or two strings."""

    def number(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    if number(a) and number(b):
        return float(a), float(b)
    if isinstance(a, str) and isinstance(b, str):
        return a, b
    return None


def namespace_matches(namespace: Sequence[str], path: Sequence[str], match_type: str) -> bool:
    """Whether a namespace starts (prefix) or ends (suffix) with `path`, `*` matching any one label."""
    if len(namespace) < len(path):
        return False
    if match_type == "prefix":
        pairs = zip(namespace, path)
    elif match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path))
    else:
        raise ValueError(f"unsupported match type {match_type!r}: prefix or suffix")
    return all(p == "*" or n == p for n, p in pairs)


def listed_namespaces(
    namespaces: Iterable[Sequence[str]],
    conditions: Iterable[tuple[str, Sequence[str]]] = (),
    max_depth: int | None = None,
    limit: int = 100,
    offset: int = 0,
) -> list[tuple[str, ...]]:
    """The distinct namespaces that meet every (match_type, path) condition, cut to max_depth,
    sorted, then offset and limit applied."""
    conditions = list(conditions)
    kept = {
        tuple(ns[:max_depth] if max_depth is not None else ns)
        for ns in namespaces
        if all(namespace_matches(ns, path, match_type) for match_type, path in conditions)
    }
    return sorted(kept)[offset : offset + limit]


def listing_prefix(conditions: Iterable[tuple[str, Sequence[str]]]) -> tuple[str, ...]:
    """The literal namespace prefix a listing may ask donto for: a prefix condition's labels up to its
    first wildcard (the conditions are checked again on what comes back)."""
    for match_type, path in conditions:
        if match_type == "prefix":
            literal = []
            for label in path:
                if label == "*":
                    break
                literal.append(label)
            return tuple(literal)
    return ()
