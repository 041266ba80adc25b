"""What the model is asked. One instruction set, two output shapes (JSON lines, or a JSON schema
where the endpoint enforces one), per-mode instructions (seed 003's abundance for exhaustive and
deep), the five apertures of seed 001, focus lenses and the default set of them, and the block of
facts already found that a deep pass is shown.

`BUILTIN` holds the built-in prompts as a `Prompts` value; a TOML prompt file (`load_prompts`)
replaces whichever of its parts it names, for one corpus. The engine takes a `Prompts` value;
who runs it decides where that comes from."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
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
When the text corrects something said before ("sorry, it was July, not August", "actually it was 2019"),
state the corrected fact with "corr": the value or time it replaces, as it was said before ("August").
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
    + "\nKeys: id, s, p, o, dt (literals only), q (exact quote), c (confidence 0-1), mod, hyp, from, vf, vt, sv, corr."
)

STRUCTURED = """Answer with a JSON object {"facts": [...]} whose items have the keys
id, s, p, o, dt (literals only), q (exact quote), c (confidence 0-1), mod, hyp, from, vf, vt, sv, corr."""

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
                    "corr": {"type": "string"},
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

# Seed 003's abundance prompt, in donto's fact format: the memory keeps every statement with its
# evidence and sorts out types, identities and conflicts when it is asked, so the modes that are
# meant to read a text hard (exhaustive, deep) are told to leave nothing out. Single mode stays lean.
ABUNDANCE = """Read the text for everything it holds. There is no upper limit: many small facts are better than
one big one, and every clause should give at least one fact.
- Type every entity you name, once: "p": "is_a" with its kind as the object (person, place, organisation,
  event, object, document, idea...), quoting where the text names it. Where the text gives a fuller or
  different name than your short one, add "p": "has_name" with that name as an xsd:string literal.
- Make events entities of their own ("the 1850 flood") with facts for when, where, who took part and
  what came of them.
- State a relation both ways where the reverse reads naturally ("parent_of" and "child_of",
  "employs" and "works_for"), each with the same quote.
- Capture relations between facts, not just between things: what caused what, what answered what (a
  reprisal, a reply, a ruling), what came before or after (a chain of steps in order), what is part of
  or lies within what (a farm in a district in a county), and who said, reported or recorded a fact
  (the report is a fact of its own: "p": "reported" with the event as the object).
- Say what guarded or indirect wording means (a euphemism, a hint) as a hypothesis, with "hyp": true.
- Contradictions are wanted: where the text gives two names, dates, numbers or accounts of one thing,
  state each as its own fact with its own quote. Never reconcile them or choose one.
- Coin specific predicates ("was_fined", "sailed_from") rather than vague ones ("has", "related_to")."""

# Per-mode instructions, given to every pass of that mode (and to the lens passes after it).
MODE_INSTRUCTIONS: dict[str, str] = {"single": "", "exhaustive": ABUNDANCE, "deep": ABUNDANCE}

DEEP = """Earlier passes over this same text already found the facts below. Find only facts they missed:
finer detail, dates and places, quantities, relations between the things already named, what the wording
implies. Do not repeat any of them; repeats are dropped. If nothing is left, answer with nothing."""

LENS_FOCUS = "Focus only on: {lens}."

# What `lenses: "default"` on memorize expands to: general angles that most texts have something
# for (seed 003's own lenses, kinship, vital events, occupations..., were a genealogy corpus's).
DEFAULT_LENSES: tuple[str, ...] = (
    "people, their roles and their relationships to each other",
    "times, dates and the order in which things happened",
    "places and where each thing happened or is",
    "quantities, amounts, measurements and counts",
    "causes, reasons and consequences",
    "who said, reported or recorded what, and how sure they were",
)
MAX_LENSES = 10  # a request's (and a prompt file's default) lenses at most
MAX_LENS_CHARS = 200


@dataclass(frozen=True)
class Prompts:
    """Everything the model is told that a corpus may want to change: the built-in `BUILTIN`, or a
    prompt file's parts over it (`load_prompts`). The output format (LINES, STRUCTURED, the schema,
    the examples) is not among them: the reply reader depends on it. `version` names the prompts
    in each job's record."""

    system: str
    modes: Mapping[str, str]  # single, exhaustive, deep: given to every pass of that mode
    apertures: Mapping[str, str]  # exhaustive mode's passes, by name
    already_found: str  # deep and lens passes: before the block of facts found so far
    lens_focus: str  # a lens pass's focus, with {lens} for the lens
    default_lenses: tuple[str, ...]  # what lenses "default" means
    version: str

    def focus_of(self, lens: str) -> str:
        return self.lens_focus.replace("{lens}", lens)

    def content(self) -> list[Any]:
        """Every instruction and example sent, for a digest."""
        return [
            self.system,
            dict(self.modes),
            dict(self.apertures),
            self.already_found,
            self.lens_focus,
            list(self.default_lenses),
            EXAMPLES,
            LINES,
            STRUCTURED,
            FACTS_SCHEMA,
        ]


def _digest(material: Any) -> str:
    return hashlib.sha256(json.dumps(material, default=str).encode()).hexdigest()[:12]


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
    text: str,
    *,
    structured: bool,
    focus: str | None = None,
    known: str | None = None,
    context: str | None = None,
    mode: str = "single",
    prompts: Prompts | None = None,
) -> list[dict[str, str]]:
    """The chat messages for one pass over one chunk: one user message carrying the instructions
    too, since some chat templates drop a system message (llama-cpp-python's Gemma format does:
    10 prompt tokens for a system message and "hi", 112 with the same words in the user message)."""
    prompts = prompts or BUILTIN
    parts = []
    if context:
        parts.append(f"About this text: {context}")
    if prompts.modes.get(mode):
        parts.append(prompts.modes[mode])
    if focus:
        parts.append(focus)
    if known:
        parts.append(f"{prompts.already_found}\n\nALREADY FOUND:\n{known}")
    parts.append(f"TEXT:\n{text}")
    instructions = f"{prompts.system}\n\n{STRUCTURED if structured else LINES}"
    return [{"role": "user", "content": "\n\n".join([instructions, *parts])}]


BUILTIN = Prompts(
    system=SYSTEM,
    modes=MODE_INSTRUCTIONS,
    apertures=APERTURES,
    already_found=DEEP,
    lens_focus=LENS_FOCUS,
    default_lenses=DEFAULT_LENSES,
    version="",
)
# The built-in prompts' version: a digest of every instruction and example they send, so that each
# job records which prompts read its text, and two jobs' yields are compared knowing whether the
# prompts changed between them. It changes by itself whenever any of them does.
BUILTIN = replace(BUILTIN, version="builtin-" + _digest(BUILTIN.content()))
PROMPTS_VERSION = BUILTIN.version


# -- a prompt file ----------------------------------------------------------------------------------

# The keys a prompt file may hold, and what each must be.
FILE_KEYS = ("system", "modes", "apertures", "already_found", "lens_focus", "default_lenses")


class PromptsFileError(ValueError):
    """A prompt file donto cannot use: the message names the file and the key at fault."""

    def __init__(self, path: Path | str, key: str | None, problem: str):
        self.path = str(path)
        self.key = key
        super().__init__(f"{path}: {key + ': ' if key else ''}{problem}")


def load_prompts(path: Path | str, base: Prompts | None = None) -> Prompts:
    """A TOML prompt file's parts over `base` (the built-in prompts): each key it names replaces
    that part, the rest stay. Every key is checked (PromptsFileError names the file and the key);
    the result's version is `file:<first 12 hex of the file's sha256>+<base's version>`, so that a
    job's record says which file made its claims (sha256sum of the file) and which built-ins filled
    the parts it leaves out."""
    base = base or BUILTIN
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise PromptsFileError(path, None, f"cannot be read ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise PromptsFileError(path, None, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise PromptsFileError(path, None, f"not valid TOML ({exc})") from None
    return prompts_from(data, base, path, "file:" + hashlib.sha256(raw).hexdigest()[:12] + "+" + base.version)


def prompts_from(data: Mapping[str, Any], base: Prompts, source: Path | str, version: str) -> Prompts:
    """`data` (a prompt file's table) over `base`, checked key by key."""

    def fail(key: str, problem: str) -> PromptsFileError:
        return PromptsFileError(source, key, problem)

    def text(key: str, value: Any, empty: bool = False) -> str:
        if not isinstance(value, str):
            raise fail(key, f"a string, not {type(value).__name__}")
        if not empty and not value.strip():
            raise fail(key, "empty")
        return value.strip()

    def table(key: str, value: Any, names: Sequence[str], empty: bool) -> dict[str, str]:
        if not isinstance(value, Mapping):
            raise fail(key, f"a table of {', '.join(names)}, not {type(value).__name__}")
        merged = dict(getattr(base, key))
        for name, item in value.items():
            if name not in names:
                raise fail(f"{key}.{name}", f"unknown; the keys are {', '.join(names)}")
            merged[name] = text(f"{key}.{name}", item, empty)
        return merged

    unknown = [key for key in data if key not in FILE_KEYS]
    if unknown:
        raise fail(unknown[0], f"unknown; the keys are {', '.join(FILE_KEYS)}")
    parts: dict[str, Any] = {}
    if "system" in data:
        parts["system"] = text("system", data["system"])
    if "modes" in data:  # "" leaves a mode with no instructions of its own, as single is built in
        parts["modes"] = table("modes", data["modes"], ("single", "exhaustive", "deep"), empty=True)
    if "apertures" in data:
        parts["apertures"] = table("apertures", data["apertures"], tuple(base.apertures), empty=False)
    if "already_found" in data:
        parts["already_found"] = text("already_found", data["already_found"])
    if "lens_focus" in data:
        parts["lens_focus"] = text("lens_focus", data["lens_focus"])
        if "{lens}" not in parts["lens_focus"]:
            raise fail("lens_focus", "holds no {lens}, where the lens goes")
    if "default_lenses" in data:
        lenses = data["default_lenses"]
        if not isinstance(lenses, list) or not 1 <= len(lenses) <= MAX_LENSES:
            raise fail("default_lenses", f"a list of 1 to {MAX_LENSES} strings")
        for i, lens in enumerate(lenses):
            if not isinstance(lens, str) or not 1 <= len(lens.strip()) <= MAX_LENS_CHARS:
                raise fail(f"default_lenses[{i}]", f"a string of 1 to {MAX_LENS_CHARS} characters")
        parts["default_lenses"] = tuple(lens.strip() for lens in lenses)
    return replace(base, **parts, version=version)
