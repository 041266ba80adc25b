"""A user's question as a Lucene query for the full-text arms: its content words (stop words and
one-letter words dropped), lower-cased, de-duplicated and OR-ed, at most `max_terms` of them.
Every Lucene operator character is escaped, so a question can never be read as query syntax."""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w']+", re.UNICODE)
_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
STOPWORDS = frozenset(
    """
a an and are as at be been but by can could did do does doing for from had has have having he her hers him
his how i if in into is it its just me my of on or our she so than that the their them then there these they
this to was we were what when where which who whom why will with would you your yours about after again
also any because before both during each few more most other over same some such through under until up
very while did does many much
""".split()  # noqa: SIM905 (a block of words reads better than a list of strings)
)


def lucene_query(text: str, max_terms: int = 24) -> str | None:
    terms: list[str] = []
    for word in _WORD.findall(text):
        core = word.strip("'")
        if len(core) < 2 or core.lower() in STOPWORDS:
            continue
        term = _SPECIAL.sub(r"\\\1", core.lower())
        if term not in terms:
            terms.append(term)
    return " OR ".join(terms[:max_terms]) or None
