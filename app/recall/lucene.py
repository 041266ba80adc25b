"""Text as a Lucene query for the full-text arms: its content words (the language's stop words and
one-letter words dropped), lower-cased, de-duplicated and OR-ed, at most `max_terms` of them.
Every Lucene operator character is escaped, so a question can never be read as query syntax."""

from __future__ import annotations

import re
from collections.abc import Collection

_WORD = re.compile(r"[\w']+", re.UNICODE)
_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')


def lucene_query(text: str, stopwords: Collection[str], max_terms: int = 24) -> str | None:
    terms: list[str] = []
    for word in _WORD.findall(text):
        core = word.strip("'")
        if len(core) < 2 or core.lower() in stopwords:
            continue
        term = _SPECIAL.sub(r"\\\1", core.lower())
        if term not in terms:
            terms.append(term)
    return " OR ".join(terms[:max_terms]) or None
