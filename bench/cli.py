"""`python -m bench ...`: the benchmark commands."""

from __future__ import annotations

import argparse
import importlib

from donto.settings import load_settings


def at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="donto's benchmarks: figures beside a floor.")
    kinds = parser.add_subparsers(dest="bench", required=True)

    ingest = kinds.add_parser("ingest", help="write claims through REST, time as-of lookups")
    ingest.add_argument("--claims", type=int, default=100_000)
    ingest.add_argument("--batch", type=int, default=1000)
    ingest.add_argument("--warmup", type=int, default=0, help="claims written first to another workspace, untimed")
    ingest.add_argument(
        "--in-flight", type=at_least_one, default=1, help="batches posted at once by concurrent clients (1: in turn)"
    )
    ingest.add_argument(
        "--workspaces",
        type=at_least_one,
        default=1,
        help="workspaces the batches go to in turn (writers of one workspace queue on its clock; of several, not)",
    )
    ingest.add_argument("--lookups", type=int, default=2000)
    ingest.add_argument("--seed", type=int, default=7)

    profile = kinds.add_parser("write-profile", help="where a claim batch's time goes: HTTP, service, each statement")
    profile.add_argument("--batches", type=at_least_one, default=30)
    profile.add_argument("--batch", type=at_least_one, default=1000)
    profile.add_argument("--warmup", type=int, default=50_000, help="claims written first, untimed (a warm JVM)")
    profile.add_argument("--seed", type=int, default=7)

    walk = kinds.add_parser("walk", help="premise-walk status latency on a large claim graph")
    walk.add_argument("--claims", type=int, default=1_000_000)
    walk.add_argument("--samples", type=int, default=2000)
    walk.add_argument("--batch-ids", type=int, default=100)
    walk.add_argument("--seed", type=int, default=11)

    locomo = kinds.add_parser("locomo", help="evidence recall@K on LoCoMo conversations")
    locomo.add_argument("--data", required=True, help="a LoCoMo JSON file (a list of conversations)")
    locomo.add_argument(
        "--profile",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="also recall with these arm weights, in the same run: fulltext-half='{\"fulltext\": 0.5}'",
    )
    locomo.add_argument(
        "--as-documents",
        action="store_true",
        help="post each session as one dated transcript document (no LLM) instead of an episode",
    )
    locomo.add_argument(
        "--replay-observations",
        action="store_true",
        help="also memorize each session, a local endpoint answering with LoCoMo's observation facts about it",
    )

    kinds.add_parser("aliases", help="where extraction's alias threshold falls among predicate pairs (no Neo4j)")

    state = kinds.add_parser("claim-state", help="what a claim item's state (the premise walk) costs a recall")
    state.add_argument("--data", required=True, help="a LoCoMo JSON file: its observations become claims")
    state.add_argument("--conversations", type=at_least_one, default=2)
    state.add_argument("--k", type=at_least_one, default=20)

    current = kinds.add_parser(
        "current-state", help="questions about the present: is the latest statement first? (chats written here)"
    )
    current.add_argument("--k", type=at_least_one, default=20)
    current.add_argument("--verbose", action="store_true", help="each question's ranks of both statements")
    current.add_argument(
        "--other-words", action="store_true", help="the same matters asked with today, latest, no longer…"
    )
    current.add_argument(
        "--same-matter", type=float, nargs="*", default=[], help="also score these same-matter cosines, same run"
    )

    own = kinds.add_parser(
        "own-memory", help="small mixed workspaces written as a new user writes them, scored as checks (REST)"
    )
    own.add_argument("--k", type=at_least_one, default=10)
    own.add_argument("--only", nargs="*", default=[], metavar="NAME", help="only these workspaces (lena, shop, ...)")
    own.add_argument("--verbose", action="store_true", help="a line for every check, not only the failing ones")
    own.add_argument("--json", default=None, metavar="FILE", help="write every check's result here")

    extract = kinds.add_parser("extract", help="extraction yield per mode against the configured LLM endpoint")
    extract.add_argument("--file", help="a text file to extract from")
    extract.add_argument("--data", help="a LoCoMo JSON file: its first conversation's first sessions")
    extract.add_argument("--sessions", type=int, default=2)
    extract.add_argument("--mode", choices=["all", "single", "exhaustive", "deep"], default="all")
    extract.add_argument("--passes", type=int, default=3)

    throughput = kinds.add_parser(
        "throughput", help="extraction facts/s with chunks and jobs at once, against a delayed local endpoint"
    )
    throughput.add_argument("--docs", type=at_least_one, default=4, help="documents queued each round")
    throughput.add_argument("--chunks", type=at_least_one, default=4, help="chunks in each document")
    throughput.add_argument("--delay", type=float, default=0.5, help="seconds the endpoint takes a reply")
    throughput.add_argument("--mode", choices=["single", "exhaustive", "deep"], default="single")
    throughput.add_argument("--passes", type=int, default=3)
    throughput.add_argument("--rounds", type=at_least_one, default=3)
    throughput.add_argument(
        "--configs", default="1x1,4x2", help="concurrency x jobs, comma-separated; the first is the baseline"
    )

    episodes = kinds.add_parser("episodes", help="episode ingest turns/s beside the model's raw encode of the turns")
    episodes.add_argument("--data", required=True, help="a LoCoMo JSON file (a list of conversations)")
    episodes.add_argument("--conversations", type=int, default=None, help="only the first N")
    episodes.add_argument(
        "--one-turn-requests", type=at_least_one, default=None, metavar="N",
        help="a request per turn, N conversations at once (without it: a request per session, one at a time)",
    )  # fmt: skip
    episodes.add_argument("--json", default="bench-episodes.json")

    tenants = kinds.add_parser("tenants", help="a quiet tenant's recall latency alone and beside a noisy one")
    tenants.add_argument("--samples", type=int, default=40)
    tenants.add_argument("--batch", type=int, default=1000)
    tenants.add_argument("--seed", type=int, default=5)
    tenants.add_argument("--flood", type=int, default=0, help="noisy clients posting at once, each a process")
    tenants.add_argument("--noise", choices=("claims", "episodes"), default="claims", help="what a flood posts")

    vector = kinds.add_parser(
        "vector-filter", help="a small workspace's vector search in a shared database: 5.26 over-fetch vs 2026.x SEARCH"
    )
    vector.add_argument("--large-workspaces", type=int, default=99)
    vector.add_argument("--large-size", type=int, default=3000, help="vectors in each large workspace")
    vector.add_argument("--small-size", type=int, default=600, help="vectors in the small workspace (LoCoMo size)")
    vector.add_argument("--dimensions", type=int, default=384)
    vector.add_argument("--topics", type=int, default=64, help="clusters every workspace's vectors are drawn around")
    vector.add_argument("--k", type=int, default=20)
    vector.add_argument("--samples", type=int, default=100)
    vector.add_argument("--warmup", type=int, default=10)
    vector.add_argument("--old-version", default="5.26.30", help="the Neo4j version donto left (5.26 LTS)")
    vector.add_argument("--heap", default="2g")
    vector.add_argument("--pagecache", default="2g")
    vector.add_argument("--seed", type=int, default=23)
    vector.add_argument("--json", default="docs/bench-vector-filter.json")

    memory = kinds.add_parser("memory", help="bring_to_mind and open_intersection on 10k subjects, 1M observations")
    memory.add_argument("--subjects", type=int, default=10_000)
    memory.add_argument("--observations", type=int, default=1_000_000)
    memory.add_argument("--understandings", type=int, default=3000)
    memory.add_argument("--perspectives", type=int, choices=range(1, 6), default=1, help="vectors per item")
    memory.add_argument("--skew", type=float, default=1.0, help="Zipf exponent of subject frequency")
    memory.add_argument("--samples", type=int, default=50)
    memory.add_argument("--limit", type=int, default=8, help="bring_to_mind's limit")
    memory.add_argument("--intersection-limit", type=int, default=50)
    memory.add_argument("--long-calls", type=int, default=30, help="calls in the long session (0: none)")
    memory.add_argument("--seed", type=int, default=13)

    crowded = kinds.add_parser(
        "crowded", help="recall in a LoCoMo workspace alone, then beside many claims in other workspaces"
    )
    crowded.add_argument("--data", required=True, help="a LoCoMo JSON file (a list of conversations)")
    crowded.add_argument("--conversation", type=int, default=0, help="which one is the measured workspace")
    crowded.add_argument("--claims", type=int, default=1_000_000, help="claims in the other workspaces")
    crowded.add_argument("--workspaces", type=int, default=100)
    crowded.add_argument("--seed", type=int, default=29)
    crowded.add_argument("--json", default="bench-crowded.json")

    scale = kinds.add_parser("scale", help="the cost curve: point operations against graph size, as JSON and PNG")
    scale.add_argument("--sizes", default="10000,100000,1000000", help="claim counts to grow to, comma-separated")
    scale.add_argument("--project", type=int, default=10_000_000, help="extend each curve to this size (0: none)")
    scale.add_argument("--samples", type=int, default=200)
    scale.add_argument("--batch", type=int, default=1000)
    scale.add_argument("--seed", type=int, default=17)
    scale.add_argument("--json", default="docs/bench-scale.json")
    scale.add_argument("--png", default="docs/bench-scale.png")

    ocr = kinds.add_parser("ocr", help="the offline OCR beside Tesseract: character accuracy and time per image")
    ocr.add_argument("--runs", type=at_least_one, default=3, help="reads of each image, the median timed")
    ocr.add_argument("--threads", type=at_least_one, default=2, help="also measure RapidOCR with this many threads")
    ocr.add_argument("--show", action="store_true", help="print what each engine read")

    mcp_start = kinds.add_parser("mcp-start", help="donto mcp: seconds to its tool list, then to its first recall")
    mcp_start.add_argument("--runs", type=at_least_one, default=5, help="starts, the medians printed")
    mcp_start.add_argument("--pause", type=float, default=0.0, help="seconds between the tool list and the recall")

    rankings = kinds.add_parser("rankings", help="every question's top k written down, compared with an earlier run")
    rankings.add_argument("--data", action="append", required=True, help="a LoCoMo or REALTALK JSON file (repeatable)")
    rankings.add_argument("--out", required=True, help="the JSON file the rankings are written to")
    rankings.add_argument("--compare", help="an earlier run's file: print the rankings that differ, exit 1 if any")
    rankings.add_argument("--k", type=at_least_one, default=40)
    rankings.add_argument("--fresh", action="store_true", help="write into new workspaces, not those of a run before")

    tck = kinds.add_parser(
        "tck", help="the Neo4j Labs agent-memory TCK, its pytest per tier against a bridge onto donto.AsyncClient"
    )
    tck.add_argument("--kit", required=True, help="the TCK's folder (read-only: copied to a temporary folder)")
    tck.add_argument(
        "--tiers", default="bronze,silver", help="comma-separated: bronze, silver (both files), silver-long-term, "
        "silver-reasoning, gold, platinum",
    )  # fmt: skip
    tck.add_argument("--port", type=int, default=None, help="the bridge's port (default: a free one)")
    tck.add_argument("--url", default=None, help="a running donto's base URL (default: its API served here)")
    tck.add_argument("--api-key", default=None, help="with --url: an admin key (it makes a workspace per test)")
    tck.add_argument("--cache", default=None, help="where the kit's copy and virtualenv are kept between runs")
    tck.add_argument("--serve-only", action="store_true", help="serve the bridge until interrupted; run no tests")

    for kind in kinds.choices.values():
        kind.add_argument(
            "--throwaway",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="run against a fresh local Neo4j (default) instead of the configured one",
        )

    args = parser.parse_args(argv)
    module = importlib.import_module(f"bench.{args.bench.replace('-', '_')}")
    return int(module.run(load_settings(), args))
