"""Text split into sentence passages with character offsets (a turn's, or a document revision's),
and each passage dated by the time expressions it holds; pure Python."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from donto.ids import uuid7
from donto.temporal.phrases import format_date_tag, recurring_phrases, resolve_time_expressions, summarize_dates


@dataclass(frozen=True)
class Span:
    """A passage: text == original[start:end], trimmed, never empty."""

    start: int
    end: int
    text: str


MIN_WORDS = 3  # a fragment with fewer words ("Wow!", "Haha.", "Me too.") joins a neighbour
_EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d"
_END = re.compile(rf"([.!?\u2026]+)([\"'\u201d\u2019)\]\u00bb]*)((?:[ \t]*[{_EMOJI}]+)*)(?=\s|$)")
_NEXT = re.compile(r"[ \t]*(\S?)")
_TOKEN = re.compile(r"([A-Za-z][A-Za-z.]*)$")
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_NEVER_ENDS = {"mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "cf", "e.g", "i.e", "approx", "fig"}
_MAY_END = {
    "etc",
    "inc",
    "ltd",
    "corp",
    "jan",
    "feb",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "tue",
    "tues",
    "thu",
    "thur",
    "thurs",
    "fri",
}  # end a sentence only before a capital


def _is_cut(text: str, m: re.Match) -> bool:
    following = _NEXT.match(text, m.end())
    assert following is not None  # _NEXT matches the empty string
    mark, nxt = m.group(1), following.group(1)
    if (len(mark) > 1 and set(mark) == {"."}) or "\u2026" in mark:
        return not nxt.islower()  # "I was thinking... maybe not" stays one sentence
    if mark != "." or m.group(2):
        return True
    token = _TOKEN.search(text, max(0, m.start() - 20), m.start())
    word = token.group(1).lower() if token else ""
    if word in _NEVER_ENDS or len(word) == 1:  # titles, e.g./i.e., initials ("J. K. Rowling")
        return False
    if word in _MAY_END or "." in word:  # "etc.", "Jan. 5", "U.S.", "p.m."
        return not nxt or nxt.isupper()
    return True


def split_passages(text: str) -> list[Span]:
    """Sentences end at . ! ? (runs of them, with closing quotes and trailing emoji) before
    whitespace, and at every line break; not after titles, e.g./i.e., initials, "etc."/dotted
    abbreviations before a lower-case word, nor at an ellipsis before a lower-case word; decimals
    and URLs never split (no whitespace follows the dot). Fragments of fewer than MIN_WORDS
    words merge into the next passage (trailing ones into the previous), the span then covering
    the whitespace between. Every non-whitespace character lands in exactly one passage."""
    cuts = {0, len(text)} | {m.end() for m in _END.finditer(text) if _is_cut(text, m)}
    cuts |= {i for i, ch in enumerate(text) if ch in "\n\r\u2028\u2029"}
    bounds, pieces = sorted(cuts), []
    for a, b in zip(bounds, bounds[1:]):
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            pieces.append((a, b))
    merged: list[tuple[int, int]] = []
    pending, words = None, 0  # start and word count of short fragments waiting for the next passage
    for a, b in pieces:
        start, words = (a if pending is None else pending), words + len(_WORD.findall(text, a, b))
        if words < MIN_WORDS:
            pending = start
        else:
            merged.append((start, b))
            pending, words = None, 0
    if pending is not None:
        merged[-1:] = [(merged[-1][0] if merged else pending, pieces[-1][1])]
    return [Span(a, b, text[a:b]) for a, b in merged]


def capped(spans: list[Span], text: str, max_chars: int) -> list[Span]:
    """Each span of more than `max_chars` characters cut into pieces of at most that many, at the
    last clause mark (, ; : – —) or else whitespace in the second half of the allowance, else
    anywhere: a run-on sentence of a document would otherwise be one vector blurring many facts,
    and a model's input stops at its sequence length. Offsets stay exact (text[start:end])."""
    out: list[Span] = []
    for span in spans:
        start = span.start
        while span.end - start > max_chars:
            limit = start + max_chars
            floor = start + max_chars // 2
            cut = max(
                (m.end() for m in _CLAUSE.finditer(text, floor, limit)),
                default=max((m.start() for m in _SPACE.finditer(text, floor, limit)), default=limit),
            )
            piece_end = cut
            while piece_end > start and text[piece_end - 1].isspace():
                piece_end -= 1
            out.append(Span(start, piece_end, text[start:piece_end]))
            start = cut
            while start < span.end and text[start].isspace():
                start += 1
        if start < span.end:
            out.append(Span(start, span.end, text[start : span.end]))
    return out


_CLAUSE = re.compile(r"[,;:\u2013\u2014](?=\s)")
_SPACE = re.compile(r"\s+")


def dated_passages(spans: list[Span], reference: datetime | date) -> list[dict[str, Any]]:
    """Each passage as the row episode and document writes store: its offsets and text, the date
    its time expressions resolve to against `reference` (when the text was said or written), and
    dateRecurring, the recurring time it names ("every second Thursday"), else None: that is no
    date, so it leaves dateResolved and the date range as they are."""
    rows = []
    for span in spans:
        mentions = resolve_time_expressions(span.text, reference)
        when = summarize_dates(mentions, reference, recurring_phrases(span.text))
        rows.append(
            {
                "id": uuid7(),
                "text": span.text,
                "start": span.start,
                "end": span.end,
                "dateFrom": when.date_from,
                "dateTo": when.date_to,
                "dateGranularity": when.granularity,
                "dateTag": format_date_tag(when.date_from, when.date_to, when.granularity),
                "dateResolved": when.resolved,
                "datePhrase": when.phrase,
                "dateRecurring": when.recurring,
            }
        )
    return rows


# A transcript's line: a speaker's name (one to three capitalised words) and a colon ("Caroline: ...").
_LABEL = re.compile(r"^[ \t]*([A-Z][\w.'\u2019-]{0,30}(?: [A-Z][\w.'\u2019-]{0,30}){0,2})[ \t]*:[ \t]+\S", re.MULTILINE)
_LINE = re.compile(r"[^\n]*")


def speakers(text: str) -> list[tuple[int, int, str]]:
    """The lines of a transcript (a chat export, minutes, an interview), each with who says it:
    (start, end, speaker). A text is read as one when most of its lines start with a speaker's name
    and a colon and some name comes back (a note's "Warning:" or "Step 1:" once does not make one);
    otherwise no line has a speaker."""
    lines = [(m.start(), m.end()) for m in _LINE.finditer(text) if text[m.start() : m.end()].strip()]
    labelled = [(a, b, m[1]) for a, b in lines if (m := _LABEL.match(text, a, b))]
    names = [name for _, _, name in labelled]
    if len(labelled) < 2 or 2 * len(labelled) < len(lines) or len(set(names)) == len(names):
        return []
    return labelled


def line_passages(text: str) -> list[Span]:
    """split_passages line by line: a passage never runs over a line break, so a transcript's short
    line ("Caroline: Nice!") stays its own rather than joining the line of someone else."""
    out: list[Span] = []
    for line in _LINE.finditer(text):
        out += [Span(s.start + line.start(), s.end + line.start(), s.text) for s in split_passages(line.group())]
    return out


def with_speakers(spans: list[Span], text: str) -> list[tuple[Span, str | None]]:
    """Each passage with the speaker of the transcript line it lies in (None outside one)."""
    lines = speakers(text)
    out: list[tuple[Span, str | None]] = []
    i = 0
    for span in spans:
        while i < len(lines) and lines[i][1] <= span.start:
            i += 1
        inside = i < len(lines) and lines[i][0] <= span.start and span.end <= lines[i][1]
        out.append((span, lines[i][2] if inside else None))
    return out
