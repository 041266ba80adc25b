"""What the model is asked. One instruction set, two output shapes (JSON lines, or a JSON schema
where the endpoint enforces one), the five apertures of seed 001, focus lenses, and the block of
facts already found that a deep pass is shown."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from donto.extraction.facts import Fact

SYSTEM = """You extract facts from a text for a memory that keeps every statement with its evidence.
A fact is subject, predicate, object:
- subject and entity objects are short names of things, people, places, events or ideas ("melanie", "charity race").
- predicate is a short verb phrase in snake_case ("ran", "works_as", "lives_in", "is_a").
- a literal object (a number, a date, a yes/no, a quantity) carries its datatype: xsd:integer, xsd:decimal,
  xsd:boolean, xsd:date (YYYY-MM-DD), xsd:dateTime or xsd:string.
For every fact quote the exact words of the text it rests on, copied character for character.
A fact you infer rather than read gets "hyp": true, a lower confidence, and "from": the ids of the
facts it follows from.
Mark what the text only says might, will, or did not happen with "mod": possible, planned or negated.
When the text gives two names for one person or thing, say so: subject one name, "p": "same_as", object the other.
When the text says when a fact began or stopped being true, copy those words: "vf" (from) and "vt" (until),
for example "since 2019", "last month", "in January", "until 2021", or an ISO date (YYYY-MM-DD) it states.
Never work out a date yourself: the words are resolved against when the text was written.
A predicate of which the subject has one value at a time (where someone lives or works, their job, spouse,
age) gets "sv": true.
Never invent a quote. Never repeat a fact."""

# The example facts of the format. Small models copy examples into their answers: a fact equal to
# one of these whose quote is not in the text is dropped (engine.py), so they are about nothing a
# user is likely to write about.
EXAMPLES = (
    {
        "id": "f1",
        "s": "ada lovelace",
        "p": "wrote",
        "o": "notes on the analytical engine",
        "q": "Ada wrote her notes on the Analytical Engine",
        "c": 0.95,
    },
    {
        "id": "f2",
        "s": "notes on the analytical engine",
        "p": "published_in",
        "o": "1843",
        "dt": "xsd:integer",
        "q": "published in 1843",
        "c": 0.9,
    },
    {
        "id": "f4",
        "s": "ada lovelace",
        "p": "lives_in",
        "o": "london",
        "q": "she had lived in London since 1835",
        "vf": "since 1835",
        "sv": True,
        "c": 0.9,
    },
    {
        "id": "f3",
        "s": "ada lovelace",
        "p": "understood",
        "o": "general purpose computing",
        "q": "she saw it could do more than sums",
        "hyp": True,
        "c": 0.6,
        "from": ["f1"],
    },
)
LINES = (
    "Answer with one JSON object per line and nothing else, no list, no prose, no code fence. The format,\n"
    "with facts from another text (never copy them):\n"
    + "\n".join(json.dumps(example) for example in EXAMPLES)
    + "\nKeys: id, s, p, o, dt (literals only), q (exact quote), c (confidence 0-1), mod, hyp, from, vf, vt, sv."
)

STRUCTURED = """Answer with a JSON object {"facts": [...]} whose items have the keys
id, s, p, o, dt (literals only), q (exact quote), c (confidence 0-1), mod, hyp, from, vf, vt, sv."""

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "s": {"type": "string"},
                    "p": {"type": "string"},
                    "o": {"type": ["string", "number", "boolean"]},
                    "dt": {"type": "string"},
                    "q": {"type": "string"},
                    "c": {"type": "number"},
                    "mod": {"type": "string"},
                    "hyp": {"type": "boolean"},
                    "from": {"type": "array", "items": {"type": "string"}},
                    "vf": {"type": "string"},
                    "vt": {"type": "string"},
                    "sv": {"type": "boolean"},
                },
                "required": ["s", "p", "o"],
            },
        }
    },
    "required": ["facts"],
}

# Seed 001's exhaustive mode: five rhetorical apertures, run side by side over the same text.
APERTURES: dict[str, str] = {
    "surface": "Extract every fact the text states outright: who did what, when, where, how many.",
    "linguistic": "Extract what the wording itself carries: who speaks to whom, tense and mood, sentiment, "
    "register, speech acts (a promise, a question, a request), names and how people refer to each other.",
    "presupposition": "Extract what the text takes for granted without saying it: things that must already "
    "exist or be true for it to make sense (a 'new' job implies an old one; 'again' implies before).",
    "inferential": "Extract what follows from the text with high likelihood: causes, consequences, plans, "
    "relationships between the people and things in it. Mark each with hyp and from.",
    "conceivable": "Extract what the text makes plausible but does not settle: likely preferences, habits, "
    "intentions and circumstances. Mark each with hyp, a modest confidence and from.",
}

DEEP = """Earlier passes over this same text already found the facts below. Find only facts they missed:
finer detail, dates and places, quantities, relations between the things already named, what the wording
implies. Do not repeat any of them; repeats are dropped. If nothing is left, answer with nothing."""


def known_facts_block(facts: Sequence[Fact], max_chars: int) -> str:
    """The latest facts found so far as `id: subject | predicate | object` lines, newest kept when
    the block would pass max_chars (seed 001 capped by count and let early facts fall out too)."""
    lines: list[str] = []
    used = 0
    for number in range(len(facts), 0, -1):
        line = f"k{number}: {facts[number - 1].line()}"
        if used + len(line) + 1 > max_chars:
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(reversed(lines))


def messages(
    text: str, *, structured: bool, focus: str | None = None, known: str | None = None, context: str | None = None
) -> list[dict[str, str]]:
    """The chat messages for one pass over one chunk: one user message carrying the instructions
    too, since some chat templates drop a system message (llama-cpp-python's Gemma format does:
    10 prompt tokens for a system message and "hi", 112 with the same words in the user message)."""
    parts = []
    if context:
        parts.append(f"About this text: {context}")
    if focus:
        parts.append(focus)
    if known:
        parts.append(f"{DEEP}\n\nALREADY FOUND:\n{known}")
    parts.append(f"TEXT:\n{text}")
    instructions = f"{SYSTEM}\n\n{STRUCTURED if structured else LINES}"
    return [{"role": "user", "content": "\n\n".join([instructions, *parts])}]


def _version() -> str:
    """The built-in prompts' version: a digest of every instruction and example they send, so that
    each job records which prompts read its text, and two jobs' yields are compared knowing whether
    the prompts changed between them."""
    material = json.dumps([SYSTEM, EXAMPLES, LINES, STRUCTURED, FACTS_SCHEMA, APERTURES, DEEP], default=str)
    return "builtin-" + hashlib.sha256(material.encode()).hexdigest()[:12]


PROMPTS_VERSION = _version()
