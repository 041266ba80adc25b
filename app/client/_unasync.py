"""Writes _sync.py (donto.Client) from _async.py (donto.AsyncClient), so the two never drift:
`python -m donto.client._unasync`. tests/unit/test_client_offline.py fails when the committed file differs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

# Longest first: each pattern is tried where the previous ones did not match.
REPLACEMENTS = [
    (r"donto\.AsyncClient: every REST verb", "donto.Client: every REST verb"),
    (
        r"This file is the source; `_sync\.py` \(donto\.Client\) is generated from it by `_unasync\.py`",
        "Generated from `_async.py` by `_unasync.py` (`python -m donto.client._unasync`): edit that file,",
    ),
    (
        r"\(`python -m donto\.client\._unasync`\), and a unit test fails when the two differ\.",
        "not this one; a unit test fails when the two differ.",
    ),
    (r"\bAsyncIterator\b", "Iterator"),
    (r"\bAsyncBaseTransport\b", "BaseTransport"),
    (r"\bAsyncClient\b", "Client"),
    (r"\basync with\b", "with"),
    (r"\basync for\b", "for"),
    (r"\basync def\b", "def"),
    (r"\bawait\s+", ""),
    (r"\basyncio\.sleep\b", "time.sleep"),
    (r"^import asyncio\n", ""),
    (r"^import random$", "import random\nimport time"),  # where isort puts it
    (r"\b__aenter__\b", "__enter__"),
    (r"\b__aexit__\b", "__exit__"),
    (r"\baclose\b", "close"),
    (r"for (\w+) in ([\w.]+):\n\s+yield \1$", r"yield from \2"),  # what `async for` cannot say
]


def unasync(source: str) -> str:
    for pattern, replacement in REPLACEMENTS:
        source = re.sub(pattern, replacement, source, flags=re.MULTILINE)
    return source


def generated() -> str:
    """_sync.py as it should read: unasync'd, then laid out by ruff (a development tool; shorter lines
    join differently)."""
    source = unasync((HERE / "_async.py").read_text(encoding="utf-8"))
    formatted = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(HERE / "_sync.py"), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=True,
    )
    return formatted.stdout


if __name__ == "__main__":
    (HERE / "_sync.py").write_text(generated(), encoding="utf-8")
