"""Time phrases in text, pure Python: resolve the time expressions in a passage ("yesterday",
"last weekend", "May 8, 2023") against a reference time into a date or an inclusive date range.
Used by episodes (a passage's dates) and recall (the time a question names).

Relative expressions are small table-driven regex rules of our own (dateparser has no ranges and
its search_dates finds dates in "may", "a second", "now", "we"); explicit calendar dates found by
the rules are parsed by dateparser. Weeks run Monday to Sunday; seasons are northern-hemisphere
three-month ranges.

Direction: where an expression is ambiguous between past and future ("in June", "on Saturday",
"May 20") the sentence decides, mention by mention (`tense_direction`). Forward markers (a plan,
intention, hope or future: "will", "'ll", "going to", "planning", "thinking about", "hoping to",
"want to", "can't wait", "if", "might", "next", "soon", a present progressive "we're flying") pick
the next occurrence; backward markers (the past: "was", "did", "went", "saw", a subject's "-ed"
verb, "have been", "ago", "last") the latest one. A present tense stating a schedule ("the exams
are in January", "it starts in May", "I start in February") looks forward too, but weakly: it
counts only in the mention's own clause and only where no other marker there speaks ("we were in
Rome on Friday" looks back). The nearest marker in the mention's clause wins, else the nearest in
the text; with no marker at all, the latest (most text is past narration). A starting point
("from April", "from July to September") and a bare day of the month ("the 29th") look forward
unless their own clause speaks of the past: a change or a day named without a past tense is one
to come.

Recurring times ("every Thursday", "every second Thursday", "on Mondays", "each spring", "weekly",
"twice a month", a range of weekdays "Tuesday to Saturday", "the first Saturday of every month")
are no date: resolve_time_expressions never pins them, nor the weekday or month
inside them, and `recurring_phrases` names them so a passage can be tagged as recurring."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Any, Literal

import dateparser

Granularity = Literal["day", "week", "month", "year"]


@dataclass(frozen=True)
class TimeMention:
    """A resolved time expression; start/end index the text it was found in, date_to is inclusive."""

    start: int
    end: int
    phrase: str
    date_from: date
    date_to: date
    granularity: Granularity


@dataclass(frozen=True)
class PassageDate:
    """The date or range a passage is about. resolved=False: no expression resolved, and the
    range is just the reference (speech) day. recurring: the first recurring time the passage
    names ("every second Thursday"), which is no date and leaves the range as it is."""

    date_from: date
    date_to: date
    granularity: Granularity
    resolved: bool
    phrase: str | None = None
    recurring: str | None = None


# ---------------------------------------------------------------------------- calendar helpers


def _month_start(d: date, shift: int = 0) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 + shift, 12)
    return date(y, m + 1, 1)


def _month_end(d: date) -> date:
    return d.replace(day=calendar.monthrange(d.year, d.month)[1])


def _week_start(d: date) -> date:
    return d - timedelta(days=d.weekday())


def _unit_range(ref: datetime, unit: str, n: int) -> tuple[date, date]:
    """The calendar unit (Mon-Sun week, month, ...) n units from the reference; n < 0 is past."""
    day = ref.date()
    if unit in ("hour", "day"):
        d = (ref + timedelta(hours=n)).date() if unit == "hour" else day + timedelta(days=n)
        return d, d
    if unit == "week":
        start = _week_start(day + timedelta(weeks=n))
        return start, start + timedelta(days=6)
    if unit == "weekend":  # n = -1: latest Sat-Sun over before the reference day; +1: first after it
        if n < 0:
            sat = day - timedelta(days=(day.weekday() - 5) % 7 + (7 if day.weekday() >= 5 else 0))
        else:
            sat = day + timedelta(days=(4 - day.weekday()) % 7 + 1)
        sat += timedelta(weeks=n + 1 if n < 0 else n - 1)
        return sat, sat + timedelta(days=1)
    if unit == "month":
        start = _month_start(day, n)
        return start, _month_end(start)
    return date(day.year + n, 1, 1), date(day.year + n, 12, 31)


def _span_of(ref: datetime, unit: str, lo: int, hi: int, sign: int) -> tuple[date, date, Granularity]:
    """Units lo..hi away in direction sign as one range: "a few days ago" = 4..2 days back."""
    near, far = _unit_range(ref, unit, sign * lo), _unit_range(ref, unit, sign * hi)
    first, last = (far, near) if sign < 0 else (near, far)
    granularity: Granularity = "day" if unit in ("hour", "day", "weekend") else unit  # type: ignore[assignment]
    return first[0], last[1], granularity


# ------------------------------------------------------------------------------ the rule table

_NUMBERS = {
    "a": (1, 1),
    "an": (1, 1),
    "one": (1, 1),
    "two": (2, 2),
    "three": (3, 3),
    "four": (4, 4),
    "five": (5, 5),
    "six": (6, 6),
    "seven": (7, 7),
    "eight": (8, 8),
    "nine": (9, 9),
    "ten": (10, 10),
    "eleven": (11, 11),
    "twelve": (12, 12),
    "couple": (2, 3),
    "few": (2, 4),
    "several": (3, 6),
}
_NUM = (
    r"(?P<n>\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several)"
)
_UNIT = r"(?P<unit>hour|day|weekend|week|month|year)s?"
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_WD, _MON = "|".join(_WEEKDAYS), "|".join(_MONTHS)
_MON_ANY = rf"(?:{_MON}|(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?)"
_YEAR = r"(?P<y>(?:19|20)\d\d)"
_SEASON = r"spring|summer|fall|autumn|winter"
_DAY_WORDS = {
    "today": (0, 0),
    "tonight": (0, 0),
    "this morning": (0, 0),
    "this afternoon": (0, 0),
    "this evening": (0, 0),
    "earlier today": (0, 0),
    "yesterday": (-1, -1),
    "last night": (-1, -1),
    "the day before yesterday": (-2, -2),
    "the other day": (-7, -1),
    "tomorrow": (1, 1),
    "the day after tomorrow": (2, 2),
}
_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
# Direction markers (English). A marker right after "was"/"were"/"had" is a plan in the past
# ("we were planning to go in May"), so it does not look forward; those words look back instead.
# "next to" is a place and "will last" a duration, no direction.
_NOT_IN_THE_PAST = r"(?<!\bwas\s)(?<!\bwere\s)(?<!\bhad\s)"
_FORWARD = re.compile(
    r"\b(?:will|won't|shall|gonna|wanna|might|let's|soon|upcoming|tomorrow|next(?!\s+to\b)|someday|"
    r"would(?!\s+have\b)|(?:can't|cannot|can\s+not)\s+wait|look(?:s|ing)?\s+forward|about\s+to|"
    r"(?:would|'d)\s+(?:like|love)\s+to|if|(?:maybe|perhaps)\s+(?:we|i|you|they)\s+(?:could|can|should)|"
    + _NOT_IN_THE_PAST
    + r"(?:going\s+to|plan(?:s|ning)?|thinking\s+(?:about|of)|hop(?:e|es|ing)|wants?\s+to|wanting\s+to|"
    r"intend(?:s|ing)?\s+to|aim(?:s|ing)?\s+to|expect(?:s|ing)?\s+to))\b|'ll\b",
    re.I,
)
# A present progressive speaks of an arrangement ("we're flying to Rome in May", "What is Lena doing
# in May?"); "-ing" words that are adjectives or nouns ("is amazing", "is something") do not count.
_ING_NOT_VERBS = (
    r"(?!(?i:\w*thing|(?:amaz|interest|excit|bor|annoy|confus|surpris|relax|tir|stunn|charm|fascinat|"
    r"overwhelm|challeng|inspir|reward|disappoint|worry|miss|lack)ing)\b)"
)
_ADVERB = r"(?:(?i:\w+ly|still|also|just|really)\s+)?"
_PROGRESSIVE = re.compile(
    r"\b(?:(?i:am|is|are)\s+(?:(?i:i|you|we|they|he|she|it)\s+|[A-Z][a-z]+\s+)?|(?i:'m|'re)\s+)"
    + _ADVERB
    + _ING_NOT_VERBS
    + r"(?i:[a-z]+ing)\b"
)
_BACKWARD = re.compile(
    r"\b(?:was|wasn't|were|weren't|did|didn't|had|hadn't|used\s+to|ago|(?<!will\s)(?<!'ll\s)(?<!to\s)last|"
    r"yesterday|earlier|"
    r"went|saw|came|got|made|took|told|said|met|found|gave|left|felt|thought|bought|brought|began|"
    r"ran|wrote|ate|spent|heard|kept|lost|won(?!')|sat|stood|drove|flew|slept|taught|caught|sent|built|"
    r"paid|sold|held|knew|grew|threw|wore|broke|chose|forgot|became|"
    r"(?:have|has|'ve)\s+(?:\w+\s+)?(?:been|gone|seen|done|had|met|[a-z]+ed))\b",
    re.I,
)
# A subject's "-ed" verb is past ("we moved", "Lena finally visited"); an "-ed" after "are you" is
# an adjective ("are you interested"), and "-eed" words (need, feed) are no past tense.
_PAST_ED = re.compile(
    r"(?<!(?i:\bare\s))(?<!(?i:\bis\s))(?<!(?i:\bam\s))\b(?:(?i:i|we|you|he|she|they|it)|[A-Z][a-z]+)\s+"
    r"(?:(?i:just|also|finally|already|really|never|first|then|\w+ly)\s+)?(?i:[a-z]{2,}(?<!e)ed)\b"
)
# A present tense stating a schedule looks forward ("my exams are in January", "the course starts in
# May", "I start in February"), but it is weak: it only speaks where nothing else in the mention's
# clause does, since the same words also describe the past ("it's the photo I took in May").
# "'s" only after a pronoun or wh-word (else it is a possessive: "Lena's party in May") and not
# before a perfect ("it's been"); "am" only after "I" ("10 am" is a clock time).
_SCHEDULE = re.compile(
    r"\b(?:is|are)(?:n't)?\b|'re\b|(?<=\bI)'m\b|(?<=\bI\s)am\b|"
    r"\b(?:it|that|there|here|he|she|this|what|when|where|who)'s\b(?!\s+(?:been|had|got|gone)\b)|"
    r"\b(?:starts|opens|begins|ends|closes|runs)\b|\b(?:i|we|you|they)\s+(?:start|open|begin|end|close|run)\b",
    re.I,
)
# A mention's clause ends at sentence and clause marks and at the conjunctions that open a clause
# of its own ("…but next year we will…").
_CLAUSE_BREAK = re.compile(r"[.;:!?,()\u2013\u2014]|\b(?:but|because|although|though|whereas)\b", re.I)

# Recurring times (English): a cycle named with "every"/"each" (with a step: "every second
# Thursday", "every other week", "every few months"), optionally with the point in it ("every year
# in May"), plural weekdays ("on Mondays", "Saturday nights"), and frequency words ("weekly",
# "twice a month").
_PERIOD = (
    rf"(?:{_WD}|{_MON}|{_SEASON}|day|night|morning|afternoon|evening|week(?:day|end|night)?|fortnight|month|"
    r"quarter|year)s?"
)
_STEP = r"(?:other|second|third|fourth|alternate|single|\d{1,3}|two|three|four|five|six|(?:a\s+)?couple\s+of|few)"
_POINT = rf"(?:in|on|during|at)\s+(?:the\s+)?(?:{_MON}|{_WD}|{_SEASON}|morning|afternoon|evening|night)s?"
_PART_OF_DAY = r"(?:mornings|afternoons|evenings|nights)"
# A weekday range ("Tuesday to Saturday", "Mon\u2013Fri", "Tuesday through Saturday") is a schedule,
# opening hours or a working week, never one date; "from Monday to Friday" (often one stretch:
# "I'm away from Monday to Friday") and one qualified by this/next/last stay as they were.
_WD_ANY = rf"(?:{_WD}|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b"
_WEEKDAY_RANGE = (
    rf"(?<!\bfrom\s)(?<!\bthis\s)(?<!\bnext\s)(?<!\blast\s)\b{_WD_ANY}\.?"
    rf"(?:\s*[-\u2013\u2014]\s*|\s+(?:to|through|thru|till|until)\s+){_WD_ANY}(?!\s+(?:this|next|last)\s+week\b)"
)
# An ordinal day of a month in general ("the first Saturday of every month", "the 1st of the
# month", "every last Friday of the month") comes round each month: no date. Of a named month
# ("the second Sunday of December") it is one date: _ORDINAL_WEEKDAY below.
_ORDINAL = r"(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)"
_MONTHLY_ORDINAL = (
    rf"\b(?:on\s+)?(?:the\s+|every\s+|each\s+)?(?:{_ORDINAL}|\d{{1,2}}(?:st|nd|rd|th))"
    rf"(?:\s+(?:{_WD}|weekend|week))?\s+(?:of|in)\s+(?:every|each|the)\s+month\b"
)
_RECURRING = [
    re.compile(p, re.I)
    for p in [
        rf"\b(?:{_POINT}\s+)?(?:every|each)\s+(?:{_STEP}\s+)?{_PERIOD}(?:\s+{_POINT})?\b",
        rf"\b(?:(?:on|most|some)\s+)?(?:{_WD})s\b(?:\s+{_PART_OF_DAY}\b)?",
        rf"\b(?:{_WD})\s+{_PART_OF_DAY}\b",
        r"\b(?:on|at|most|on\s+the)\s+(?:weekends|weekdays)\b",
        rf"\b(?:in\s+the|most|some)\s+{_PART_OF_DAY}\b",
        r"\b(?:daily|nightly|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually)\b",
        r"\b(?:once|twice|(?:\w+\s+)?\w+\s+times)\s+(?:a|per|every|each)\s+(?:day|week|month|year)\b",
        _WEEKDAY_RANGE,
        _MONTHLY_ORDINAL,
    ]
]


Marker = tuple[int, int, int, bool]  # start, end, +1 forward / -1 backward, strong


def _markers(text: str) -> list[Marker]:
    """Every direction marker in text as (start, end, +1 forward / -1 backward, strong); the
    schedule present tense (_SCHEDULE) is the one weak kind."""
    text = text.replace("\u2019", "'")  # same length: offsets stay those of the text
    forward = [*_FORWARD.finditer(text), *_PROGRESSIVE.finditer(text)]
    backward = [*_BACKWARD.finditer(text), *_PAST_ED.finditer(text)]
    return (
        [(m.start(), m.end(), 1, True) for m in forward]
        + [(m.start(), m.end(), -1, True) for m in backward]
        + [(m.start(), m.end(), 1, False) for m in _SCHEDULE.finditer(text)]
    )


def tense_direction(
    text: str, start: int, end: int, markers: list[Marker] | None = None, *, clause_only: bool = False
) -> int:
    """Which way the time mention text[start:end] points: +1 forward (a plan, hope or future),
    -1 back (the past), 0 when the text says neither. The marker nearest the mention in its own
    clause decides (a weak one, the schedule present tense, only where no other speaks there),
    else the nearest in the whole text (clause_only: none, 0); markers inside the mention ("next"
    of "next May") are the mention's own business. `markers` may be passed in when reading many
    mentions of one text."""
    outside = [k for k in (_markers(text) if markers is None else markers) if k[1] <= start or k[0] >= end]
    if not outside:
        return 0
    breaks = [m.start() for m in _CLAUSE_BREAK.finditer(text)]
    clause_from = max((b for b in breaks if b < start), default=-1)
    clause_to = min((b for b in breaks if b >= end), default=len(text))
    in_clause = [k for k in outside if k[0] > clause_from and k[1] <= clause_to]
    pools = [[k for k in in_clause if k[3]], [k for k in in_clause if not k[3]]]
    if not clause_only:
        pools.append([k for k in outside if k[3]])

    def distance(k: Marker) -> tuple[int, int]:
        return (start - k[1] if k[1] <= start else k[0] - end), -k[2]  # a tie looks forward

    return next((min(pool, key=distance)[2] for pool in pools if pool), 0)


def _recurring_spans(text: str) -> list[tuple[int, int]]:
    """The recurring times in text, longest first among overlaps, in text order."""
    found = [
        (m.start(), m.end())
        for pattern in _RECURRING
        for m in pattern.finditer(text)
        if not re.search(r"\bmay\b", m.group(0))  # lower-case "may" is the verb: "each may bring one"
    ]
    chosen: list[tuple[int, int]] = []
    for a, b in sorted(found, key=lambda r: (r[0] - r[1], r[0])):
        if all(b <= c or a >= d for c, d in chosen):
            chosen.append((a, b))
    return sorted(chosen)


def recurring_phrases(text: str) -> list[str]:
    """The recurring times text names ("every second Thursday", "on Mondays", "each spring",
    "weekly", "twice a month"), in text order: none is a date, and resolve_time_expressions
    resolves none of them (nor the weekday or month inside them)."""
    return [text[a:b] for a, b in _recurring_spans(text)]


def date_tag_text(phrase: str | None, tag: str) -> str:
    """A dated passage's label: "phrase: tag", or just the tag where the phrase says no more than
    it ("May 2024" tagged May 2024, "on 8 May 2023", "May 8, 2023"): case, punctuation, ordinal
    suffixes, word order, month abbreviations and the prepositions around a date do not count."""

    def words(s: str) -> list[str]:
        out = []
        for w in re.findall(r"[a-z0-9]+", s.lower()):
            w = re.sub(r"^(\d+)(?:st|nd|rd|th)$", r"\1", w)
            if len(w) >= 3 and any(name.startswith(w) for name in _MONTHS):  # "Jan", "sept", "May"
                w = str(_month_no(w))
            if w not in _FILLER:
                out.append(w)
        return sorted(out)

    return tag if phrase is None or words(phrase) == words(tag) else f"{phrase}: {tag}"


_FILLER = {"the", "of", "in", "on", "during", "at"}  # words around a date that add nothing to it


def _norm(s: str | None) -> str:
    return re.sub(r"\s+", " ", (s or "").lower())


def _count(token: str) -> tuple[int, int]:
    """ "3" / "three" / "a couple of" / "a few" -> (fewest, most)."""
    token = re.sub(r"^a | of$", "", _norm(token))
    return (int(token),) * 2 if token.isdigit() else _NUMBERS[token]


def _rel(m: re.Match) -> str:
    rel = _norm(m.groupdict().get("rel"))
    return {"this past": "last", "this coming": "next", "coming": "next"}.get(rel, rel)


def _month_no(token: str) -> int:
    return next(i for i, name in enumerate(_MONTHS, 1) if name.startswith(token.lower().rstrip(".")[:3]))


def _nearest(instances: list[tuple[date, date]], day: date, rel: str, future: bool) -> tuple[date, date]:
    """Pick among dated instances (e.g. every June): last = latest over before the reference day,
    next = first starting after it, this/bare = the one under way, else by the passage's tense."""
    current = [r for r in instances if r[0] <= day <= r[1]]
    if rel not in ("last", "next") and current:
        return current[0]
    if rel == "next" or (rel != "last" and future):
        return min(r for r in instances if r[0] > day)
    return max(r for r in instances if r[1] < day)


@lru_cache(maxsize=4096)
def _parse_explicit(phrase: str, day: date, has_year: bool, future: bool) -> date | None:
    """dateparser reads the written date; without a year, the nearest one on the tense's side."""
    settings = {
        "RELATIVE_BASE": datetime.combine(day, time(12)),
        "PREFER_DATES_FROM": "current_period",
        "RETURN_AS_TIMEZONE_AWARE": False,
        "DATE_ORDER": "MDY",
        "PREFER_DAY_OF_MONTH": "first",
    }
    parsed = dateparser.parse(phrase, languages=["en"], settings=settings)
    if parsed is None or has_year:
        return parsed.date() if parsed else None
    for k in range(9):  # 9 years reach past any Feb 29
        try:
            candidate = parsed.date().replace(year=day.year + (k if future else -k))
        except ValueError:
            continue
        if (candidate >= day) if future else (candidate <= day):
            return candidate
    return None


def _r_day_word(m, ref, fut):
    lo, hi = _DAY_WORDS[_norm(m.group(0))]
    return ref.date() + timedelta(days=lo), ref.date() + timedelta(days=hi), "day"


def _r_offset(m, ref, fut):
    """ "3 days ago", "a few weeks back", "two weekends ago", "in 2 weeks", "a month from now"."""
    sign = -1 if re.search(r"(?:ago|back)$", m.group(0), re.I) else 1
    if m.group(0)[:2].lower() == "in" and not fut:
        return None  # "lost 5 kg in two weeks" is a duration, not a date
    return _span_of(ref, m.group("unit").lower(), *_count(m.group("n")), sign=sign)


def _r_rolling(m, ref, fut):
    """ "the past few days", "over the last two weeks": n units back up to the reference day."""
    n, day, unit = (_count(m.group("n"))[1] if m.group("n") else 1), ref.date(), m.group("unit").lower()
    if unit in ("month", "year"):
        start = _month_start(day, -n * (12 if unit == "year" else 1))
        return start.replace(day=min(day.day, _month_end(start).day)), day, "day"
    return day - timedelta(days=n * (7 if unit == "week" else 1)), day, "day"


def _r_relative_unit(m, ref, fut):
    rel, unit = _rel(m), m.group("unit").lower()
    if unit == "weekend" and rel in ("this", "over the"):  # this week's; a past-tense one already over
        sat = _week_start(ref.date()) + timedelta(days=5, weeks=-1 if not fut and ref.weekday() < 5 else 0)
        return sat, sat + timedelta(days=1), "day"
    return _span_of(ref, unit, 1, 1, sign={"last": -1, "this": 0, "next": 1}[rel])


def _r_weekday(m, ref, fut):
    rel, wd, day = _rel(m), _WEEKDAYS.index(m.group("wd").lower()), ref.date()
    if rel == "this":  # this week's, but never a day to come in the past tense, nor gone in the future
        shift = -1 if not fut and wd > day.weekday() else 1 if fut and wd < day.weekday() else 0
        d = _week_start(day) + timedelta(days=wd, weeks=shift)
    elif rel == "next" or (rel in ("", "on") and fut):
        d = day + timedelta(days=(wd - day.weekday() - 1) % 7 + 1)
    else:  # last / bare in the past: the latest one strictly before the reference day
        d = day - timedelta(days=(day.weekday() - wd - 1) % 7 + 1)
    return d, d, "day"


def _r_month(m, ref, fut):
    month, day = _month_no(m.group("mon")), ref.date()
    if m.group("y"):
        first = date(int(m.group("y")), month, 1)
        return first, _month_end(first), "month"
    rel = _rel(m) if _rel(m) in ("last", "this", "next") else ""
    if rel == "this":
        return date(day.year, month, 1), _month_end(date(day.year, month, 1)), "month"
    years = range(day.year - 1, day.year + 2)
    return *_nearest([(date(y, month, 1), _month_end(date(y, month, 1))) for y in years], day, rel, fut), "month"


def _r_month_from(m, ref, fut):
    """ "from April", "from July to September": the month (or months, one range) a change starts."""
    if not m.group("mon2"):
        return _r_month(m, ref, fut)
    first, last, day = _month_no(m.group("mon")), _month_no(m.group("mon2")), ref.date()
    wraps = int(last < first)  # "from November to February" ends the year after
    years = [int(m.group("y")) - wraps] if m.group("y") else range(day.year - 2, day.year + 2)
    instances = [(date(y, first, 1), _month_end(date(y + wraps, last, 1))) for y in years]
    return *(instances[0] if m.group("y") else _nearest(instances, day, "", fut)), "month"


def _nth_weekday(year: int, month: int, weekday: int, nth: str) -> date | None:
    """The nth ("first".."fifth", "1st".."5th", "last") given weekday of a month; None if none."""
    if nth == "last":
        end = _month_end(date(year, month, 1))
        return end - timedelta(days=(end.weekday() - weekday) % 7)
    n = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}.get(nth) or int(nth[0])
    d = date(year, month, 1) + timedelta(days=(weekday - date(year, month, 1).weekday()) % 7, weeks=n - 1)
    return d if d.month == month else None


def _r_nth_weekday(m, ref, fut):
    """ "the second Sunday of December", "the last Friday in May 2024": one day, the year by tense."""
    month, wd, nth = _month_no(m.group("mon")), _WEEKDAYS.index(m.group("wd").lower()), m.group("nth").lower()
    years = [int(m.group("y"))] if m.group("y") else range(ref.year - 1, ref.year + 2)
    days = [(d, d) for y in years if (d := _nth_weekday(y, month, wd, nth))]
    d = (days[0] if m.group("y") else _nearest(days, ref.date(), "", fut))[0] if days else None
    return (d, d, "day") if d else None


def _r_day_of_month(m, ref, fut):
    """ "the 29th", "on the 3rd", "Friday is the 29th": that day of this month where it is still to
    come looking forward (else next month's), where it is over looking back (else last month's);
    "the 3rd of next month" says the month itself."""
    n, day = int(m.group("dom")), ref.date()
    if m.group("which"):
        month = _month_start(day, {"last": -1, "this": 0, "next": 1}[m.group("which").lower()])
        d = month.replace(day=n)  # a 31st of a 30-day month: ValueError, left unresolved
        return d, d, "day"
    days = [_month_start(day, k).replace(day=n) for k in range(-2, 3) if n <= _month_end(_month_start(day, k)).day]
    d = min(d for d in days if d >= day) if fut else max(d for d in days if d <= day)
    return d, d, "day"


def _r_season(m, ref, fut):
    start = _SEASON_START[(m.group("s") or m.group("s2")).lower()]
    years = [int(m.group("y"))] if m.group("y") else range(ref.year - 2, ref.year + 2)
    instances = [(date(y, start, 1), _month_end(_month_start(date(y, start, 1), 2))) for y in years]
    return *(instances[0] if m.group("y") else _nearest(instances, ref.date(), _rel(m), fut)), "month"


def _r_year(m, ref, fut):
    return date(int(m.group("y")), 1, 1), date(int(m.group("y")), 12, 31), "year"


def _r_explicit(m, ref, fut):
    phrase = re.sub(r"^the\s+", "", m.group(0), flags=re.I)
    d = _parse_explicit(phrase, ref.date(), bool(m.groupdict().get("y")), fut)
    return (d, d, "day") if d else None


def _looks_forward(text: str, start: int, end: int, markers: list[Marker]) -> bool:
    """How most mentions read their direction: forward only where the sentence says so."""
    return tense_direction(text, start, end, markers) > 0


def _ahead_unless_past(text: str, start: int, end: int, markers: list[Marker]) -> bool:
    """A starting point ("from April") or a bare day of the month ("the 29th") said without a past
    tense in its own clause is one to come: "the rent goes up from April", "Black Friday is the
    29th". Only its clause counts: "Landlord emailed, the rent goes up from April" is April ahead."""
    return tense_direction(text, start, end, markers, clause_only=True) >= 0


# "from <month>" and "from <month> to <month>" (one range): a change or a stay that starts then.
_MONTH_FROM = (
    rf"\bfrom\s+(?P<mon>{_MON})\b(?:(?:\s*[-\u2013]\s*|\s+(?:to|until|till|through|thru)\s+)(?P<mon2>{_MON})\b)?"
    rf"(?:,?\s+{_YEAR}\b)?(?!\s*\d)"
)
# An ordinal weekday of a named month is one date: "the second Sunday of December".
_ORDINAL_WEEKDAY = (
    rf"\b(?:the\s+)?(?P<nth>{_ORDINAL})\s+(?P<wd>{_WD})\s+(?:of|in)\s+(?P<mon>{_MON_ANY})(?![a-z])"
    rf"(?:,?\s+{_YEAR}\b)?"
)
# A bare ordinal day ("the 29th", "on the 3rd") is a day of the month only where no noun follows it
# ("the 3rd floor", "the 20th century"): at the end of a clause or before a function word. A weekday
# said to be that day ("Friday is the 29th", "Friday the 13th") is the same one date, so the
# weekday (even inside a name: "Black Friday is the 29th") is not pinned apart from it.
_DAY_OF_MONTH = (
    rf"\b(?:(?:{_WD})(?:\s+(?:is|was|will\s+be|falls\s+on))?,?\s+)?(?:(?:on|by|until|till|from)\s+)?"
    r"the\s+(?P<dom>[12]?\d|3[01])(?:st|nd|rd|th)\b(?:\s+of\s+(?P<which>this|next|last)\s+month\b)?"
    r"(?=\s*(?:$|[.,;:!?)\u2013\u2014]|(?:and|or|but|so|then|if|when|because|at|for|from|to|till|until|too|"
    r"again|instead|is|was|will|would|i|we|you|he|she|they|it|this|that)\b))"
)

# (pattern, handler[, how it reads its direction]): every match is resolved, then the longest
# non-overlapping ones win.
_Handler = Callable[[re.Match[str], datetime, bool], "tuple[date, date, Granularity] | None"]
_Reader = Callable[[str, int, int, list[Marker]], bool]


def _rules(table: list[tuple[Any, ...]]) -> list[tuple[re.Pattern[str], _Handler, _Reader]]:
    return [(re.compile(rule[0], re.I), rule[1], rule[2] if len(rule) > 2 else _looks_forward) for rule in table]


_RULES = _rules(
    [
        (
            r"\b(?:the\s+day\s+(?:before\s+yesterday|after\s+tomorrow)|yesterday|today|tonight|tomorrow|"
            r"last\s+night|earlier\s+today|the\s+other\s+day|this\s+(?:morning|afternoon|evening))\b",
            _r_day_word,
        ),
        (rf"\b{_NUM}\s+{_UNIT}\s+(?:ago|back|from\s+now)\b", _r_offset),
        (rf"\bin\s+{_NUM}\s+{_UNIT}\b", _r_offset),
        (
            rf"\b(?:the|over\s+the|in\s+the|for\s+the)\s+(?:past|last)\s+(?:{_NUM}\s+)?"
            r"(?P<unit>day|week|month|year)s?\b(?!\s+of\b)",
            _r_rolling,
        ),
        (r"(?<!\bthe\s)\b(?P<rel>last|this\s+past|this|next|over\s+the)\s+(?P<unit>weekend)\b", _r_relative_unit),
        (
            r"(?<!\bthe\s)\b(?P<rel>last|this\s+past|this|next)\s+(?P<unit>week|month|year)\b(?!\s+of\b)",
            _r_relative_unit,
        ),
        (
            rf"(?<!\bevery\s)\b(?:(?P<rel>last|this\s+past|this\s+coming|coming|this|next|on)\s+)?(?P<wd>{_WD})\b",
            _r_weekday,
        ),
        (
            rf"\b(?P<rel>last|this|next|in|during|for|by|until|till|(?:in\s+)?(?:early|mid|late))[\s-]+(?P<mon>{_MON})\b"
            rf"(?:,?\s+{_YEAR}\b)?(?!\s*\d)",
            _r_month,
        ),
        (rf"\b(?P<mon>{_MON_ANY})\s*,?\s+{_YEAR}\b", _r_month),
        (_MONTH_FROM, _r_month_from, _ahead_unless_past),
        (_ORDINAL_WEEKDAY, _r_nth_weekday),
        (_DAY_OF_MONTH, _r_day_of_month, _ahead_unless_past),
        (
            rf"\b(?:(?P<rel>last|this\s+past|this|next)\s+(?P<s>{_SEASON})|(?:the\s+)?(?P<s2>{_SEASON})\s+(?:of\s+)?"
            rf"{_YEAR})\b",
            _r_season,
        ),
        (rf"\b(?:in|during)\s+(?:the\s+year\s+)?{_YEAR}\b(?![-/]\d)", _r_year),
        (r"\b(?P<y>(?:19|20)\d\d)-(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])\b", _r_explicit),
        (r"\b\d{1,2}/\d{1,2}/(?P<y>\d{4}|\d{2})\b", _r_explicit),
        (rf"\b(?:(?:{_WD}),?\s+)?(?P<mon>{_MON_ANY})\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+{_YEAR}\b)?", _r_explicit),
        (
            rf"\b(?:(?:{_WD}),?\s+)?(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MON_ANY})(?![a-z])"
            rf"(?:,?\s+{_YEAR}\b)?",
            _r_explicit,
        ),
    ]
)


def resolve_time_expressions(text: str, reference: datetime | date) -> list[TimeMention]:
    """Every time expression in text resolved against reference (the turn's timestamp; an aware
    datetime counts in its own zone's wall-clock date), in text order, non-overlapping: where
    expressions overlap the longest wins ("last Saturday" over "Saturday"). An ambiguous one
    ("in May", "on Friday") points the way tense_direction reads the sentence around it: forward
    to the next occurrence, else the latest. Vague words ("recently", "lately", "now") and
    recurring times ("every Thursday", "on Mondays": see recurring_phrases) resolve to nothing."""
    ref = reference if isinstance(reference, datetime) else datetime.combine(reference, time(12))
    ref = ref.replace(tzinfo=None)
    markers, recurring = _markers(text), _recurring_spans(text)
    found: list[TimeMention] = []
    for pattern, handler, looks_forward in _RULES:
        for m in pattern.finditer(text):
            months = [m.groupdict().get(g) or "" for g in ("mon", "mon2")]
            if any(month[:1] == "m" and month.lower() == "may" for month in months):
                continue  # lower-case "may" is the verb: "I may go", "it may 5x"
            if any(m.start() < b and a < m.end() for a, b in recurring):
                continue  # "every second Thursday" is no one Thursday
            try:
                resolved = handler(m, ref, looks_forward(text, m.start(), m.end(), markers))
            except (OverflowError, ValueError):
                continue  # it would fall outside the calendar (years 1-9999): left unresolved
            if resolved:
                found.append(TimeMention(m.start(), m.end(), m.group(0), *resolved))
    chosen: list[TimeMention] = []
    for mention in sorted(found, key=lambda t: (t.start - t.end, t.start)):
        if all(mention.end <= c.start or mention.start >= c.end for c in chosen):
            chosen.append(mention)
    return sorted(chosen, key=lambda t: t.start)


def summarize_dates(
    mentions: list[TimeMention], reference: datetime | date, recurring: Sequence[str] = ()
) -> PassageDate:
    """The date a passage is about: the first mention that says more than the speech day itself
    ("today I told her about last Saturday" is about Saturday), else the first mention, else the
    reference day with resolved=False. `recurring` (recurring_phrases of the text): the first is
    kept as the passage's recurring time, which dates nothing."""
    day = reference.date() if isinstance(reference, datetime) else reference
    cycle = recurring[0] if recurring else None
    informative = [t for t in mentions if (t.date_from, t.date_to) != (day, day)]
    for t in informative or mentions:
        return PassageDate(t.date_from, t.date_to, t.granularity, True, t.phrase, cycle)
    return PassageDate(day, day, "day", False, None, cycle)


def format_date_tag(date_from: date, date_to: date, granularity: Granularity) -> str:
    """Compact human tag: "7 May 2023", "1–7 May 2023", "29 April – 5 May 2023", "May 2023",
    "March–May 2023", "December 2022 – February 2023", "2022", "2021–2022"."""

    def parts(d: date) -> list[str]:
        full = [str(d.day), calendar.month_name[d.month], str(d.year)]
        return full[{"year": 2, "month": 1}.get(granularity, 0) :]

    left, right = parts(date_from), parts(date_to)
    if left == right:
        return " ".join(left)
    shared = 0
    while shared < len(left) - 1 and left[-1 - shared] == right[-1 - shared]:
        shared += 1
    left = left[: len(left) - shared]
    return " ".join(left) + (" \u2013 " if len(left) > 1 else "\u2013") + " ".join(right)


_BOUNDARY_WORDS = re.compile(
    r"^(?:since|from|starting(?:\s+in)?|beginning(?:\s+in)?|as\s+of|until|till|til|up\s+to|through|by|"
    r"before|after|ending(?:\s+in)?)\s+",
    re.IGNORECASE,
)
_BARE_YEAR = re.compile(r"^(?:the\s+year\s+)?(\d{4})$", re.IGNORECASE)
_DECADE = re.compile(r"^(?:the\s+)?(\d{3})0'?s$", re.IGNORECASE)


def resolve_time_phrase(phrase: str, reference: datetime | date) -> tuple[date, date] | None:
    """A stated time of its own (a fact's "from" or "until", as a model copied it from the text:
    "since 2019", "last month", "2023-03-01", "the 1990s") as an inclusive date range resolved
    against `reference`; None when donto cannot tell what it means ("when she was a child").
    Unlike a passage, the whole phrase is known to be a time, so a bare year or decade counts."""
    text = _BOUNDARY_WORDS.sub("", " ".join(phrase.split()))
    if year := _BARE_YEAR.match(text):
        y = int(year[1])
        return (date(y, 1, 1), date(y, 12, 31)) if 1 <= y <= 9999 else None
    if decade := _DECADE.match(text):
        start = int(decade[1]) * 10
        return (date(start, 1, 1), date(start + 9, 12, 31)) if start >= 1 else None
    for candidate in (text, f"in {text}"):
        mentions = resolve_time_expressions(candidate, reference)
        if mentions:
            return mentions[0].date_from, mentions[0].date_to
    return None
