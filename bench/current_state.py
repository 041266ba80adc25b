"""`python -m bench current-state`: does a question about the present get the latest word first?

One workspace of chats between four friends over a year: where they live, work, what they drive,
their pets, diets and pastimes change between sessions months apart, and the sessions between hold
chatter on the same topics (a trip to the old city, a car that is not theirs, a friend's dog). Each
question asks about now; it is right when the statement that replaced the earlier one is in the top
3 and above the earlier one. Printed with the bare vector arm's score in the same run, and the
recall's median latency. The chats are written here, by hand, before any tuning: they are a check,
not a training set."""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from datetime import UTC, datetime

from bench.common import bench_settings
from donto.episodes.service import NewTurn
from donto.memory import Memory
from donto.recall import present
from donto.recall.english import ENGLISH, English
from donto.recall.service import RecallRequest
from donto.settings import Settings
from donto.temporal.scope import TimeScope

# (session, started at, [(speaker, text)]): turn ids are f"{session}-{index}"
SESSIONS: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "jan",
        "2025-01-12T18:00:00Z",
        [
            ("Maria", "I live in Kreuzberg now, Berlin is home and I love my little flat."),
            ("Tom", "Nice! I'm still in Leeds, working as a nurse at the General."),
            ("Maria", "I drive an old blue Golf, it barely starts in winter."),
            ("Tom", "We adopted a tabby cat called Biscuit last week."),
            ("Priya", "I've gone vegetarian since New Year, no meat at all."),
            ("Priya", "Work is fine, I'm a data analyst at an insurance firm in Manchester."),
            ("Sam", "I'm teaching maths at a secondary school in Bristol this year."),
            ("Sam", "And I play the cello in a community orchestra on Tuesdays."),
        ],
    ),
    (
        "mar",
        "2025-03-20T19:00:00Z",
        [
            ("Maria", "The weather in Berlin has been grey for weeks."),
            ("Tom", "Biscuit knocked a plant off the windowsill again."),
            ("Priya", "I tried a new lentil curry recipe, so good."),
            ("Sam", "My brother just bought a red Tesla, he won't stop talking about it."),
            ("Maria", "I visited Amsterdam for a weekend, the canals were lovely."),
            ("Tom", "Night shifts at the hospital are exhausting this month."),
            ("Sam", "The orchestra played Dvořák last night, my cello part was hard."),
            ("Priya", "Manchester traffic is awful on my commute."),
        ],
    ),
    (
        "jun",
        "2025-06-15T17:30:00Z",
        [
            ("Tom", "Big news: I quit nursing and started training as a paramedic."),
            ("Priya", "I went vegan in May, even cheese is gone now."),
            ("Maria", "I sold the Golf, I cycle everywhere instead."),
            ("Sam", "I stopped the cello, my wrist couldn't take it. I joined a climbing gym instead."),
            ("Maria", "Berlin summers are the best, everyone is outside."),
            ("Tom", "Biscuit is getting fat, the vet put her on a diet."),
        ],
    ),
    (
        "sep",
        "2025-09-02T20:00:00Z",
        [
            ("Maria", "Actually I moved to Amsterdam last month, new job, new flat by the canal."),
            ("Priya", "I left the insurance firm; I'm a product manager at a startup now."),
            ("Sam", "We moved to Cardiff over the summer, I teach at a school there."),
            ("Tom", "Sad news, Biscuit died in August. We got a puppy, a spaniel called Pip."),
            ("Maria", "I miss Kreuzberg's bakeries sometimes."),
            ("Priya", "The startup office is in Manchester too, so no move for me."),
        ],
    ),
    (
        "nov",
        "2025-11-23T18:00:00Z",
        [
            ("Sam", "Climbing twice a week, my forearms are huge."),
            ("Tom", "Pip chewed my shoes, puppies are chaos."),
            ("Maria", "I bought a cargo bike for the Amsterdam streets."),
            ("Priya", "A friend's dog stayed with me for a week, a sweet old labrador."),
            ("Tom", "Paramedic training is intense but I love it."),
            ("Maria", "Berlin friends visited me last weekend, we talked about old times."),
        ],
    ),
]

# (question, the earlier statement, the later one that replaced it)
QUESTIONS: list[tuple[str, str, str]] = [
    ("Where does Maria live now?", "jan-0", "sep-0"),
    ("What does Maria drive these days?", "jan-2", "jun-2"),
    ("What is Tom's job now?", "jan-1", "jun-0"),
    ("What pet does Tom have at the moment?", "jan-3", "sep-3"),
    ("What diet is Priya on currently?", "jan-4", "jun-1"),
    ("Where does Priya work now?", "jan-5", "sep-1"),
    ("Where does Sam teach now?", "jan-6", "sep-2"),
    ("Does Sam still play the cello?", "jan-7", "jun-3"),
    ("Which city is Sam living in these days?", "jan-6", "sep-2"),
    ("What is Priya's current job?", "jan-5", "sep-1"),
    ("How does Maria get around now?", "jan-2", "jun-2"),
    ("What hobby does Sam have at the moment?", "jan-7", "jun-3"),
]

# `--other-words`: each of those matters asked with the other words that say now, in the same order
# (written after those above, with the words `about_now` reads, so a check of the words, not of the chats)
IN_OTHER_WORDS: list[tuple[str, str, str]] = [
    (asked, earlier, later)
    for asked, (_, earlier, later) in zip(
        [
            "Where does Maria live today?",
            "What is the latest car Maria drives?",
            "What is Tom's most recent job?",
            "Does Tom no longer have his cat?",
            "What diet is Priya on today?",
            "Where has Priya worked most recently?",
            "Where does Sam teach today?",
            "Is Sam no longer playing the cello?",
            "Which city did Sam move to most recently?",
            "What is Priya's latest job?",
            "How does Maria get around today?",
            "What is Sam's latest hobby?",
        ],
        QUESTIONS,
        strict=True,
    )
]


class NeverNow(English):
    """English in which no question is about now: recall without the present step."""

    def says_now(self, question: str) -> bool:
        return False


NEVER_NOW = NeverNow()


def right(found: list[str], earlier: str, later: str) -> bool:
    """The later statement in the top 3, and above the earlier one."""
    if later not in found[:3]:
        return False
    return earlier not in found or found.index(later) < found.index(earlier)


def run(settings: Settings, args: argparse.Namespace) -> int:
    workspace = f"current-{uuid.uuid4().hex[:6]}"
    with bench_settings(settings, args.throwaway) as s, Memory(s).open() as memory:
        for session, started, said in SESSIONS:
            at = datetime.fromisoformat(started).astimezone(UTC)
            turns = [NewTurn(f"{session}-{i}", who, text, at) for i, (who, text) in enumerate(said)]
            memory.episodes.write(workspace, session, at, turns)
        runs: list[tuple[str, tuple[str, ...] | None, float]] = [
            ("donto", None, present.SAME_MATTER),
            ("without the present step", None, present.SAME_MATTER),
            ("turn-vector", ("turn_vector",), present.SAME_MATTER),
        ] + [(f"same matter at {t:.2f}", None, t) for t in args.same_matter]
        scores: dict[str, list[bool]] = {name: [] for name, _, _ in runs}
        took: list[float] = []
        for question, earlier, later in IN_OTHER_WORDS if args.other_words else QUESTIONS:
            for name, arms, same_matter in runs:
                present.SAME_MATTER = same_matter
                request = RecallRequest(question, TimeScope.now(), k=args.k, arms=arms, include_provenance=True)
                # the same recall with the present step left out (the latest word first, and the full-text
                # arms off): what it is worth, in the same run
                memory.recall.language = NEVER_NOW if name == "without the present step" else ENGLISH
                started_at = time.perf_counter()
                items = memory.recall.recall(workspace, request).items
                if name == "donto":
                    took.append((time.perf_counter() - started_at) * 1000)
                found = [t for i in items if i.provenance for t in i.provenance.turn_ids]
                scores[name].append(right(found, earlier, later))
                if args.verbose and name == "donto":
                    mark = "ok " if scores[name][-1] else "MISS"
                    print(
                        f"{mark} {question}  later {later} at {rank(found, later)}, earlier {earlier} at "
                        f"{rank(found, earlier)}"
                    )
    present.SAME_MATTER = runs[0][2]
    for name, marks in scores.items():
        print(f"{name:24} later statement first, in the top 3: {sum(marks)} of {len(marks)}")
    print(f"recall k={args.k} p50 {statistics.median(took):.1f} ms [{memory.encoder.name}]")
    return 0


def rank(found: list[str], turn: str) -> str:
    return str(found.index(turn) + 1) if turn in found else "-"
