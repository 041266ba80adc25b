"""Who a question's name is, when the chat calls a speaker by another name than their label.

A chat labels each message with an account name ("Emi"); the people in it call each other what they
like ("hey Kate!", "love that, Kate"), and a question asks after the person by the name they were
called ("What are Kate's hobbies?"). The speakers' step and the coverage by person then find no one.
A name said in address, in a session of two people, names the other one. Recall reads the turns that
hold each capitalised name of the question (cypher/recall_addressed.cypher), keeps those that say it
in address, and where one person is so addressed in at least MIN_ADDRESSED turns, and in three of
every four of the turns that address someone by that name, the question is asked with that
person's label in the name's place (with_labels; the service says so in the bundle's
`names_read_as`). No model, no list of names: the address itself (a greeting before the name, or
the name closing a sentence after a comma) is the evidence."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from donto.recall.lucene import STOPWORDS

MIN_ADDRESSED = 3  # turns that address one person by the name: fewer could be one slip or a place ("…, Texas")
ADDRESSED_CANDIDATES = 100  # turns holding a name that recall reads, a name
MAX_NAMES = 4  # names of one question looked up

# Words that open an address in English chat: "hey Kate", "thanks so much, Kate", "good morning Kate".
_OPENERS = (
    r"hey|hi|hii+|hello|hiya|heya|yo|morning|good morning|good night|night|evening|good evening|thanks|"
    r"thanks so much|thank you|thank you so much|thx|congrats|congratulations|ok|okay|oh|aw+|wow|haha|"
    r"lol|bye|love you|miss you|sorry|dear|welcome back|happy birthday|same|yes|yeah|no|well|see you"
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_CAPITALISED = re.compile(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+")


def question_names(question: str) -> list[str]:
    """The capitalised words past a sentence's first that are no stop words: the names a question may use."""
    names = [w for w in _CAPITALISED.findall(question.strip()) if len(w) > 2 and w.lower() not in STOPWORDS]
    return list(dict.fromkeys(names))[:MAX_NAMES]


def addresses(text: str, name: str) -> bool:
    """Whether `text` says `name` in address: after an opener at a sentence's start ("Hey Kate!"),
    or closing a sentence after a comma that follows a lower-case word ("love it, Kate!"; not
    "Austin, Texas.")."""
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


def addressed_as(rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """{name (lower case): the speaker it addresses} from recall_addressed's rows, for each name that
    addresses one person often and consistently enough, and is not a word of that person's label."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        name, text = row["name"], row["text"] or ""
        if not addresses(text, name):
            continue
        counts[name][row["addressee"]] += 1
    found: dict[str, str] = {}
    for name, by_person in counts.items():
        person, times = by_person.most_common(1)[0]
        label = {w.lower() for w in re.findall(r"\w+", person)}
        if times >= MIN_ADDRESSED and 4 * times >= 3 * sum(by_person.values()) and name.lower() not in label:
            found[name.lower()] = person
    return found


def with_labels(question: str, addressed: Mapping[str, str]) -> str:
    """The question with each name the chat addresses a speaker by replaced by that speaker's label,
    the name the speaker's turns carry and were embedded with ("What are Kate's hobbies?" -> "What
    are Emi's hobbies?")."""
    for name, label in addressed.items():
        question = re.sub(rf"\b{re.escape(name)}\b", label, question, flags=re.IGNORECASE)
    return question


def impersonal(question: str, speakers: Iterable[str]) -> str:
    """The question with each speaker it names (a label, or a word of one) said as "they", "their"
    for a possessive: the text the vector arms are asked with ("What are Paola's hobbies?" -> "What
    are their hobbies?"). Every turn is embedded with its speaker's label, so a speaker's name in the
    question brings her emptiest turns ("Paola: ?") nearest, above what she said of the matter; who
    she is still counts where the name is read from the question itself (the speakers' step, the
    coverage by person)."""
    names = sorted({s for s in speakers if s}, key=len, reverse=True)
    if not names:
        return question
    said = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b(['’]s\b)?")
    return said.sub(lambda m: "their" if m.group(1) else "they", question)
