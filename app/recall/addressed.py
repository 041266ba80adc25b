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
the name closing a sentence after a comma: the language's `addresses`) is the evidence."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from donto.recall.language import Language

MIN_ADDRESSED = 3  # turns that address one person by the name: fewer could be one slip or a place ("…, Texas")
ADDRESSED_CANDIDATES = 100  # turns holding a name that recall reads, a name


def addressed_as(rows: Iterable[Mapping[str, Any]], language: Language) -> dict[str, str]:
    """{name (lower case): the speaker it addresses} from recall_addressed's rows, for each name that
    addresses one person often and consistently enough, and is not a word of that person's label."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        name, text = row["name"], row["text"] or ""
        if not language.addresses(text, name):
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
