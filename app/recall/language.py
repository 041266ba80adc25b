"""What recall reads from a language: the one interface behind which every word list and question
shape lives (english.py is the one there is). The pipeline asks these questions of the question
and of the text it searches, and nothing else of its words, so another language is a class of its
own beside English, chosen by the service, not a change to the pipeline."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from donto.temporal.phrases import TimeMention


@dataclass(frozen=True)
class Correction:
    """What a turn corrects, as its words say: the value it takes back (`replaced`, "August" of "it
    was July, not August"; None where it names only the right one, "sorry, I meant July") and the
    value it puts in its place (`value`)."""

    value: str
    replaced: str | None = None


class Language(Protocol):
    stopwords: frozenset[str]  # words a full-text query and the mentions of entity keys leave out

    def names(self, question: str) -> list[str]:
        """The words of a question that may name someone or something (English: capitalised, past
        a sentence's first word)."""
        ...

    def asks_when(self, question: str) -> bool:
        """A question after a time: when, what year, how long, before, after, since..."""
        ...

    def gathers(self, question: str) -> bool:
        """A question that gathers what was said across occasions: how many, both, ever, a plural..."""
        ...

    def names_entities(self, question: str) -> bool:
        """A question naming exact terms (a quoted phrase, a capitalised word past the first)."""
        ...

    def says_now(self, question: str) -> bool:
        """Words that ask about the present: now, currently, these days, still, no longer..."""
        ...

    def asked_for(self, question: str) -> str | None:
        """The kind of thing a question asks after ("What animals…" -> "animals"), or None."""
        ...

    def addresses(self, text: str, name: str) -> bool:
        """Whether `text` says `name` in address ("Hey Kate!", "love it, Kate")."""
        ...

    def impersonal(self, question: str, speakers: Iterable[str]) -> str:
        """The question with each speaker it names said as a pronoun ("What are their hobbies?")."""
        ...

    def replaces(self, text: str) -> bool:
        """A later statement that can replace an earlier one on its matter: it says what is ("I moved
        to Glasgow", "I'm a researcher now"), not a plan, a trip, a visit, a guess or a question
        ("Thinking about a trip to Skye in May")."""
        ...

    def asks(self, text: str) -> bool:
        """A question, which states nothing a later statement could replace."""
        ...

    def content_words(self, text: str) -> set[str]:
        """The words that say what a text is about, each in one form (relevance compares them)."""
        ...

    def time_mentions(self, text: str, reference: datetime | date) -> list[TimeMention]:
        """The time expressions of `text`, resolved against `reference`."""
        ...

    def correction(self, text: str) -> Correction | None:
        """Whether `text` corrects something its speaker said before, and what: its words must say so
        ("sorry, it was July, not August", "I meant Tuesday, not Monday", "actually it was 2019"); a
        doubt, a question, a condition or a contrast with nothing taken back is none ("I'm not sure
        about August")."""
        ...

    def corrects(self, earlier: str, correction: Correction) -> bool:
        """Whether an earlier text by the same speaker said what `correction` takes back: the replaced
        value ("August"), or, where the correction names only the right value, the one other value of
        its kind there (a month for a month, a year for a year)."""
        ...
