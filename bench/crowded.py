"""`python -m bench crowded`: recall in a LoCoMo-size workspace alone, then inside a database of
--claims claims in --workspaces other workspaces (issue 13: recall near its floor "on one inside a
database of 1M claims and 100 other workspaces"), through REST, each figure beside its floor.

1. One LoCoMo conversation goes in through POST /v1/episodes (as in bench locomo); its questions are
   asked at k = 20 with provenance, interleaved with the floor (one query embedding plus one bare
   vector query for 20 of the workspace's turns), and the evidence turns found are scored (turn @5,
   @20): the workspace alone.
2. The other tenants' claims go in by a bench-only UNWIND (bench_crowd_claims), each with a random unit
   vector and, as its text, a turn of the *other* conversations: they share the questions' everyday
   words, which is what crowds a search ranked across workspaces and filtered after.
3. The same questions again, and the same scores: straight after the load, then once the machine's
   CPUs are idle (bench.common.settle: Neo4j merges its index segments for minutes after a bulk
   load, and a database that holds 1M claims is not one that has just taken them in). Another
   tenant's data reaches a workspace's answers one way only: Lucene's BM25 takes its term statistics
   (idf, average length) from the whole index, which every workspace shares, so the full-text arms'
   scores move a little. Writes one JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import bench_settings, percentile, served_api, settle, timed
from bench.locomo import CATEGORIES, conversation_turns, evidence_ids, recall_at
from donto.memory import Memory
from donto.settings import Settings

BATCH = 5000  # other tenants' claims per write


def measure(http: Any, memory: Memory, workspace: str, questions: list[tuple[str, list[str]]]) -> dict[str, Any]:
    headers = {"X-Donto-Workspace": workspace}
    recall_s, floor_s, at5, at20 = [], [], [], []
    for question, wanted in questions:
        started = time.perf_counter()
        response = http.post(
            "/v1/recall", headers=headers, json={"query": question, "k": 20, "include_provenance": True}
        )
        recall_s.append(time.perf_counter() - started)
        response.raise_for_status()
        floor_s.append(
            timed(
                lambda: memory.graph.read_list(
                    "bench_turn_vector_floor", workspace=workspace, vector=memory.encoder.encode_query(question), k=20
                )
            )
        )
        found = [t for item in response.json()["items"] for t in item["provenance"]["turn_ids"]]
        at5.append(recall_at(found, set(wanted), 5))
        at20.append(recall_at(found, set(wanted), 20))
    p50, floor50 = statistics.median(recall_s), statistics.median(floor_s)
    return {
        "recall_p50_ms": p50 * 1000,
        "recall_p95_ms": percentile(recall_s, 95) * 1000,
        "floor_p50_ms": floor50 * 1000,
        "floor_p95_ms": percentile(floor_s, 95) * 1000,
        "ratio_p50": p50 / floor50,
        "ratio_p95": percentile(recall_s, 95) / percentile(floor_s, 95),
        "turn@5": statistics.mean(at5),
        "turn@20": statistics.mean(at20),
        "questions": len(questions),
    }


def crowd(memory: Memory, claims: int, workspaces: int, texts: list[str], dimensions: int, seed: int) -> float:
    """Write the other tenants' claims; returns the seconds it took."""
    rng, vectors_rng = random.Random(seed), np.random.default_rng(seed)
    started, written = time.perf_counter(), 0
    while written < claims:
        n = min(BATCH, claims - written)
        vectors = vectors_rng.standard_normal((n, dimensions)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = [
            {
                "id": uuid.uuid4().hex,
                "workspace": f"tenant-{rng.randrange(workspaces)}",
                "subject": f"person-{rng.randrange(1000)}",
                "object": str(written + i),
                "text": rng.choice(texts),
                "embedding": vector.tolist(),
            }
            for i, vector in enumerate(vectors)
        ]
        memory.graph.write_query("bench_crowd_claims", rows=rows, recorded_at=datetime.now(UTC))
        written += n
        if written % (BATCH * 20) == 0 or written == claims:
            print(f"  {written:,} claims in {workspaces} workspaces, {time.perf_counter() - started:.0f} s", flush=True)
    return time.perf_counter() - started


def run(settings: Settings, args: argparse.Namespace) -> int:
    data = json.loads(Path(args.data).read_text())
    mine, others = data[args.conversation], [c for i, c in enumerate(data) if i != args.conversation]
    texts = [t["text"] for c in others for _, _, turns in conversation_turns(c["conversation"]) for t in turns]
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http:
        memory = Memory(s)
        workspace = f"locomo-{mine['sample_id']}"
        turns: set[str] = set()
        for key, when, said in conversation_turns(mine["conversation"]):
            body = {
                "session": {"external_id": key, "started_at": when.isoformat()},
                "turns": [{**t, "occurred_at": when.isoformat()} for t in said],
            }
            http.post("/v1/episodes", json=body, headers={"X-Donto-Workspace": workspace}).raise_for_status()
            turns |= {t["external_id"] for t in said}
        questions = [
            (str(qa["question"]), [e for e in evidence_ids(qa) if e in turns])
            for qa in mine["qa"]
            if qa.get("category") in CATEGORIES and any(e in turns for e in evidence_ids(qa))
        ]
        settled_alone = settle()  # each case is measured once the database's own work after a load is done
        measure(http, memory, workspace, questions[:10])  # warms the page cache and query plans
        alone = measure(http, memory, workspace, questions)
        took = crowd(memory, args.claims, args.workspaces, texts, memory.encoder.dimensions, args.seed)
        # Straight after the load (Neo4j still merging its index segments), then settled: a database
        # that holds 1M claims is not one that has just taken them in.
        measure(http, memory, workspace, questions[:10])
        loaded = measure(http, memory, workspace, questions)
        settled_crowded = settle()
        measure(http, memory, workspace, questions[:10])
        crowded = measure(http, memory, workspace, questions)
    out = {
        "conversation": mine["sample_id"],
        "turns": len(turns),
        "other_claims": args.claims,
        "other_workspaces": args.workspaces,
        "crowd_written_s": took,
        "alone": alone,
        "just_loaded": loaded,
        "crowded": crowded,
        "settled_s": {"alone": settled_alone, "crowded": settled_crowded},
    }
    Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    print(f"\n{mine['sample_id']}: {len(turns)} turns, {len(questions)} questions; k = 20 with provenance, REST")
    heads = ("recall p50", "p95", "floor p50", "ratio p50", "p95", "turn@5", "@20")
    print(f"{'':52} " + " ".join(f"{h:>{w}}" for h, w in zip(heads, (11, 9, 10, 10, 6, 7, 6))))
    beside = f"beside {args.claims:,} claims in {args.workspaces} ws"
    cases = (
        (f"alone (settled {settled_alone:.0f} s)", alone),
        (f"{beside}, just loaded", loaded),
        (f"{beside} (settled {settled_crowded:.0f} s)", crowded),
    )
    for name, r in cases:
        print(
            f"{name:52} {r['recall_p50_ms']:9.1f} ms {r['recall_p95_ms']:6.1f} ms {r['floor_p50_ms']:7.1f} ms"
            f" {r['ratio_p50']:9.2f}x {r['ratio_p95']:5.2f}x {r['turn@5']:7.3f} {r['turn@20']:6.3f}"
        )
    return 0
