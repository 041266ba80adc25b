"""The source side of extraction: chunking long text, and anchoring a fact's quote to its place.

Chunks (seed 003 §5.2): a long source in one request made the model run out of time or tokens
and return nothing; slices of at most 3,500 characters, cut at a paragraph break, else a line
break, else a sentence end, else a space, else anywhere, recovered all of it. Each chunk is a
contiguous slice, so its offsets add to its start.

Anchoring: model-reported offsets are unreliable, so a fact's quoted words are looked up in the
source: exactly first, then tolerant of whitespace, case and curly quotes. A fact whose quote is
not found stays unanchored (and is marked so), never pinned to a guessed place."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CHUNK_CHARS = 3500
_BREAKS = (re.compile(r"\n\s*\n"), re.compile(r"\n"), re.compile(r"(?<=[.!?…])[\"')\]]*\s+"), re.compile(r"\s+"))
_QUOTE_CHARS = {
    "'": "['\u2018\u2019]",
    "\u2018": "['\u2018\u2019]",
    "\u2019": "['\u2018\u2019]",
    '"': '["\u201c\u201d]',
    "\u201c": '["\u201c\u201d]',
    "\u201d": '["\u201c\u201d]',
    "-": "[-\u2010\u2011\u2012\u2013\u2014]",
    "\u2013": "[-\u2010\u2011\u2012\u2013\u2014]",
    "\u2014": "[-\u2010\u2011\u2012\u2013\u2014]",
}


@dataclass(frozen=True)
class Chunk:
    start: int  # offset of text[0] in the whole source
    text: str


@dataclass(frozen=True)
class Anchor:
    start: int
    end: int
    exact: bool  # False: found only when whitespace, case or quote style were ignored


def chunk(text: str, max_chars: int = MAX_CHUNK_CHARS) -> list[Chunk]:
    """Contiguous slices of at most max_chars covering all of text, each cut at the strongest
    boundary available in its last stretch (paragraph, line, sentence, space, then anywhere)."""
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    chunks: list[Chunk] = []
    start = 0
    while start < len(text):
        end = len(text)
        if end - start > max_chars:
            end = _cut(text, start, start + max_chars)
        piece = text[start:end]
        if piece.strip():
            chunks.append(Chunk(start, piece))
        start = end
    return chunks


def _cut(text: str, start: int, limit: int) -> int:
    """The best place to end a chunk that starts at `start` and may not pass `limit`."""
    floor = start + (limit - start) // 2  # never cut so early that chunks become tiny
    for pattern in _BREAKS:
        ends = [m.end() for m in pattern.finditer(text, floor, limit)]
        if ends:
            return ends[-1]
    return limit


def anchor(quote: str | None, source: str) -> Anchor | None:
    """Where `quote` stands in `source`: the first exact occurrence, else the first occurrence
    ignoring whitespace runs, case and quote or dash style; None when it is not there."""
    if not quote or not quote.strip():
        return None
    quote = quote.strip()
    at = source.find(quote)
    if at >= 0:
        return Anchor(at, at + len(quote), exact=True)
    words = quote.split()
    pattern = r"\s+".join("".join(_QUOTE_CHARS.get(ch, re.escape(ch)) for ch in word) for word in words)
    match = re.search(pattern, source, re.IGNORECASE)
    if match is None:
        return None
    return Anchor(match.start(), match.end(), exact=False)
