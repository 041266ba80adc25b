"""Which way a time mention points (a plan looks forward, the past looks back), recurring times
that are never pinned to one date, and the passage's date label (app.temporal.phrases,
app.episodes.passages): pure Python, no database."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from donto.episodes.passages import dated_passages, split_passages
from donto.temporal.phrases import (
    PassageDate,
    date_tag_text,
    format_date_tag,
    recurring_phrases,
    resolve_time_expressions,
    summarize_dates,
    tense_direction,
)

D = date
JAN_20 = datetime(2025, 1, 20, 10)  # a Monday
MAR_12 = datetime(2025, 3, 12, 10)  # a Wednesday
DEC_5 = datetime(2024, 12, 5, 10)
WED = datetime(2023, 5, 10, 9)


def tags(text: str, reference: datetime) -> list[tuple[str, str]]:
    return [
        (m.phrase, format_date_tag(m.date_from, m.date_to, m.granularity))
        for m in resolve_time_expressions(text, reference)
    ]


# ------------------------------------------------------------------------------ direction


@pytest.mark.parametrize(
    "text,reference,expected",
    [
        # plans, intentions and hopes look forward
        ("Thinking about a hiking trip to Skye in May, if work lets me.", JAN_20, ("in May", "May 2025")),
        ("We're planning a trip to Lisbon in June.", MAR_12, ("in June", "June 2025")),
        ("Planning the Lisbon trip for June.", MAR_12, ("for June", "June 2025")),
        ("Hoping to see the cherry blossom in April.", MAR_12, ("in April", "April 2025")),
        ("I'd love to visit Oslo in February.", MAR_12, ("in February", "February 2026")),
        ("I'll call on Friday.", WED, ("on Friday", "12 May 2023")),
        ("On Friday, I'll call her back.", WED, ("On Friday", "12 May 2023")),
        ("Can't wait for Saturday!", WED, ("Saturday", "13 May 2023")),
        # the past looks back
        ("I saw him on Monday.", WED, ("on Monday", "8 May 2023")),
        ("I went to Paris in May.", JAN_20, ("in May", "May 2024")),
        ("We were planning to go in June but it fell through.", MAR_12, ("in June", "June 2024")),
        ("I hope you had fun on Saturday.", WED, ("on Saturday", "6 May 2023")),
        ("We sat next to each other on Saturday.", WED, ("on Saturday", "6 May 2023")),
        ("The sale will last until Friday.", WED, ("Friday", "12 May 2023")),
        # neither said: the latest, as before
        ("Skye in May.", JAN_20, ("in May", "May 2024")),
    ],
)
def test_an_ambiguous_time_points_the_way_the_sentence_speaks(text, reference, expected):
    assert tags(text, reference) == [expected]


def test_each_mention_takes_the_direction_of_its_own_clause():
    text = "I went there in March, and in June I will go back."
    assert tags(text, MAR_12) == [("in March", "March 2025"), ("in June", "June 2025")]
    text = "We will meet on Friday, but I saw her on Tuesday."
    assert tags(text, WED) == [("on Friday", "12 May 2023"), ("on Tuesday", "9 May 2023")]


def test_a_question_about_the_past_looks_back_and_one_about_plans_forward():
    assert tags("What did Lena do in May?", DEC_5) == [("in May", "May 2024")]
    assert tags("What is Lena doing in May?", JAN_20) == [("in May", "May 2025")]


def test_tense_direction_reads_forward_back_or_neither():
    text = "We will fly out in May."
    assert tense_direction(text, text.index("in May"), len(text) - 1) == 1
    text = "We flew out in May."
    assert tense_direction(text, text.index("in May"), len(text) - 1) == -1
    text = "Skye in May."
    assert tense_direction(text, text.index("in May"), len(text) - 1) == 0


def test_a_marker_inside_the_mention_is_the_mention_own():
    text = "Next May."  # "next" belongs to the mention; nothing else speaks
    assert tense_direction(text, 0, len("Next May")) == 0
    assert tags(text, JAN_20) == [("Next May", "May 2025")]


# ------------------------------------------------------------------------------ recurring times


@pytest.mark.parametrize(
    "text,phrase",
    [
        ("The patient app ships every second Thursday.", "every second Thursday"),
        ("We do yoga on Mondays.", "on Mondays"),
        ("Each spring we plant tomatoes.", "Each spring"),
        ("We meet every other week.", "every other week"),
        ("The market is every Thursday.", "every Thursday"),
        ("We go to Skye every year in May.", "every year in May"),
        ("Every May we go to Skye.", "Every May"),
        ("I run every morning.", "every morning"),
        ("The report is weekly.", "weekly"),
        ("We call twice a month.", "twice a month"),
        ("Saturday nights are for pizza.", "Saturday nights"),
    ],
)
def test_a_recurring_time_is_named_and_never_pinned_to_a_date(text, phrase):
    assert recurring_phrases(text) == [phrase]
    assert resolve_time_expressions(text, datetime(2024, 9, 30, 9)) == []


def test_a_recurring_time_beside_a_date_leaves_the_date():
    text = "Since last month we meet every Thursday."
    assert recurring_phrases(text) == ["every Thursday"]
    assert tags(text, WED) == [("last month", "April 2023")]


def test_a_count_of_weekends_is_no_recurring_time():
    assert recurring_phrases("We camped two weekends ago.") == []
    assert recurring_phrases("Each may bring a friend.") == []  # lower-case "may" is the verb


def test_summary_keeps_the_recurring_time_and_stays_unresolved_without_a_date():
    text = "The patient app ships every second Thursday."
    ref = datetime(2024, 9, 30, 9)
    summary = summarize_dates(resolve_time_expressions(text, ref), ref, recurring_phrases(text))
    assert summary == PassageDate(D(2024, 9, 30), D(2024, 9, 30), "day", False, None, "every second Thursday")


def test_a_passage_row_carries_its_recurring_time_but_no_date():
    text = "The patient app ships every second Thursday. I saw Ann on Monday."
    rows = dated_passages(split_passages(text), WED)
    assert [(r["dateResolved"], r["datePhrase"], r["dateRecurring"]) for r in rows] == [
        (False, None, "every second Thursday"),
        (True, "on Monday", None),
    ]
    assert (rows[1]["dateFrom"], rows[1]["dateTag"]) == (D(2023, 5, 8), "8 May 2023")


# ------------------------------------------------------------------------------ date labels


@pytest.mark.parametrize(
    "phrase,tag,label",
    [
        ("May 2024", "May 2024", "May 2024"),
        ("8 May 2023", "8 May 2023", "8 May 2023"),
        ("May 8, 2023", "8 May 2023", "8 May 2023"),
        ("in May 2022", "May 2022", "May 2022"),
        ("Jan 2020", "January 2020", "January 2020"),
        ("2023-05-08", "8 May 2023", "2023-05-08: 8 May 2023"),
        ("in May", "May 2025", "in May: May 2025"),
        ("the 5th of May", "5 May 2023", "the 5th of May: 5 May 2023"),
        ("every second Thursday", "recurring", "every second Thursday: recurring"),
        (None, "May 2025", "May 2025"),
    ],
)
def test_a_date_label_does_not_repeat_a_phrase_that_says_the_tag(phrase, tag, label):
    assert date_tag_text(phrase, tag) == label


# ------------------------------------------------------------------------------ schedules and starting points

NOV_20 = datetime(2024, 11, 20, 10)  # a Wednesday


@pytest.mark.parametrize(
    "text,reference,expected",
    [
        ("My course exams are in January, wish me luck.", NOV_20, ("in January", "January 2025")),
        ("And I start my new job at the airport in February.", datetime(2024, 1, 14), ("in February", "February 2024")),
        ("The course starts in May.", JAN_20, ("in May", "May 2025")),
        # an explicit past marker in the clause still wins over the schedule present tense
        ("We were in Rome on Friday.", WED, ("on Friday", "5 May 2023")),
        ("That's the photo I took in May.", JAN_20, ("in May", "May 2024")),
        ("Lena's party in May.", JAN_20, ("in May", "May 2024")),  # a possessive is no present tense
    ],
)
def test_a_present_tense_schedule_looks_forward_unless_its_clause_speaks_of_the_past(text, reference, expected):
    assert tags(text, reference) == [expected]


def test_a_schedule_present_tense_is_weaker_than_the_nearest_past_in_its_clause():
    text = "I went to Paris in May and it is lovely."
    assert tense_direction(text, text.index("in May"), text.index("in May") + 6) == -1
    text = "It is in May."
    assert tense_direction(text, text.index("in May"), text.index("in May") + 6) == 1


@pytest.mark.parametrize(
    "text,reference,expected",
    [
        (
            "Landlord emailed, the rent goes up to £700 each from April.",
            datetime(2025, 2, 9),
            ("from April", "April 2025"),
        ),
        (
            "I got a summer placement at a lab in Cambridge, from July to September.",
            datetime(2025, 3, 9),
            ("from July to September", "July–September 2025"),
        ),
        (
            "From November to February we ski.",
            datetime(2025, 3, 9),
            ("From November to February", "November 2025 – February 2026"),
        ),
        ("I worked there from March.", NOV_20, ("from March", "March 2024")),  # the past still looks back
    ],
)
def test_a_starting_month_is_read_and_looks_forward_unless_its_clause_is_past(text, reference, expected):
    assert tags(text, reference) == [expected]


def test_a_starting_month_beside_recurring_weekdays_keeps_both():
    text = "From February we rehearse on Wednesdays, the hall is booked on Tuesdays for yoga."
    assert tags(text, datetime(2024, 1, 16)) == [("From February", "February 2024")]
    assert recurring_phrases(text) == ["on Wednesdays", "on Tuesdays"]


@pytest.mark.parametrize(
    "text,phrase",
    [
        ("Opening hours: Tuesday to Saturday, 10am to 6pm.", "Tuesday to Saturday"),
        ("We are open Monday to Friday.", "Monday to Friday"),
        ("Open Mon\u2013Fri.", "Mon\u2013Fri"),
        ("Tuesday through Saturday we close at six.", "Tuesday through Saturday"),
        (
            "On the first Saturday of every month we sing at the Rowan House care home.",
            "On the first Saturday of every month",
        ),
        ("Rent is due on the 1st of the month.", "on the 1st of the month"),
    ],
)
def test_a_weekday_range_or_a_monthly_ordinal_is_recurring_and_pins_no_weekday(text, phrase):
    assert recurring_phrases(text) == [phrase]
    assert resolve_time_expressions(text, NOV_20) == []


def test_an_ordinal_weekday_of_a_named_month_is_one_date_ahead_in_a_question():
    text = "Is the carol concert on the second Sunday of December again?"
    assert tags(text, datetime(2023, 9, 19)) == [("the second Sunday of December", "10 December 2023")]
    assert tags("The last Friday in May 2024 was hot.", NOV_20) == [("The last Friday in May 2024", "31 May 2024")]


def test_a_bare_day_of_the_month_is_this_month_while_to_come_and_takes_its_weekday_with_it():
    text = "Black Friday is the 29th, shall we open on the Monday that week too?"
    mentions = resolve_time_expressions(text, NOV_20)
    assert (mentions[0].date_from, mentions[0].date_to) == (D(2024, 11, 29), D(2024, 11, 29))
    assert all(m.date_from != D(2024, 11, 22) for m in mentions)  # "Friday" of "Black Friday" is not pinned apart
    summary = summarize_dates(mentions, NOV_20)
    assert summary.date_from == D(2024, 11, 29)
    assert tags("See you on the 3rd!", NOV_20) == [("on the 3rd", "3 December 2024")]  # the 3rd is over: next month's
    assert tags("We met on the 3rd.", NOV_20) == [("on the 3rd", "3 November 2024")]
    assert tags("The party is on the 25th of this month.", NOV_20) == [
        ("on the 25th of this month", "25 November 2024")
    ]
    assert tags("We live on the 3rd floor.", NOV_20) == []  # an ordinal before a noun is no day
