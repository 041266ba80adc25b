"""Metadata: a caller's JSON object kept beside a turn or a document revision (a message's role, tool
call ids, a framework's item), stored as one JSON string property (Neo4j properties hold no maps) and handed back
as it came. Bounded, so that a turn stays a turn and a document a document: never searched, embedded or read by recall's
ranking. Pure Python: the request models check it before anything is written."""

from __future__ import annotations

import json
from typing import Any

MAX_METADATA_BYTES = 16 * 1024  # serialised as stored (compact JSON, UTF-8)
MAX_METADATA_DEPTH = 8  # the object itself is depth 1


def depth(value: Any) -> int:
    """How deeply objects and arrays nest: a scalar is 0, {} or [] is 1, {"a": [1]} is 2."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
        else:
            continue
        deepest = max(deepest, level + 1)
    return deepest


def serialise(metadata: dict[str, Any]) -> str:
    """The stored form: compact JSON, non-ASCII kept as is (read back with json.loads)."""
    return json.dumps(metadata, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def check(metadata: dict[str, Any]) -> dict[str, Any]:
    """The metadata as given, or ValueError saying which bound it passes."""
    if (levels := depth(metadata)) > MAX_METADATA_DEPTH:
        raise ValueError(f"metadata nests {levels} levels deep; at most {MAX_METADATA_DEPTH}")
    try:
        size = len(serialise(metadata).encode("utf-8"))
    except ValueError:  # NaN or infinity, which JSON cannot say
        raise ValueError("metadata holds a number JSON cannot write (NaN or infinity)") from None
    if size > MAX_METADATA_BYTES:
        raise ValueError(f"metadata is {size:,} bytes as JSON; at most {MAX_METADATA_BYTES:,}")
    return metadata


def read(stored: str | None) -> dict[str, Any] | None:
    return json.loads(stored) if stored is not None else None
