"""Passage splitting (app.episodes.passages) and time-expression resolution (app.temporal.phrases):
pure Python, no database."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from donto.episodes.passages import Span, split_passages
from donto.temporal.phrases import PassageDate, TimeMention, format_date_tag, resolve_time_expressions, summarize_dates

MON = datetime(2023, 5, 8, 13, 56)  # a Monday
D = date


def resolve_one(text: str, reference: datetime = MON) -> tuple[str, date, date, str]:
    mentions = resolve_time_expressions(text, reference)
    assert len(mentions) == 1, (text, mentions)
    m = mentions[0]
    assert text[m.start : m.end] == m.phrase
    return m.phrase, m.date_from, m.date_to, m.granularity


# ------------------------------------------------------------------------------ time expressions

CASES = [  # (text, reference, phrase, date_from, date_to, granularity)
    # day words
    (
        "I went to a LGBTQ support group yesterday and it was so powerful.",
        MON,
        "yesterday",
        D(2023, 5, 7),
        D(2023, 5, 7),
        "day",
    ),
    ("Today was rough.", MON, "Today", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("We saw it the day before yesterday.", MON, "the day before yesterday", D(2023, 5, 6), D(2023, 5, 6), "day"),
    ("I will call her tomorrow.", MON, "tomorrow", D(2023, 5, 9), D(2023, 5, 9), "day"),
    ("We are cooking tonight.", MON, "tonight", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("I ran this morning.", MON, "this morning", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("I barely slept last night.", MON, "last night", D(2023, 5, 7), D(2023, 5, 7), "day"),
    ("I met him the other day.", MON, "the other day", D(2023, 5, 1), D(2023, 5, 7), "day"),
    # weekdays around the week boundary (reference Monday)
    ("Last Saturday we painted a mural.", MON, "Last Saturday", D(2023, 5, 6), D(2023, 5, 6), "day"),
    ("I saw her last Sunday.", MON, "last Sunday", D(2023, 5, 7), D(2023, 5, 7), "day"),
    ("I saw her last Monday.", MON, "last Monday", D(2023, 5, 1), D(2023, 5, 1), "day"),
    ("I saw her last Tuesday.", MON, "last Tuesday", D(2023, 5, 2), D(2023, 5, 2), "day"),
    ("I saw her this past Friday.", MON, "this past Friday", D(2023, 5, 5), D(2023, 5, 5), "day"),
    ("The interview is next Tuesday.", MON, "next Tuesday", D(2023, 5, 9), D(2023, 5, 9), "day"),
    ("The interview is next Monday.", MON, "next Monday", D(2023, 5, 15), D(2023, 5, 15), "day"),
    ("I will finish it this Friday.", MON, "this Friday", D(2023, 5, 12), D(2023, 5, 12), "day"),
    ("I will see him this Monday.", datetime(2023, 5, 10), "this Monday", D(2023, 5, 15), D(2023, 5, 15), "day"),
    ("I will see him this coming Friday.", MON, "this coming Friday", D(2023, 5, 12), D(2023, 5, 12), "day"),
    ("This Sunday I painted.", MON, "This Sunday", D(2023, 5, 7), D(2023, 5, 7), "day"),
    ("We went hiking on Saturday.", MON, "on Saturday", D(2023, 5, 6), D(2023, 5, 6), "day"),
    ("I'm going to the beach on Saturday.", MON, "on Saturday", D(2023, 5, 13), D(2023, 5, 13), "day"),
    ("We went hiking last Sunday.", datetime(2023, 5, 7, 9), "last Sunday", D(2023, 4, 30), D(2023, 4, 30), "day"),
    ("We met last Friday.", datetime(2023, 1, 3, 10), "last Friday", D(2022, 12, 30), D(2022, 12, 30), "day"),
    # N units ago, digits and words
    ("I adopted him 3 days ago.", MON, "3 days ago", D(2023, 5, 5), D(2023, 5, 5), "day"),
    ("It was 10 days ago.", MON, "10 days ago", D(2023, 4, 28), D(2023, 4, 28), "day"),
    ("We moved a couple of days ago.", MON, "a couple of days ago", D(2023, 5, 5), D(2023, 5, 6), "day"),
    ("We moved a few days ago.", MON, "a few days ago", D(2023, 5, 4), D(2023, 5, 6), "day"),
    ("I called an hour ago.", datetime(2023, 5, 8, 0, 30), "an hour ago", D(2023, 5, 7), D(2023, 5, 7), "day"),
    ("I started a week ago.", MON, "a week ago", D(2023, 5, 1), D(2023, 5, 7), "week"),
    ("I started two weeks ago.", MON, "two weeks ago", D(2023, 4, 24), D(2023, 4, 30), "week"),
    ("I quit a few weeks back.", MON, "a few weeks back", D(2023, 4, 10), D(2023, 4, 30), "week"),
    ("I started three months ago.", MON, "three months ago", D(2023, 2, 1), D(2023, 2, 28), "month"),
    ("We married two years ago.", MON, "two years ago", D(2021, 1, 1), D(2021, 12, 31), "year"),
    ("We visited a month ago.", datetime(2023, 3, 31, 12), "a month ago", D(2023, 2, 1), D(2023, 2, 28), "month"),
    # weeks and weekends
    ("Last week was busy.", MON, "Last week", D(2023, 5, 1), D(2023, 5, 7), "week"),
    ("This week is busy.", MON, "This week", D(2023, 5, 8), D(2023, 5, 14), "week"),
    ("Next week is busy.", MON, "Next week", D(2023, 5, 15), D(2023, 5, 21), "week"),
    ("Last week was busy.", datetime(2023, 1, 3, 9), "Last week", D(2022, 12, 26), D(2023, 1, 1), "week"),
    ("We camped last weekend.", MON, "last weekend", D(2023, 5, 6), D(2023, 5, 7), "day"),
    ("We camped last weekend.", datetime(2023, 5, 7, 20), "last weekend", D(2023, 4, 29), D(2023, 4, 30), "day"),
    ("We camped last weekend.", datetime(2023, 5, 6, 20), "last weekend", D(2023, 4, 29), D(2023, 4, 30), "day"),
    ("We camped two weekends ago.", MON, "two weekends ago", D(2023, 4, 29), D(2023, 4, 30), "day"),
    ("We camped this past weekend.", MON, "this past weekend", D(2023, 5, 6), D(2023, 5, 7), "day"),
    ("We camped over the weekend.", MON, "over the weekend", D(2023, 5, 6), D(2023, 5, 7), "day"),
    ("We will camp next weekend.", MON, "next weekend", D(2023, 5, 13), D(2023, 5, 14), "day"),
    ("We will camp this weekend.", MON, "this weekend", D(2023, 5, 13), D(2023, 5, 14), "day"),
    ("This weekend we camped by the lake.", MON, "This weekend", D(2023, 5, 6), D(2023, 5, 7), "day"),
    # months and years, with rollover
    ("Last month I got promoted.", MON, "Last month", D(2023, 4, 1), D(2023, 4, 30), "month"),
    ("Last month I got promoted.", datetime(2023, 1, 3, 9), "Last month", D(2022, 12, 1), D(2022, 12, 31), "month"),
    ("Next month I start a new job.", MON, "Next month", D(2023, 6, 1), D(2023, 6, 30), "month"),
    ("Next month I start a new job.", datetime(2022, 12, 20), "Next month", D(2023, 1, 1), D(2023, 1, 31), "month"),
    ("This month is hectic.", MON, "This month", D(2023, 5, 1), D(2023, 5, 31), "month"),
    ("Last year we went to Spain.", datetime(2023, 1, 3, 9), "Last year", D(2022, 1, 1), D(2022, 12, 31), "year"),
    ("Next year we go to Spain.", MON, "Next year", D(2024, 1, 1), D(2024, 12, 31), "year"),
    ("We met in 2019.", MON, "in 2019", D(2019, 1, 1), D(2019, 12, 31), "year"),
    # named months
    ("I was born in May.", MON, "in May", D(2023, 5, 1), D(2023, 5, 31), "month"),
    ("We moved in March.", MON, "in March", D(2023, 3, 1), D(2023, 3, 31), "month"),
    ("We moved in June.", MON, "in June", D(2022, 6, 1), D(2022, 6, 30), "month"),
    ("We will move in June.", MON, "in June", D(2023, 6, 1), D(2023, 6, 30), "month"),
    ("We moved last May.", MON, "last May", D(2022, 5, 1), D(2022, 5, 31), "month"),
    ("We moved last March.", MON, "last March", D(2023, 3, 1), D(2023, 3, 31), "month"),
    ("We move next May.", MON, "next May", D(2024, 5, 1), D(2024, 5, 31), "month"),
    ("It started in early June.", MON, "in early June", D(2022, 6, 1), D(2022, 6, 30), "month"),
    ("We met in May 2022.", MON, "in May 2022", D(2022, 5, 1), D(2022, 5, 31), "month"),
    ("It opened Jan 2020.", MON, "Jan 2020", D(2020, 1, 1), D(2020, 1, 31), "month"),
    # seasons (northern hemisphere)
    ("We swam a lot last summer.", MON, "last summer", D(2022, 6, 1), D(2022, 8, 31), "month"),
    ("This spring was wet.", MON, "This spring", D(2023, 3, 1), D(2023, 5, 31), "month"),
    ("Last winter was cold.", MON, "Last winter", D(2022, 12, 1), D(2023, 2, 28), "month"),
    ("Next winter will be cold.", MON, "Next winter", D(2023, 12, 1), D(2024, 2, 29), "month"),
    ("This winter is cold.", datetime(2023, 1, 15), "This winter", D(2022, 12, 1), D(2023, 2, 28), "month"),
    ("Last fall we hiked.", MON, "Last fall", D(2022, 9, 1), D(2022, 11, 30), "month"),
    ("In the summer of 2021 we hiked.", MON, "the summer of 2021", D(2021, 6, 1), D(2021, 8, 31), "month"),
    # explicit dates
    ("The launch was on May 8, 2023.", MON, "May 8, 2023", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("The launch was 8 May 2023.", MON, "8 May 2023", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("The launch was 2023-05-08.", MON, "2023-05-08", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("The launch was 5/8/2023.", MON, "5/8/2023", D(2023, 5, 8), D(2023, 5, 8), "day"),
    ("The launch was on Jan. 5, 2021.", MON, "Jan. 5, 2021", D(2021, 1, 5), D(2021, 1, 5), "day"),
    ("It was the 5th of May.", MON, "the 5th of May", D(2023, 5, 5), D(2023, 5, 5), "day"),
    ("It was Saturday, May 6.", MON, "Saturday, May 6", D(2023, 5, 6), D(2023, 5, 6), "day"),
    ("The party was on May 20.", MON, "May 20", D(2022, 5, 20), D(2022, 5, 20), "day"),
    ("The party will be on May 20.", MON, "May 20", D(2023, 5, 20), D(2023, 5, 20), "day"),
    ("My birthday was June 3rd.", MON, "June 3rd", D(2022, 6, 3), D(2022, 6, 3), "day"),
    # rolling windows and future offsets
    ("I've been sick for the past few days.", MON, "for the past few days", D(2023, 5, 4), D(2023, 5, 8), "day"),
    ("It rained over the last two weeks.", MON, "over the last two weeks", D(2023, 4, 24), D(2023, 5, 8), "day"),
    ("In two weeks I will graduate.", MON, "In two weeks", D(2023, 5, 22), D(2023, 5, 28), "week"),
    ("We will meet 3 days from now.", MON, "3 days from now", D(2023, 5, 11), D(2023, 5, 11), "day"),
]


@pytest.mark.parametrize(
    "text,reference,phrase,date_from,date_to,granularity", CASES, ids=[f"{c[2]}@{c[1]:%Y-%m-%d}" for c in CASES]
)
def test_resolves(text, reference, phrase, date_from, date_to, granularity):
    assert resolve_one(text, reference) == (phrase, date_from, date_to, granularity)


@pytest.mark.parametrize(
    "text",
    [
        "I may go to the park later.",
        "It may be fine, who knows.",
        "Can you give me a second?",
        "I have 3 dogs and 2 cats.",
        "now I feel better",
        "I have been busy recently.",
        "Lately I feel tired all the time.",
        "We go hiking every Saturday.",
        "I love Sundays.",
        "The meeting took 2 hours.",
        "I lost 5 kg in two weeks.",
        "She scored 2019 points over her career.",
        "Feb 30 is not a day.",
        "The ratio was 3/4 overall.",
        "",
    ],
)
def test_no_false_positives(text):
    assert resolve_time_expressions(text, MON) == []


def test_several_mentions_in_text_order_and_longest_wins():
    text = "Yesterday I told her about last Saturday and about the trip two weekends ago."
    mentions = resolve_time_expressions(text, MON)
    assert [m.phrase for m in mentions] == ["Yesterday", "last Saturday", "two weekends ago"]
    for m in mentions:
        assert text[m.start : m.end] == m.phrase


def test_the_last_week_of_a_month_is_not_last_week():
    assert "last week" not in [m.phrase.lower() for m in resolve_time_expressions("The last week of May was fun.", MON)]


def test_aware_reference_uses_its_own_wall_clock_day():
    ref = datetime(2023, 5, 8, 1, 0, tzinfo=timezone(timedelta(hours=2)))
    assert resolve_one("I went there yesterday.", ref)[1] == D(2023, 5, 7)


def test_date_reference_is_accepted():
    assert resolve_one("I went there yesterday.", D(2023, 5, 8))[1] == D(2023, 5, 7)


PHRASES = [
    "yesterday",
    "last Saturday",
    "two weekends ago",
    "a few days ago",
    "next month",
    "in May 2022",
    "May 8, 2023",
    "last summer",
    "3 weeks ago",
    "this weekend",
    "recently",
    "the 5th of May",
    "tomorrow",
]


@settings(max_examples=150, deadline=None)
@given(
    parts=st.lists(st.one_of(st.sampled_from(PHRASES), st.text(max_size=12)), max_size=8),
    reference=st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 12, 31)),
)
def test_mentions_are_well_formed(parts, reference):
    text = " ".join(parts)
    mentions = resolve_time_expressions(text, reference)
    for m in mentions:
        assert isinstance(m, TimeMention)
        assert text[m.start : m.end] == m.phrase
        assert m.date_from <= m.date_to
        assert m.granularity in ("day", "week", "month", "year")
    assert all(a.end <= b.start for a, b in zip(mentions, mentions[1:]))


# ------------------------------------------------------------------------------ summary and tags


def test_summary_prefers_a_mention_that_is_not_the_speech_day():
    mentions = resolve_time_expressions("Today I told her about last Saturday.", MON)
    assert summarize_dates(mentions, MON) == PassageDate(D(2023, 5, 6), D(2023, 5, 6), "day", True, "last Saturday")


def test_summary_of_today_only_is_resolved_today():
    mentions = resolve_time_expressions("I feel great today.", MON)
    assert summarize_dates(mentions, MON) == PassageDate(D(2023, 5, 8), D(2023, 5, 8), "day", True, "today")


def test_summary_without_mentions_is_the_unresolved_reference_day():
    summary = summarize_dates(resolve_time_expressions("I feel great.", MON), MON)
    assert summary == PassageDate(D(2023, 5, 8), D(2023, 5, 8), "day", False, None)


@pytest.mark.parametrize(
    "date_from,date_to,granularity,tag",
    [
        (D(2023, 5, 7), D(2023, 5, 7), "day", "7 May 2023"),
        (D(2023, 5, 1), D(2023, 5, 7), "week", "1\u20137 May 2023"),
        (D(2023, 4, 29), D(2023, 5, 2), "day", "29 April \u2013 2 May 2023"),
        (D(2022, 12, 26), D(2023, 1, 1), "week", "26 December 2022 \u2013 1 January 2023"),
        (D(2023, 5, 1), D(2023, 5, 31), "month", "May 2023"),
        (D(2023, 3, 1), D(2023, 5, 31), "month", "March\u2013May 2023"),
        (D(2022, 12, 1), D(2023, 2, 28), "month", "December 2022 \u2013 February 2023"),
        (D(2022, 1, 1), D(2022, 12, 31), "year", "2022"),
        (D(2021, 1, 1), D(2022, 12, 31), "year", "2021\u20132022"),
    ],
)
def test_format_date_tag(date_from, date_to, granularity, tag):
    assert format_date_tag(date_from, date_to, granularity) == tag


# ------------------------------------------------------------------------------------- passages


def texts(text: str) -> list[str]:
    return [s.text for s in split_passages(text)]


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            "I went to a LGBTQ support group yesterday and it was so powerful. It helped me a lot!",
            ["I went to a LGBTQ support group yesterday and it was so powerful.", "It helped me a lot!"],
        ),
        (
            "Mr. Smith went to Washington. He met Dr. Jones there.",
            ["Mr. Smith went to Washington.", "He met Dr. Jones there."],
        ),
        (
            "We paid 3.5 dollars for fruit, e.g. apples and pears. Then we left the shop.",
            ["We paid 3.5 dollars for fruit, e.g. apples and pears.", "Then we left the shop."],
        ),
        (
            "We bought apples, pears, etc. and went home. Then we slept.",
            ["We bought apples, pears, etc. and went home.", "Then we slept."],
        ),
        ("I live in the U.S. It is a big country.", ["I live in the U.S.", "It is a big country."]),
        ("It happened at 5 p.m. yesterday and I was there.", ["It happened at 5 p.m. yesterday and I was there."]),
        (
            "I read J. K. Rowling last year. It was fun to read.",
            ["I read J. K. Rowling last year.", "It was fun to read."],
        ),
        (
            "I was thinking... maybe not today. What do you think?",
            ["I was thinking... maybe not today.", "What do you think?"],
        ),
        (
            "I waited for hours\u2026 Then it finally happened!",
            ["I waited for hours\u2026", "Then it finally happened!"],
        ),
        (
            "That was so much fun! \U0001f60a\U0001f60a Let's do it again soon.",
            ["That was so much fun! \U0001f60a\U0001f60a", "Let's do it again soon."],
        ),
        (
            'He said "stop right there." Then he left the room.',
            ['He said "stop right there."', "Then he left the room."],
        ),
        ("Really?! You went there?? No way that happened.", ["Really?! You went there??", "No way that happened."]),
        (
            "Visit example.com for details. Thanks a lot everyone.",
            ["Visit example.com for details.", "Thanks a lot everyone."],
        ),
        (
            "First line is here\nSecond line is here\n\n\nThird line is here",
            ["First line is here", "Second line is here", "Third line is here"],
        ),
        ("Wow! I went hiking yesterday with my dog.", ["Wow! I went hiking yesterday with my dog."]),
        ("I went hiking yesterday with my dog. Haha.", ["I went hiking yesterday with my dog. Haha."]),
        (
            "Wow! Nice! I went hiking yesterday with my dog. It was great fun.",
            ["Wow! Nice! I went hiking yesterday with my dog.", "It was great fun."],
        ),
        ("1. Buy milk today\n2. Call the dentist tomorrow", ["1. Buy milk today", "2. Call the dentist tomorrow"]),
        ("Okay.", ["Okay."]),
        ("   Hi there   ", ["Hi there"]),
        ("", []),
        (" \n\t ", []),
    ],
)
def test_split_passages(text, expected):
    assert texts(text) == expected


def test_spans_index_the_original():
    text = "  Wow!  I went to the support group yesterday.\n\nIt was so powerful. \U0001f60d  "
    spans = split_passages(text)
    first, second = "Wow!  I went to the support group yesterday.", "It was so powerful. \U0001f60d"
    assert spans == [Span(2, 2 + len(first), first), Span(text.index("It"), text.index("It") + len(second), second)]
    assert all(text[s.start : s.end] == s.text for s in spans)


def check_partition(text: str) -> None:
    """Spans are ordered, disjoint, trimmed slices of text covering every non-whitespace character."""
    spans = split_passages(text)
    covered = [False] * len(text)
    for before, s in zip([None, *spans], spans):
        assert s.text and s.text == text[s.start : s.end] and s.text == s.text.strip()
        assert before is None or before.end <= s.start
        covered[s.start : s.end] = [True] * (s.end - s.start)
    assert all(covered[i] for i, ch in enumerate(text) if not ch.isspace()), (text, spans)


_ALPHABET = st.sampled_from(list("abcXYZ019 .!?\u2026\"')\n\t,;-") + ["\U0001f60a", "\u00a0", "\u2028"])
_WORDS = st.sampled_from(
    [
        "Mr.",
        "Dr.",
        "e.g.",
        "U.S.",
        "etc.",
        "3.5",
        "...",
        "Wow!",
        "Haha.",
        "yes",
        "I",
        "went",
        "home",
        "yesterday.",
        "why?",
        "\U0001f60a",
        "\n",
        "J.",
        "\u2026",
        "ok!!",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=80))
def test_every_non_space_character_in_exactly_one_passage(text):
    check_partition(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=30).map(" ".join))
def test_partition_on_sentence_like_text(text):
    check_partition(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_partition_on_arbitrary_unicode(text):
    check_partition(text)
