"""English, as recall reads it (language.Language): stop words, the shapes of questions, the words
that open an address, pronouns, and the time phrases of temporal/phrases.py. Question shapes only,
no lists of topics; what each shape was measured to be worth is in docs/explanation/design-notes.md."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime

from donto.recall.language import Correction
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

# Corrections of what a speaker said before ("sorry, it was July, not August"). Conservative: the
# words must take a value back ("not August", "instead of August", "I said August, I meant July"),
# or, after a word that says a mistake was made ("sorry", "oops", "correction:", "actually", "I
# meant"), name the right value of a kind the earlier turn holds one other of (a month, a weekday, a
# year). A doubt, a question, a condition, a quotation or someone else's words correct nothing.
_MONTHS = (  # noqa: SIM905 (a line of words reads better than a list of strings)
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()  # noqa: SIM905
_KINDS = {
    "month": re.compile(r"\b(" + "|".join(_MONTHS) + r")\b", re.IGNORECASE),
    "weekday": re.compile(r"\b(" + "|".join(_WEEKDAYS) + r")\b", re.IGNORECASE),
    "year": re.compile(r"\b(19\d\d|20\d\d)\b"),
}
_NUMBER = re.compile(r"^\d+(?:[.,:]\d+)?(?:\s*(?:am|pm|[a-z]+))?$", re.IGNORECASE)
# Month names that are also common words: "May" corrects "May", never "may".
_MONTHS_AS_WORDS = frozenset({"may", "march"})
# Words that say the speaker got something wrong, at the start of the sentence.
_MISTAKE = (
    r"sorry|oops|whoops|oopsie|my bad|my mistake|correction|to correct myself|i misspoke|scratch that|actually"
    r"|wait|er+m?|um+|uh+|oh"
)
_OPENING = re.compile(rf"^\W*(?:{_MISTAKE})\b[\s,:;!—–-]*", re.IGNORECASE)
_CLOSING = re.compile(rf"[\s,;—–-]+(?:{_MISTAKE}|sorry about that|my bad)\W*$", re.IGNORECASE)
# A doubt, a condition, a wish or a guess: nothing is taken back.
_UNSURE = re.compile(
    r"\b(not sure|unsure|no idea|don'?t know|dunno|don'?t remember|can'?t remember|i think|i guess|i believe"
    r"|maybe|perhaps|probably|possibly|might|if|whether|wonder|unless|or was it|could it)\b",
    re.IGNORECASE,
)
_QUOTATION = re.compile(r"[\"“”][^\"“”]*[\"“”]|(?<!\w)['‘][^'’]*['’](?!\w)")
# A value: a few words, none a pronoun (a clause is no value: "I like cats, not dogs").
_PRONOUN = r"(?:i|you|he|she|we|they|it|that|this|there|me|him|her|us|them)\b"
_VALUE = (
    rf"(?:(?:in|on|at|by|from|the|a|an)\s+)*(?!{_PRONOUN})[\w'’-]+"
    r"(?:\s+(?!not\b|but\b|instead\b|rather\b)[\w'’-]+){0,3}"
)
_SAYS = r"(?:it|that|this)\s+(?:was|is|were|'s|’s|should be|should have been|would have been)"
_MEANT = r"(?:i\s+meant|i\s+mean|i\s+should\s+have\s+said|make\s+that|i\s+said)"
# A subject and its verb before the right value: "the meeting is on Tuesday, not Monday".
_STATES = r"(?:(?:the|my|our|his|her|their)\s+[\w'’-]+(?:\s+[\w'’-]+)?\s+(?:was|is|were|are))"
_LEAD = rf"(?:(?P<lead>{_SAYS}|{_MEANT}|{_STATES})\s+)?"
_TAKEN_BACK = (
    # it was July, not August · I meant Tuesday, not Monday · July not August · the party is on Friday, not Saturday
    re.compile(rf"^{_LEAD}(?P<new>{_VALUE}),?\s+(?:and\s+)?not\s+(?P<old>{_VALUE})$", re.IGNORECASE),
    # it wasn't August, it was July · it was not August but July
    re.compile(
        rf"^(?:it|that)\s+(?:wasn'?t|was\s+not|isn'?t|is\s+not|wasn’t|isn’t)\s+(?P<old>{_VALUE})[,;]?\s+"
        rf"(?:but\s+)?(?:(?:{_SAYS})\s+)?(?P<new>{_VALUE})$",
        re.IGNORECASE,
    ),
    # not August, July · not August but July
    re.compile(rf"^not\s+(?P<old>{_VALUE})[,;]?\s+(?:but\s+)?(?:(?:{_SAYS})\s+)?(?P<new>{_VALUE})$", re.IGNORECASE),
    # I said August, I meant July · I said August but I meant July
    re.compile(
        rf"^i\s+said\s+(?P<old>{_VALUE})[,;]?\s+(?:but\s+)?(?:i\s+meant|i\s+mean)\s+(?P<new>{_VALUE})$", re.IGNORECASE
    ),
    # I meant July instead of August · it was July instead of August
    re.compile(rf"^{_LEAD}(?P<new>{_VALUE})\s+(?:instead\s+of|rather\s+than)\s+(?P<old>{_VALUE})$", re.IGNORECASE),
)
# Only the right value: sorry, I meant July · actually it was 2019 · correction: Tuesday
_RIGHT_ONLY = re.compile(rf"^(?:(?P<lead>{_SAYS}|{_MEANT})\s+)?(?P<new>{_VALUE})$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[\s.!…]+$")
# A correction is said in a short sentence: a longer one is read for none (and costs nothing).
CORRECTION_CHARS = 200


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

    def correction(self, text: str) -> Correction | None:
        """The first sentence of `text` that takes a value back ("it was July, not August", "I said
        August, I meant July") or, after a word owning a mistake, names the right one of a month, a
        weekday or a year ("sorry, I meant July", "actually it was 2019"). A bare contrast ("July,
        not August") counts only between two values of one kind; a question, a doubt or a condition
        ("I'm not sure about August", "if it was July, not August…"), quoted words and a sentence
        that does not open with the correction ("He said sorry, it was July") count for nothing."""
        for sentence in _SENTENCES.split(_QUOTATION.sub(" \u2026 ", text)):
            found = _sentence_correction(sentence)
            if found is not None:
                return found
        return None

    def corrects(self, earlier: str, correction: Correction) -> bool:
        """The earlier text says the replaced value, as words of its own and not denied ("not
        August"); where the correction names only the right value, the earlier text holds exactly one
        other value of that kind and not the right one."""
        if correction.replaced is not None:
            return _says(earlier, correction.replaced)
        kind = _kind(correction.value)
        if kind is None or kind == "number":
            return False
        values = {_fold(m) for m in _KINDS[kind].findall(earlier) if _said_as_value(m)}
        return len(values) == 1 and _fold(correction.value) not in values


ENGLISH = English()


def _sentence_correction(sentence: str) -> Correction | None:
    sentence = sentence.strip()
    if not sentence or len(sentence) > CORRECTION_CHARS or sentence.endswith("?") or _UNSURE.search(sentence):
        return None
    owned, rest = False, sentence
    while opened := _OPENING.match(rest):
        if not opened.group(0):
            break
        owned, rest = True, rest[opened.end() :]
    while closed := _CLOSING.search(rest):
        owned, rest = True, rest[: closed.start()]
    rest = _SENTENCE_END.sub("", rest).strip(" ,;:")
    for pattern in _TAKEN_BACK:
        found = pattern.match(rest)
        if found is None:
            continue
        new, old = _bare(found["new"]), _bare(found["old"])
        if not new or not old or _fold(new) == _fold(old):
            return None
        lead = (found.groupdict().get("lead") or "").lower()
        # Owned as a mistake, or said as meant ("I meant Tuesday, not Monday", "I said August, I meant July")
        said_so = owned or lead.startswith(("i ", "make")) or pattern is _TAKEN_BACK[3]
        kinds = _kind(new), _kind(old)
        if said_so or (kinds[0] is not None and kinds[0] == kinds[1]):
            return Correction(value=new, replaced=old)
        return None
    found = _RIGHT_ONLY.match(rest)
    if found is None:
        return None
    lead = (found["lead"] or "").lower()
    new = _bare(found["new"])
    meant = lead.startswith("i meant") or lead.startswith("make that") or lead.startswith("i should")
    if (owned or meant) and _kind(new) in _KINDS:
        return Correction(value=new)
    return None


def _bare(value: str) -> str:
    """A value without the prepositions and articles before it ("in August" -> "August")."""
    return re.sub(r"^(?:(?:in|on|at|by|from|the|a|an)\s+)+", "", value.strip(), flags=re.IGNORECASE).strip()


def _fold(value: str) -> str:
    return " ".join(value.lower().split())


def _kind(value: str) -> str | None:
    """month, weekday or year where the value is one (alone), number for a number, else None."""
    for kind, pattern in _KINDS.items():
        found = pattern.fullmatch(value.strip())
        if found and _said_as_value(value.strip()):
            return kind
    return "number" if _NUMBER.match(value.strip()) else None


def _said_as_value(word: str) -> bool:
    """A month's name that is also a word ("May", "March") is a month only when written as a name."""
    return word.lower() not in _MONTHS_AS_WORDS or word[:1].isupper()


def _says(text: str, value: str) -> bool:
    """`text` says `value` as words of its own (whole words, spacing aside), not denied ("not August");
    a month that is also a word ("May") only as written as a name."""
    words = r"\s+".join(map(re.escape, value.split()))
    flags = 0 if value.lower() in _MONTHS_AS_WORDS and value[:1].isupper() else re.IGNORECASE
    said = False
    for found in re.finditer(rf"(?<![\w'’-]){words}(?![\w'’-])", text, flags):
        if re.search(r"\bnot\s+(?:(?:in|on|at|the|a|an)\s+)*$", text[: found.start()], re.IGNORECASE):
            continue
        said = True
    return said
