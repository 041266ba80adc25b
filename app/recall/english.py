"""English, as recall reads it (language.Language): stop words, the shapes of questions, the words
that open an address, pronouns, and the time phrases of temporal/phrases.py. Question shapes only,
no lists of topics; what each shape was measured to be worth is in docs/explanation/design-notes.md."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime

from donto.temporal.phrases import TimeMention, resolve_time_expressions

STOPWORDS = frozenset(
    """
a an and are as at be been but by can could did do does doing for from had has have having he her hers him
his how i if in into is it its just me my of on or our she so than that the their them then there these they
this to was we were what when where which who whom why will with would you your yours about after again
also any because before both during each few more most other over same some such through under until up
very while did does many much
""".split()  # noqa: SIM905 (a block of words reads better than a list of strings)
)

MAX_NAMES = 4  # names of one question looked up

_ASKS_WHEN = re.compile(
    r"\b(when|what (year|month|day|date|time)|which (year|month|day)|how long|how many (days|weeks|months|years)"
    r"|before|after|since|until|during|ago|first time|last time|date)\b",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"[\"“”']([^\"“”']{3,})[\"“”']")
_CAPITALISED = re.compile(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+")

# A question that gathers what was said across sessions: how many, both, ever; a list asked for by a
# plural ("What books…", "Which cities…", "What are…") or by the perfect tense ("Where has Kate
# camped?").
_GATHERS = re.compile(
    r"\b(how many|both|ever|every|all the|list)\b"
    r"|^\W*(what|which)\s+(?!does\b|goes\b)(are|were|(kinds?|types?|sorts?)\s+of\s+\w+s|\w{3,}(?<![su]s)(?<!is)s)\b"
    r"|^\W*(what|where|which|who)\b[^?]*\b(has|have)\b(?!\s+to\b)",
    re.IGNORECASE,
)

# What a question asks after, where it names a kind of thing: "What animals are Nicolas and Nebraas
# discussing?" -> "animals", "What kind of films does Joanna enjoy?" -> "films", "What are Kate's
# hobbies?" -> "hobbies", "How many pets does Nate have?" -> "pets". Four words at most (longer is a
# clause, not a kind); a count of times or of a span of time names none.
_AUXILIARY = r"(?:are|is|was|were|do|does|did|has|have|had|can|could|would|will|should)"
_KIND_OF = r"(?:(?:kinds?|types?|sorts?)\s+of\s+)?"
_ASKED_FOR = (
    # What animals are…, Which cities has…, What kind of films does…, How many pets does…
    re.compile(rf"^\W*(?:what|which|how\s+many)\s+{_KIND_OF}(?P<kind>\w[\w -]*?)\s+{_AUXILIARY}\b", re.I),
    # What are Kate's hobbies?, What are some tips that…, What were the books she…
    re.compile(
        rf"^\W*(?i:what|which)\s+(?i:are|were)\s+(?i:(?:some|all|the)\s+)?(?:[\w ]+?'s\s+|(?:his|her|their)\s+)?"
        rf"{_KIND_OF}(?P<kind>\w[\w -]*?)\s*(?:\?|$|\b(?i:that|which|who|she|he|they)\b|\b[A-Z]\w+)",
    ),
)
_NOT_A_KIND = {"it", "that", "this", "there", "he", "she", "they", "you", "i", "we"}
_MEASURES = {"times", "seconds", "minutes", "hours", "days", "weeks", "months", "years"}

_NOW = re.compile(
    r"\b(now|nowadays|currently|current|these days|still|at the moment|at present|presently|any ?more|no longer"
    r"|lately|today|latest|most recent(?:ly)?)\b",
    re.IGNORECASE,
)

# Words that open an address in English chat: "hey Kate", "thanks so much, Kate", "good morning Kate".
_OPENERS = (
    r"hey|hi|hii+|hello|hiya|heya|yo|morning|good morning|good night|night|evening|good evening|thanks|"
    r"thanks so much|thank you|thank you so much|thx|congrats|congratulations|ok|okay|oh|aw+|wow|haha|"
    r"lol|bye|love you|miss you|sorry|dear|welcome back|happy birthday|same|yes|yeah|no|well|see you"
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_CONTENT = re.compile(r"\w+")
# Endings a content word is compared without: a light stem, so that a question's word meets the same
# word in another form ("drives", "driving").
_ENDINGS = ("ies", "ing", "ed", "es", "s", "ly")
# Words of questions that say what is asked, not what about.
_ASKING = frozenset(["kind", "type", "sort", "name", "names", "tell", "say", "said", "know", "thing", "things"])

# An occasion, not a state: a trip, a visit, a weekend away replaces nothing it resembles.
_OCCASION = re.compile(
    r"\b(trip|visit(?:ed|ing|s)?|holiday|vacation|getaway|for (?:a|the) (?:weekend|week|day|night)|weekend away)\b",
    re.IGNORECASE,
)
# A statement that says what may be, not what is: a plan, a wish, a guess, a condition, a question.
_TENTATIVE = re.compile(
    r"\b(thinking (?:about|of)|planning|plan(?:s)? to|hoping|hope to|want(?:s)? to|wanna|would like|'d like"
    r"|might|maybe|perhaps|possibly|probably|considering|going to|gonna|will|'ll|someday|one day|wish"
    r"|if|could|should|looking forward|can't wait|cannot wait|booked)\b|\?\s*$",
    re.IGNORECASE,
)


class English:
    stopwords = STOPWORDS

    def names(self, question: str) -> list[str]:
        """The capitalised words past a sentence's first that are no stop words."""
        names = [w for w in _CAPITALISED.findall(question.strip()) if len(w) > 2 and w.lower() not in STOPWORDS]
        return list(dict.fromkeys(names))[:MAX_NAMES]

    def asks_when(self, question: str) -> bool:
        return bool(_ASKS_WHEN.search(question))

    def gathers(self, question: str) -> bool:
        return bool(_GATHERS.search(question))

    def names_entities(self, question: str) -> bool:
        """Capitalised words past the first, or a quoted phrase: exact terms full-text matches well."""
        return bool(_QUOTED.search(question) or _CAPITALISED.search(question.strip()))

    def says_now(self, question: str) -> bool:
        return bool(_NOW.search(question))

    def asked_for(self, question: str) -> str | None:
        for pattern in _ASKED_FOR:
            found = pattern.search(question)
            if found is None:
                continue
            kind = found["kind"].strip()
            words = kind.lower().split()
            if len(words) > 4 or kind.lower() in _NOT_A_KIND or _MEASURES.intersection(words):
                return None
            return kind
        return None

    def addresses(self, text: str, name: str) -> bool:
        """After an opener at a sentence's start ("Hey Kate!"), or closing a sentence after a comma
        that follows a lower-case word ("love it, Kate!"; not "Austin, Texas.")."""
        n = re.escape(name)
        opening = re.compile(rf"^\W*(?:{_OPENERS})\W+{n}\b", re.IGNORECASE)
        closing = re.compile(rf"(?:^|[^\w'])([\w']+)\W*,\s*{n}\W*$")
        for sentence in _SENTENCES.split(text):
            sentence = sentence.strip()
            if not sentence or name not in sentence:  # said as a name: capitalised as the question has it
                continue
            if opening.search(sentence):
                return True
            end = closing.search(sentence)
            if end and not end.group(1)[:1].isupper():
                return True
        return False

    def impersonal(self, question: str, speakers: Iterable[str]) -> str:
        """Each speaker named (a label, or a word of one) said as "they", "their" for a possessive
        ("What are Paola's hobbies?" -> "What are their hobbies?")."""
        names = sorted({s for s in speakers if s}, key=len, reverse=True)
        if not names:
            return question
        said = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b(['’]s\b)?")
        return said.sub(lambda m: "their" if m.group(1) else "they", question)

    def replaces(self, text: str) -> bool:
        """It says what is, not what may be (a plan, a wish, a guess, a condition, a question), nor an
        occasion (a trip, a visit)."""
        return not _TENTATIVE.search(text) and not _OCCASION.search(text)

    def asks(self, text: str) -> bool:
        """A question: it ends asking ("What's been up since we talked?")."""
        return text.rstrip().endswith("?")

    def content_words(self, text: str) -> set[str]:
        """Its words past the stop words, as light stems ("drives" -> "driv", "drive" -> "driv")."""
        words = set()
        for word in _CONTENT.findall(text.lower()):
            if len(word) < 3 or word in STOPWORDS or word in _ASKING:
                continue
            for ending in _ENDINGS:
                if word.endswith(ending) and len(word) - len(ending) >= 3:
                    word = word[: -len(ending)]
                    break
            words.add(word.rstrip("e"))
        return words

    def time_mentions(self, text: str, reference: datetime | date) -> list[TimeMention]:
        return resolve_time_expressions(text, reference)


ENGLISH = English()
