"""`python -m bench own-memory`: small, mixed workspaces written as a new user writes them, scored as checks.

Eight workspaces, each its own people and shape: friends' chats months apart (a move, a new job, a
plan that replaces nothing), a shop's team chat beside a returns policy revised under the same
external_id, a family's trips, visits, guesses and the move they decided against, a man telling an
assistant about his tablets and his diet, a choir's rehearsals every Tuesday and then on Wednesdays,
a project team beside its brief, flatmates' rent and bins, a student changing course. Names carry
accents (Zoë, José, Małgorzata, Søren, Aurélie, Björn, Chloé), and a question sometimes leaves them
out, as people type. Everything goes in and comes out through REST, as an agent gets it: chats by
POST /v1/episodes (each turn's occurred_at a minute after the one before, from the session's
started_at), documents by POST /v1/documents (dated by occurred_at; a second text under an
external_id is its next revision), and every question by POST /v1/recall, k=10, with provenance, in
the default time scope: the clock's now, after every session (all of them are in 2023-2025), and
known as of now, which a documents' revision, recorded by the run, needs.

The checks (an item is found by a distinctive substring of its text, the date tag and the
"(a later statement: ...)" note left out; the first such item is the one):
  answer  the answering unit is in the top k (top-1, top-3 and top-k rates, and its rank)
  latest  a question about now: the later statement is in the top 3 and above every earlier one
  holds   a statement that still holds carries no `replaced_by` and no "(a later statement:" note
          (and is in the bundle: a bundle without it does not tell the agent it holds)
  tag     the date tag donto puts on a turn or passage (asked with its own text, so the check reads
          the tag, not the ranking): a time said relatively resolves to the right month or day
          ("in May" said in January is this May); a recurring time ("every second Thursday", "on
          Sundays") is pinned to no date ("Thursday: 8 February 2024"), and whether the tag says
          "recurring" is counted beside it
  never   a question about something never mentioned: the top item's `relevance` (when the bundle
          carries one) against the answerable questions' (answer, latest, holds) as an AUC, and how
          many such bundles a bundle-level boolean flags as holding nothing relevant

A failing check prints one line; then a table per kind. It is a measurement: it exits 0 whatever
the checks say, non-zero only when something breaks. The data is written here, by hand, as a user
would write it, before any tuning: a check, not a training set."""

from __future__ import annotations

import argparse
import json
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from bench.common import bench_settings, served_api
from donto.settings import Settings

Text = str | tuple[str, ...]  # a substring of the unit's text, or any of several


@dataclass(frozen=True)
class Chat:
    session: str  # turn ids are f"{session}-{index}"
    started: str
    turns: list[tuple[str, str]]  # (speaker, what they said)


@dataclass(frozen=True)
class Document:
    external_id: str
    title: str
    occurred: str
    text: str


@dataclass(frozen=True)
class Answer:
    question: str
    unit: Text


@dataclass(frozen=True)
class Latest:
    question: str
    earlier: Text
    later: Text


@dataclass(frozen=True)
class Holds:
    question: str
    unit: Text


@dataclass(frozen=True)
class Tag:
    said: str  # a substring of one turn or document line: recalled with that whole turn or line
    expect: str | None = None  # in the tag's resolved part ("May 2025")
    unpinned: str | None = None  # a weekday that recurs: no date may follow it in the tag


@dataclass(frozen=True)
class Never:
    question: str


Check = Answer | Latest | Holds | Tag | Never


@dataclass(frozen=True)
class Workspace:
    name: str
    events: list[Chat | Document]  # posted in this order
    checks: list[Check]


WORKSPACES: list[Workspace] = [
    Workspace(
        "lena",
        [
            Chat(
                "feb",
                "2024-02-11T19:30:00Z",
                [
                    ("Lena", "I've been a nurse at St James's in Leeds for six years now, nights mostly."),
                    ("Marek", "Six years! Do you still like it?"),
                    ("Lena", "Most days. And I love my flat in Headingley, it's so close to the park."),
                    ("Aoife", "Our book club meets every second Thursday at the Brewery Tap, you should come."),
                    ("Marek", "I'm selling my old Fiesta if anyone wants it."),
                ],
            ),
            Document(
                "medly-onboarding",
                "Medly research team onboarding",
                "2024-09-02T09:00:00Z",
                "Medly research team onboarding\n"
                "Lena Novak joined the research team on 1 September 2024.\n"
                "New starters get a laptop on their first morning and meet their buddy on day two.\n"
                "Team retros are held every other Friday at 3pm.\n"
                "Questions about payroll go to people@medly.example.",
            ),
            Chat(
                "oct",
                "2024-10-06T18:00:00Z",
                [
                    ("Lena", "Big news since we last talked: I left nursing and moved to Glasgow in August."),
                    ("Aoife", "No way! What are you doing now?"),
                    ("Lena", "I'm a UX researcher at Medly now, mostly interviewing patients about the app."),
                    ("Marek", "Glasgow suits you. Are you keeping up the book club?"),
                    ("Lena", "Yes, I still join the book club on video."),
                ],
            ),
            Chat(
                "jan",
                "2025-01-20T20:00:00Z",
                [
                    ("Lena", "Thinking about a hiking trip to Skye in May, if work lets me."),
                    ("Marek", "Take me with you, I need a break from the office."),
                    ("Aoife", "Skye in May is midge season, bring spray."),
                ],
            ),
        ],
        [
            Latest("Where does Lena live now?", earlier="flat in Headingley", later="moved to Glasgow"),
            Holds("Where does Lena live now?", "moved to Glasgow"),
            Latest("What is Lena's job these days?", earlier="nurse at St James's", later="UX researcher at Medly"),
            Holds("What does Lena do for work now?", "UX researcher at Medly"),
            Holds("Is Lena still in the book club?", "still join the book club"),
            Answer("When did Lena join the research team?", "joined the research team on 1 September 2024"),
            Answer("When do new starters meet their buddy?", "meet their buddy on day two"),
            Answer("Where is Lena thinking of going hiking?", "hiking trip to Skye"),
            Answer("How often does the book club meet?", "every second Thursday"),
            Tag("hiking trip to Skye in May", expect="May 2025"),
            Tag("moved to Glasgow in August", expect="August 2024"),
            Tag("every second Thursday", unpinned="Thursday"),
            Tag("every other Friday", unpinned="Friday"),
            Never("What car does Lena drive?"),
            Never("What is the name of Lena's dog?"),
            Never("Which football team does Marek support?"),
        ],
    ),
    Workspace(
        "shop",
        [
            Chat(
                "mar",
                "2024-03-04T09:15:00Z",
                [
                    ("Zoë", "A customer asked about refunds again this morning."),
                    ("José", "I told her refunds take about a week to come through."),
                    ("Hannah", "We really need the refund rules written down somewhere."),
                    ("Zoë", "I'll write up a returns policy this week."),
                ],
            ),
            Document(
                "returns-policy",
                "Returns and refunds",
                "2024-03-08T10:00:00Z",
                "Returns and refunds\n"
                "Items can be returned within 14 days of purchase with a receipt.\n"
                "Refunds are paid to the original card or as store credit.\n"
                "Sale items cannot be returned.\n"
                "Opening hours: Tuesday to Saturday, 10am to 6pm.",
            ),
            Chat(
                "jul",
                "2024-07-15T17:40:00Z",
                [
                    ("José", "From next month I'm only working Saturdays, I start my course in August."),
                    ("Hannah", "Fine by me, I'll cover the weekdays."),
                    ("Zoë", "People keep complaining that 14 days is too short for returns."),
                    ("José", "Then make it 30, the shop down the road does."),
                ],
            ),
            Document(  # the same external_id: the policy's second revision
                "returns-policy",
                "Returns and refunds",
                "2024-09-02T10:00:00Z",
                "Returns and refunds\n"
                "Items can be returned within 30 days of purchase with a receipt.\n"
                "Refunds are paid to the original card or as store credit.\n"
                "Sale items can be exchanged but not refunded.\n"
                "Opening hours: Tuesday to Saturday, 10am to 6pm.",
            ),
            Chat(
                "nov",
                "2024-11-20T16:00:00Z",
                [
                    ("Hannah", "Black Friday is the 29th, shall we open on the Monday that week too?"),
                    ("Zoë", "Yes, and I'm ordering the Christmas stock on Friday."),
                    ("José", "My course exams are in January, wish me luck."),
                ],
            ),
        ],
        [
            Answer("Can refunds be paid as store credit?", "original card or as store credit"),
            Latest("How many days do customers have to return something now?", "within 14 days", "within 30 days"),
            Latest("Can sale items be returned now?", earlier="Sale items cannot be returned", later="exchanged but"),
            Holds("How are refunds paid now?", "original card or as store credit"),
            Holds("What days does Jose work these days?", "only working Saturdays"),
            Answer("What are the shop's opening hours?", "Tuesday to Saturday, 10am to 6pm"),
            Answer("How long do refunds take to come through?", "about a week to come through"),
            Tag("only working Saturdays", expect="August 2024"),
            Tag("exams are in January", expect="January 2025"),
            Tag("Christmas stock on Friday", expect="22 November 2024"),
            Tag("Black Friday is the 29th", expect="29 November 2024"),
            Tag("Opening hours: Tuesday to Saturday", unpinned="Tuesday"),
            Never("What is the shop's wifi password?"),
            Never("Who is the shop's accountant?"),
        ],
    ),
    Workspace(
        "family",
        [
            Chat(
                "mar23",
                "2023-03-12T20:00:00Z",
                [
                    ("Małgorzata", "We might move to Gdańsk next year, nothing is decided yet."),
                    ("Piotr", "My mum is coming from Poznań to stay with us in June."),
                    ("Małgorzata", "Babcia always brings too much food, I love it."),
                    ("Zosia", "Can we go to Portugal in the summer holidays?"),
                    ("Piotr", "Maybe, if the flights are not crazy."),
                ],
            ),
            Chat(
                "aug23",
                "2023-08-27T19:00:00Z",
                [
                    ("Zosia", "Portugal was the best, I swam every day in the Algarve."),
                    ("Piotr", "Mum went back to Poznań last week, the flat is quiet now."),
                    ("Małgorzata", "I'm still not sure about Gdańsk, the schools there worry me."),
                ],
            ),
            Chat(
                "jan24",
                "2024-01-14T18:30:00Z",
                [
                    ("Małgorzata", "We've decided: we're staying in Kraków, Zosia's school is too good to leave."),
                    ("Piotr", "And I start my new job at the airport in February."),
                    ("Zosia", "I'm learning the violin now, lessons every Wednesday after school."),
                ],
            ),
            Chat(
                "oct24",
                "2024-10-05T11:00:00Z",
                [
                    ("Piotr", "Work at the airport is busy but I like it."),
                    ("Małgorzata", "We're booking Lisbon for next Easter, Zosia wants to see the trams."),
                    ("Zosia", "I passed my first violin exam!"),
                ],
            ),
        ],
        [
            Latest("Where is the family living these days?", earlier="might move to Gdańsk", later="staying in Kraków"),
            Holds("Which city do they live in now?", "staying in Kraków"),
            Holds("Where does Piotr's mother live now?", "went back to Poznań"),
            Answer("Where did they go on holiday in summer 2023?", "Portugal was the best"),
            Answer("Where does Piotr work?", ("new job at the airport", "Work at the airport")),
            Answer("When does Zosia have violin lessons?", "every Wednesday after school"),
            Answer("Where are they going next Easter?", "booking Lisbon"),
            Tag("might move to Gdańsk next year", expect="2024"),
            Tag("stay with us in June", expect="June 2023"),
            Tag("new job at the airport in February", expect="February 2024"),
            Tag("lessons every Wednesday", unpinned="Wednesday"),
            Never("What is the family's dog called?"),
            Never("What does Małgorzata do for a living?"),
            Never("Which football club does Zosia play for?"),
        ],
    ),
    Workspace(
        "health",
        [
            Chat(
                "jun23",
                "2023-06-05T07:45:00Z",
                [
                    ("Søren", "My doctor says my cholesterol is too high, so I'm cutting out cheese completely."),
                    ("assistant", "That's a good start. Did the doctor suggest anything else?"),
                    ("Søren", "I take 10 mg of atorvastatin every evening now."),
                    ("Søren", "And I run 5k on Sundays with my neighbour Jens."),
                    ("assistant", "Great. Do you want a reminder for the evening tablet?"),
                    ("Søren", "Yes please, around 9pm."),
                ],
            ),
            Chat(
                "dec23",
                "2023-12-10T21:10:00Z",
                [
                    ("Søren", "Blood test came back better, but the doctor raised my atorvastatin to 20 mg."),
                    ("Søren", "I'm allowing myself cheese again, only at weekends."),
                    ("assistant", "Noted, 20 mg from now on. I'll keep the 9pm reminder."),
                ],
            ),
            Chat(
                "apr24",
                "2024-04-22T06:50:00Z",
                [
                    ("Søren", "I've started swimming on Wednesday mornings as well."),
                    ("Søren", "Maybe I'll try a half marathon in October, we'll see how my knee holds up."),
                    ("assistant", "Exciting. Should I look up half marathons near Aarhus?"),
                    ("Søren", "Not yet, I'm not sure I'll sign up."),
                ],
            ),
        ],
        [
            Latest("What dose of atorvastatin does Søren take now?", "10 mg of atorvastatin", "atorvastatin to 20 mg"),
            Latest("Is Soren still avoiding cheese?", earlier="cutting out cheese", later="cheese again, only at"),
            Holds("What exercise does Søren do these days?", "run 5k on Sundays"),
            Answer("When does Søren go swimming?", "swimming on Wednesday mornings"),
            Answer("What time is the tablet reminder?", "around 9pm"),
            Answer("Is Søren planning a race?", "half marathon in October"),
            Tag("run 5k on Sundays", unpinned="Sunday"),
            Tag("swimming on Wednesday mornings", unpinned="Wednesday"),
            Tag("half marathon in October", expect="October 2024"),
            Never("What is Søren allergic to?"),
            Never("Which hospital did Søren have surgery at?"),
            Never("How many children does Søren have?"),
        ],
    ),
    Workspace(
        "choir",
        [
            Chat(
                "sep23",
                "2023-09-19T21:30:00Z",
                [
                    ("Ingrid", "Welcome back everyone! We rehearse every Tuesday at 7:30 in St Mary's church hall."),
                    ("Aurélie", "I've conducted this choir since 2019 and this is our biggest group yet."),
                    ("Dmitri", "Subs are £40 a term, you can pay me or Ingrid."),
                    ("Kofi", "Is the carol concert on the second Sunday of December again?"),
                    ("Ingrid", "Yes, 10 December, 4pm."),
                ],
            ),
            Chat(
                "jan24",
                "2024-01-16T21:15:00Z",
                [
                    ("Ingrid", "From February we rehearse on Wednesdays, the hall is booked on Tuesdays for yoga."),
                    ("Dmitri", "Subs are going up to £45 a term from the spring."),
                    ("Aurélie", "I'm away in March, Kofi will conduct the two rehearsals while I'm gone."),
                    ("Kofi", "Happy to, just don't expect miracles."),
                ],
            ),
            Chat(
                "may24",
                "2024-05-15T21:00:00Z",
                [
                    ("Aurélie", "Thank you Kofi for covering in March, it's good to be back."),
                    ("Ingrid", "On the first Saturday of every month we sing at the Rowan House care home."),
                    ("Dmitri", "The summer concert is on 6 July at the cathedral."),
                    ("Kofi", "My daughter wants to join too, is 15 too young?"),
                ],
            ),
        ],
        [
            Latest("When does the choir rehearse now?", "every Tuesday at 7:30", "rehearse on Wednesdays"),
            Latest("How much are choir subs now?", earlier="£40 a term", later="£45 a term"),
            Holds("Who conducts the choir these days?", "conducted this choir since 2019"),
            Answer("When is the summer concert?", "6 July at the cathedral"),
            Answer("Where does the choir sing on the first Saturday of the month?", "Rowan House care home"),
            Answer("Who stood in for Aurelie in March?", "Kofi will conduct"),
            Tag("every Tuesday at 7:30", unpinned="Tuesday"),
            Tag("From February we rehearse on Wednesdays", expect="February 2024"),
            Tag("From February we rehearse on Wednesdays", unpinned="Wednesday"),
            Tag("first Saturday of every month", unpinned="Saturday"),
            Tag("second Sunday of December", expect="December 2023"),
            Never("Who plays the piano for the choir?"),
            Never("What did the choir sing at the Easter service?"),
        ],
    ),
    Workspace(
        "atlas",
        [
            Document(
                "atlas-brief",
                "Atlas app project brief",
                "2024-05-20T09:00:00Z",
                "Atlas app project brief\n"
                "Owner: Hiroshi Tanaka.\n"
                "The Atlas app lets field engineers log site visits offline.\n"
                "Budget: £120,000, including the external design agency.\n"
                "Target launch: September 2024, iOS first, Android a month later.",
            ),
            Chat(
                "jun24",
                "2024-06-10T10:00:00Z",
                [
                    ("Hiroshi", "Kick-off went well, we ship the Atlas app in September."),
                    ("Amara", "I'll lead the backend, the sync service is the scary part."),
                    ("Björn", "I'm on the iOS client until the data team needs me."),
                    ("Hiroshi", "Stand-up is every morning at 9:30, short ones please."),
                ],
            ),
            Chat(
                "sep24",
                "2024-09-03T10:00:00Z",
                [
                    ("Hiroshi", "Bad news: the launch slipped to November, the offline sync isn't stable."),
                    ("Amara", "The sync service should be solid in a few weeks."),
                    ("Björn", "I'm moving to the data team in January, I'll hand over iOS before then."),
                ],
            ),
            Chat(
                "feb25",
                "2025-02-11T10:00:00Z",
                [
                    ("Björn", "First month on the data team, mostly dashboards so far."),
                    ("Amara", "The sync service hasn't dropped a record since the launch."),
                    ("Hiroshi", "We're hiring a second iOS developer to replace Björn."),
                ],
            ),
        ],
        [
            Latest(
                "When is the Atlas app launching now?",
                earlier=("ship the Atlas app in September", "Target launch: September"),
                later="slipped to November",
            ),
            Latest("Which team is Bjorn on now?", earlier="on the iOS client", later="First month on the data team"),
            Holds("Who leads the backend now?", "lead the backend"),
            Answer("What is the budget for the Atlas app?", "£120,000"),
            Answer("Who owns the Atlas project?", "Owner: Hiroshi Tanaka"),
            Answer("What does the Atlas app do?", "log site visits offline"),
            Tag("ship the Atlas app in September", expect="September 2024"),
            Tag("moving to the data team in January", expect="January 2025"),
            Never("Which cloud provider does the Atlas backend run on?"),
            Never("What is Amara's favourite programming language?"),
        ],
    ),
    Workspace(
        "flat",
        [
            Chat(
                "sep24",
                "2024-09-29T20:00:00Z",
                [
                    ("Chloé", "Reminder: bins go out every Monday night, recycling every other week."),
                    ("Rahul", "Rent is £650 each, due on the 1st of the month."),
                    ("Kwame", "I'll do the big shop on Saturdays if you two split the cleaning."),
                    ("Chloé", "Deal. The landlord is Mr Patel, his number is on the fridge."),
                ],
            ),
            Chat(
                "feb25",
                "2025-02-09T19:00:00Z",
                [
                    ("Rahul", "Landlord emailed, the rent goes up to £700 each from April."),
                    ("Kwame", "Ugh. I might look for somewhere closer to work, not sure yet."),
                    ("Chloé", "Please don't, we'd never find someone as tidy."),
                ],
            ),
            Chat(
                "jun25",
                "2025-06-01T12:00:00Z",
                [
                    ("Kwame", "OK I'm staying, the place near work fell through."),
                    ("Rahul", "The boiler is finally fixed, hot water is back."),
                    ("Chloé", "I'm away for two weeks in July, can someone water the plants?"),
                ],
            ),
        ],
        [
            Latest("How much is the rent now?", earlier="£650 each", later="£700 each"),
            Latest("Is Kwame still planning to move out?", earlier="might look for somewhere", later="OK I'm staying"),
            Holds("Who does the shopping these days?", "big shop on Saturdays"),
            Answer("Who is the landlord?", "Mr Patel"),
            Answer("When do the bins go out?", "every Monday night"),
            Answer("Is there hot water again?", "hot water is back"),
            Tag("bins go out every Monday night", unpinned="Monday"),
            Tag("£700 each from April", expect="April 2025"),
            Tag("two weeks in July", expect="July 2025"),
            Never("What is the wifi password?"),
            Never("Does anyone in the flat have a car?"),
        ],
    ),
    Workspace(
        "student",
        [
            Chat(
                "sep23",
                "2023-09-24T18:00:00Z",
                [
                    ("Ngozi", "Moved into halls today, my room is tiny but it has a view of the lake."),
                    ("Emeka", "Proud of you. What's the course like?"),
                    ("Ngozi", "I'm doing pharmacy at Nottingham, first lectures are on Monday."),
                    ("Emeka", "Mum says call her every Sunday, no excuses."),
                ],
            ),
            Chat(
                "jun24",
                "2024-06-16T17:00:00Z",
                [
                    ("Ngozi", "I switched to biochemistry after first year, pharmacy wasn't for me."),
                    ("Emeka", "Makes sense. Are you staying in halls?"),
                    ("Ngozi", "No, I'm moving into a house in Lenton with three friends in September."),
                ],
            ),
            Chat(
                "mar25",
                "2025-03-09T16:30:00Z",
                [
                    ("Ngozi", "I got a summer placement at a lab in Cambridge, from July to September."),
                    ("Emeka", "Amazing! Will you come home for Easter?"),
                    ("Ngozi", "Yes, I'll be back on the Thursday before."),
                ],
            ),
        ],
        [
            Latest("What is Ngozi studying now?", earlier="I'm doing pharmacy", later="switched to biochemistry"),
            Latest("Where does Ngozi live these days?", earlier="Moved into halls", later="house in Lenton"),
            Holds("Where does Ngozi live these days?", "house in Lenton"),
            Holds("What does Ngozi study at the moment?", "switched to biochemistry"),
            Answer("Where is Ngozi's summer placement?", "placement at a lab in Cambridge"),
            Answer("How often should Ngozi call her mum?", "call her every Sunday"),
            Tag("placement at a lab in Cambridge", expect="July–September 2025"),
            Tag("first lectures are on Monday", expect="25 September 2023"),
            Tag("call her every Sunday", unpinned="Sunday"),
            Tag("house in Lenton with three friends in September", expect="September 2024"),
            Never("What is Ngozi's part-time job?"),
            Never("Which sport does Emeka play?"),
        ],
    ),
]

K = 10
_TAG = re.compile(r"^\[([^\]]*)\]\s*")
_NOTE = " (a later statement:"
ANSWERABLE = ("answer", "latest", "holds")


def body(text: str) -> str:
    """An item's text without its date tag and without the note quoting a later statement."""
    return _TAG.sub("", text, count=1).split(_NOTE, 1)[0]


def tag_of(text: str) -> str:
    found = _TAG.match(text)
    return found.group(1) if found else ""


def rank(items: list[dict], unit: Text) -> int | None:
    """The 1-based rank of the first item whose text holds the unit (any of several), else None."""
    wanted = [unit] if isinstance(unit, str) else list(unit)
    for i, item in enumerate(items):
        said = body(item["text"]).casefold()
        if any(w.casefold() in said for w in wanted):
            return i + 1
    return None


def ranks(items: list[dict], unit: Text) -> list[int]:
    """Every item's rank holding the unit (any of several)."""
    wanted = [unit] if isinstance(unit, str) else list(unit)
    return [i + 1 for i, it in enumerate(items) if any(w.casefold() in body(it["text"]).casefold() for w in wanted)]


def auc(positives: list[float], negatives: list[float]) -> float | None:
    """The chance that a positive outscores a negative (ties half): Mann-Whitney's U over both counts."""
    if not positives or not negatives:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def short(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def spoken(workspace: Workspace, said: str) -> str:
    """The whole turn or document line that holds `said`: what a tag check recalls with."""
    for event in workspace.events:
        lines = [t for _, t in event.turns] if isinstance(event, Chat) else event.text.split("\n")
        for line in lines:
            if said in line:
                return line
    raise ValueError(f"{workspace.name}: no turn or line says {said!r}")


def post(http: httpx.Client, workspace: str, event: Chat | Document) -> None:
    headers = {"X-Donto-Workspace": workspace}
    if isinstance(event, Chat):
        started = datetime.fromisoformat(event.started).astimezone(UTC)
        body_ = {
            "session": {"external_id": event.session, "started_at": started.isoformat()},
            "turns": [
                {
                    "external_id": f"{event.session}-{i}",
                    "speaker": who,
                    "text": text,
                    "occurred_at": (started + timedelta(minutes=i)).isoformat(),
                }
                for i, (who, text) in enumerate(event.turns)
            ],
        }
        http.post("/v1/episodes", json=body_, headers=headers).raise_for_status()
    else:
        doc = {"text": event.text, "title": event.title, "external_id": event.external_id}
        doc["occurred_at"] = event.occurred
        http.post("/v1/documents", json=doc, headers=headers).raise_for_status()


class Flag:
    """The bundle-level boolean that says a bundle holds nothing relevant: `nothing_relevant`, else
    the one boolean field the bundle carries at its top level; read from the first bundle that has one."""

    KNOWN = "nothing_relevant"

    def __init__(self) -> None:
        self.name: str | None = None

    def of(self, bundle: dict) -> bool | None:
        if self.name is None:
            booleans = [k for k, v in bundle.items() if isinstance(v, bool)]
            if self.KNOWN in booleans or len(booleans) == 1:
                self.name = self.KNOWN if self.KNOWN in booleans else booleans[0]
        value = bundle.get(self.name) if self.name else None
        return value if isinstance(value, bool) else None


def score(check: Check, items: list[dict], k: int) -> dict:
    """One check against its bundle: passed (None for `never`, which only feeds the AUC) and what came."""
    top = [short(i["text"]) for i in items[:3]]
    if isinstance(check, Answer):
        at = rank(items, check.unit)
        return {"passed": at is not None and at <= k, "rank": at, "top": top}
    if isinstance(check, Latest):
        later, earlier = rank(items, check.later), ranks(items, check.earlier)
        passed = later is not None and later <= 3 and all(later < e for e in earlier)
        return {"passed": passed, "later_rank": later, "earlier_ranks": earlier, "top": top}
    if isinstance(check, Holds):
        at = rank(items, check.unit)
        if at is None:
            return {"passed": False, "rank": None, "why": "not in the bundle", "top": top}
        item = items[at - 1]
        marked = item.get("replaced_by") is not None or _NOTE in item["text"]
        return {
            "passed": not marked,
            "rank": at,
            "replaced_by": item.get("replaced_by"),
            "text": item["text"],
            "why": "marked replaced" if marked else None,
        }
    if isinstance(check, Tag):
        at = rank(items, check.said)
        if at is None:
            return {"passed": False, "rank": None, "why": "its own text did not bring it back", "top": top}
        tag = tag_of(items[at - 1]["text"])
        resolved = tag.split(";", 1)[1] if ";" in tag else ""  # the first part is the turn's own date
        passed = True
        if check.expect is not None:
            passed = check.expect in resolved
        pinned = None
        if check.unpinned is not None:
            pinned = re.search(rf"\b{check.unpinned}s?\b[^;:]*:\s*\d", resolved, re.IGNORECASE)
            passed = passed and pinned is None
        return {
            "passed": passed,
            "rank": at,
            "tag": tag,
            "pinned": pinned.group(0) if pinned else None,
            "recurring": "recurring" in tag.casefold() if check.unpinned else None,
        }
    return {"passed": None, "top": top}


def kind_of(check: Check) -> str:
    return type(check).__name__.lower()


def expected(check: Check) -> str:
    if isinstance(check, Answer | Holds):
        return repr(check.unit)
    if isinstance(check, Latest):
        return f"{check.later!r} in the top 3, above {check.earlier!r}"
    if isinstance(check, Tag):
        parts = [f"{check.expect!r} in the tag"] if check.expect else []
        parts += [f"no date pinned to {check.unpinned}"] if check.unpinned else []
        return " and ".join(parts)
    return "nothing relevant"


def came(result: dict) -> str:
    if result["kind"] == "answer":
        return f"rank {result['rank'] or '-'}; top: {result['top'][:1]}"
    if result["kind"] == "latest":
        earlier = result["earlier_ranks"] or "-"
        return f"later at {result['later_rank'] or '-'}, earlier at {earlier}; top: {result['top']}"
    if result["kind"] == "holds":
        if result["rank"] is None:
            return f"not in the bundle; top: {result['top'][:1]}"
        return f"rank {result['rank']}, replaced_by {result['replaced_by']}: {short(result['text'], 200)}"
    if result["kind"] == "tag":
        if result["rank"] is None:
            return f"not brought back by its own text; top: {result['top'][:1]}"
        return f"tag [{result['tag']}]"
    return ""


def question_of(workspace: Workspace, check: Check) -> str:
    return spoken(workspace, check.said) if isinstance(check, Tag) else check.question


def run(settings: Settings, args: argparse.Namespace) -> int:
    run_id = uuid.uuid4().hex[:6]
    chosen = [w for w in WORKSPACES if not args.only or w.name in args.only]
    if args.only and len(chosen) != len(set(args.only)):
        raise SystemExit(f"unknown workspace in {args.only}: there are {[w.name for w in WORKSPACES]}")
    results: list[dict] = []
    flag = Flag()
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http:
        model = http.get("/health").json().get("embedding_model")
        for workspace in chosen:
            name = f"own-{workspace.name}-{run_id}"
            for event in workspace.events:
                post(http, name, event)
            for check in workspace.checks:
                question = question_of(workspace, check)
                answer = http.post(
                    "/v1/recall",
                    headers={"X-Donto-Workspace": name},
                    json={"query": question, "k": args.k, "include_provenance": True},
                )
                answer.raise_for_status()
                bundle = answer.json()
                items = bundle["items"]
                result = {
                    "workspace": workspace.name,
                    "kind": kind_of(check),
                    "question": question,
                    "expected": expected(check),
                    **score(check, items, args.k),
                    "relevance": (items[0].get("relevance") if items else 0.0),
                    "any_relevance": any("relevance" in i for i in items),
                    "flagged": flag.of(bundle),
                    "items": len(items),
                }
                results.append(result)
                if args.verbose or result["passed"] is False:
                    mark = {True: "ok  ", False: "FAIL", None: "    "}[result["passed"]]
                    print(
                        f"{mark} {workspace.name:8} {result['kind']:6} {question!r}: expected {result['expected']}; "
                        f"got {came(result) or 'top ' + str(result['top'][:1])}",
                        flush=True,
                    )
    summary = summarise(results, args.k, flag.name, model)
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": summary, "results": results}, indent=1, ensure_ascii=False))
        print(f"results written to {args.json}")
    return 0


def summarise(results: list[dict], k: int, flag_name: str | None, model: str | None) -> dict:
    print(f"\nown-memory: {len({r['workspace'] for r in results})} workspaces, k={k} [{model}]")
    print(f"{'kind':8} {'passed':>9}")
    summary: dict = {"k": k, "model": model, "kinds": {}}
    for kind in ("answer", "latest", "holds", "tag"):
        rows = [r for r in results if r["kind"] == kind]
        passed = sum(bool(r["passed"]) for r in rows)
        summary["kinds"][kind] = {"passed": passed, "total": len(rows)}
        extra = ""
        if kind == "answer" and rows:
            rates = {n: sum(r["rank"] is not None and r["rank"] <= n for r in rows) / len(rows) for n in (1, 3, k)}
            summary["kinds"][kind].update({f"top{n}": rate for n, rate in rates.items()})
            extra = "   " + ", ".join(f"top-{n} {rate:.2f}" for n, rate in rates.items())
        if kind == "holds":
            absent = sum(r["rank"] is None for r in rows)
            summary["kinds"][kind]["not_in_bundle"] = absent
            extra = f"   ({absent} not in the bundle, {len(rows) - passed - absent} marked replaced)"
        if kind == "tag":
            recurring = [r for r in rows if r["recurring"] is not None]
            said = sum(bool(r["recurring"]) for r in recurring)
            summary["kinds"][kind]["recurring_said"] = {"said": said, "of": len(recurring)}
            extra = f"   (a recurring time's tag says 'recurring': {said} of {len(recurring)})"
        print(f"{kind:8} {passed:>4} / {len(rows):<3}{extra}")
    never = [r for r in results if r["kind"] == "never"]
    answerable = [r for r in results if r["kind"] in ANSWERABLE]
    summary["never"] = len(never)
    if any(r["any_relevance"] for r in results):
        value = auc([r["relevance"] or 0.0 for r in answerable], [r["relevance"] or 0.0 for r in never])
        summary["relevance_auc"] = value
        print(
            f"relevance AUC (top item, {len(answerable)} answerable against {len(never)} never mentioned): "
            + (f"{value:.3f}" if value is not None else "-")
        )
    else:
        summary["relevance_auc"] = None
        print("relevance: not in the bundle (no AUC)")
    if flag_name is None:
        summary["flag"] = None
        print("nothing-relevant flag: not in the bundle")
    else:
        caught = sum(r["flagged"] is True for r in never)
        false_alarms = sum(r["flagged"] is True for r in answerable)
        summary["flag"] = {"name": flag_name, "never_flagged": caught, "answerable_flagged": false_alarms}
        print(
            f"bundle flag {flag_name!r}: {caught} of {len(never)} never-mentioned questions flagged, "
            f"{false_alarms} of {len(answerable)} answerable ones"
        )
    return summary
