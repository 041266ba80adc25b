"""A question, read once: what recall's steps need of its words (names, shape, the time it names,
its full-text query, the entity keys it may mention), read through one language.Language.

Two texts: `asked`, the question as the agent asked it (its shape, the names looked up, the
reranker's question), and `text`, what the arms search, which the reading of speakers rewrites
(a name the chat addresses someone by becomes their label) and identity extends (the words of
keys linked to those it names). Each rewrite is a new Question; what is read of it is read once."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from datetime import time as dtime
from functools import cached_property
from typing import Any

from donto.recall.english import ENGLISH
from donto.recall.language import Language
from donto.recall.lucene import lucene_query

_WORDS = re.compile(r"\w+")
_KEY_WORDS = re.compile(r"[\w']+", re.UNICODE)
MAX_MENTIONS = 200  # candidate entity keys a question is looked up as


@dataclass(frozen=True)
class Question:
    asked: str
    text: str
    now: datetime  # the read's present (its known_at): "today", "last week" and "now" are read against it
    language: Language

    def with_text(self, text: str) -> Question:
        return replace(self, text=text)

    # -- the shape of the question as asked (recipes.route)
    @cached_property
    def asks_when(self) -> bool:
        return self.language.asks_when(self.asked)

    @cached_property
    def gathers(self) -> bool:
        return self.language.gathers(self.asked)

    @cached_property
    def names_entities(self) -> bool:
        return self.language.names_entities(self.asked)

    @cached_property
    def names(self) -> list[str]:
        """The names it may use for people (addressed.py reads whom they address)."""
        return self.language.names(self.asked)

    @cached_property
    def about_now(self) -> bool:
        """About the present: it says now, currently, still... and names no time that is not today
        ("What was John currently doing in August 2023?" is about August)."""
        if not self.language.says_now(self.asked):
            return False
        today = self.now.date()
        return all(m.date_from <= today <= m.date_to for m in self.language.time_mentions(self.asked, self.now))

    @cached_property
    def one_occasion(self) -> bool:
        """After one occasion, told in one session: it asks when (not gathering), or names a time."""
        return (self.asks_when and not self.gathers) or time_window(self.language, self.asked, self.now) is not None

    # -- what the arms search with (the text)
    @cached_property
    def kind(self) -> str | None:
        """The kind of thing it asks after ("animals"), or None."""
        return self.language.asked_for(self.text)

    @cached_property
    def lucene(self) -> str | None:
        """Its full-text query (None: no searchable word)."""
        return lucene_query(self.text, self.language.stopwords)

    @cached_property
    def window(self) -> dict[str, Any] | None:
        """The time it names, as the time-window arm's parameters (None: it names none)."""
        return time_window(self.language, self.text, self.now)

    @cached_property
    def words(self) -> frozenset[str]:
        """Its words, lower case (whom it names, to the speakers' step)."""
        return frozenset(w.lower() for w in _WORDS.findall(self.text))

    @cached_property
    def cover_names(self) -> list[str]:
        """The words that may name a speaker, for the coverage by person."""
        return sorted({w for w in self.words if len(w) > 2} - self.language.stopwords)

    @cached_property
    def mentions(self) -> list[str]:
        """The entity keys it may name: its words, and runs of two and three of them, as keys are
        made (lower case, joined by '-'); one-letter words and stop words alone are left out."""
        words = [w.strip("'").lower() for w in _KEY_WORDS.findall(self.text)]
        words = [w for w in words if w]
        keys: list[str] = []
        for size in (1, 2, 3):
            for i in range(len(words) - size + 1):
                run = words[i : i + size]
                if size == 1 and (len(run[0]) < 2 or run[0] in self.language.stopwords):
                    continue
                keys.append("-".join(run))
        return list(dict.fromkeys(keys))[:MAX_MENTIONS]


def read(asked: str, now: datetime | None = None, language: Language = ENGLISH) -> Question:
    """`asked` read as of `now` (by default the clock's)."""
    return Question(asked, asked, now or datetime.now(UTC), language)


def time_window(language: Language, text: str, now: datetime) -> dict[str, Any] | None:
    """The first time `text` names ("in May 2023", "on 8 May, 2023", "last week"), as the parameters
    of the time-window arm; a day gets a day's slack either side for time zones."""
    mentions = language.time_mentions(text, now)
    if not mentions:
        return None
    first = mentions[0]
    slack = timedelta(days=1 if first.granularity == "day" else 0)
    try:
        start, end = first.date_from - slack, first.date_to + slack
        return {
            "date_from": start,
            "date_to": end,
            "window_from": datetime.combine(start, dtime.min, tzinfo=UTC),
            "window_to": datetime.combine(end + timedelta(days=1), dtime.min, tzinfo=UTC),
        }
    except OverflowError:  # a day at the very edge of the calendar: recall without the window
        return None
