"""`python -m bench scale`: the cost curve — how point operations grow with the graph.

Grows one workspace's claim graph through the production write path (chains of derived claims,
1 to 10 deep, a tenth of the roots superseded, as in `bench walk`) to each size in --sizes, and at
each size measures through REST, interleaved, with a floor measured in the same round:
- batch ingest: POST /v1/claims of --batch new claims (median claims/s; p99 is the slowest batch),
- as-of lookup: GET /v1/claims?subject=&valid_at=&known_at= beside a bare indexed lookup by id,
- premise status: GET /v1/claims/{id}/status of a chain tip, beside the same bare lookup,
- recall: POST /v1/recall at k = 20, beside its floor (one query embedding plus one bare vector
  query for k over the claim index).
Claims get random unit vectors instead of encodings of their text (encoding a million texts takes
hours on 2 cores; the vector index's cost does not depend on what the vectors mean), and the API's
background embedder is off so it cannot compete with the measurement.

Each size is measured once the machine's CPUs are idle (bench.common.settle): after a bulk load the
local Neo4j merges index segments for minutes, and a graph of that size is not one just loaded.

Writes one JSON (each measure's median and p99 per size) and a PNG of the curves. Where a size is
out of reach (disk, time), --project N extends each median to N at its growth per decade between
the two largest measured sizes, drawn dashed and labelled as a projection. A point operation whose
median grows faster than logarithmically is flagged: that is a bug to fix, not a curve to plot.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bench.common import bench_settings, percentile, served_api, settle, timed
from bench.ingest import synthetic_claim
from bench.walk import T0, build
from donto.memory import Memory
from donto.settings import Settings

WORDS = ["engine", "london", "paris", "mother", "garden", "marathon", "piano", "budget", "contract", "river"]
OPERATIONS = ("ingest", "as_of", "status", "recall")
WARMUP = 10


def add_random_vectors(memory: Memory, dimensions: int, rng: np.random.Generator) -> int:
    """Give every claim still waiting for its embedding a random unit vector; returns how many."""
    done = 0
    while True:
        pending = memory.graph.read_query("claims_pending_embedding", workspace="bench", limit=5000)
        if not pending:
            return done
        vectors = rng.standard_normal((len(pending), dimensions)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = [{"id": p["id"], "embedding": v.tolist()} for p, v in zip(pending, vectors)]
        memory.graph.write_query("claims_set_embedding", rows=rows)
        done += len(rows)


def measure(http: Any, memory: Memory, tips: list[str], samples: int, batch: int, rng: random.Random) -> dict:
    graph, encoder = memory.graph, memory.encoder
    valid_at = (T0 + timedelta(days=700)).isoformat()
    known_at = datetime.now(UTC).isoformat()
    times: dict[str, list[float]] = {k: [] for k in ("as_of", "status", "recall", "bare_lookup", "recall_floor")}
    for sample in range(samples + WARMUP):
        if sample == WARMUP:  # the first rounds warm the page cache and query plans: not counted
            times = {k: [] for k in times}
        tip = rng.choice(tips)
        subject = f"root-{rng.randrange(len(tips))}"
        query = " ".join(rng.sample(WORDS, 3))
        times["bare_lookup"].append(timed(lambda: graph.read_query("claim_by_id", workspace="bench", id=tip)))
        times["as_of"].append(
            timed(
                lambda: http.get(
                    "/v1/claims", params={"subject": subject, "valid_at": valid_at, "known_at": known_at}
                ).raise_for_status()
            )
        )
        times["status"].append(
            timed(lambda: http.get(f"/v1/claims/{tip}/status", params={"valid_at": valid_at}).raise_for_status())
        )
        times["recall"].append(
            timed(lambda: http.post("/v1/recall", json={"query": query, "k": 20}).raise_for_status())
        )
        times["recall_floor"].append(
            timed(lambda: graph.read_list("bench_claim_vector_floor", vector=encoder.encode_query(query), k=20))
        )
    ingest: list[float] = []
    # 20 batches at the default 200 samples: with 4, one slow batch (a segment merge) made the median
    # (1M claims: 495 ms where 24 batches on the same kind of store took 157).
    for _ in range(max(10, samples // 10)):
        claims = [synthetic_claim(rng, 10_000) for _ in range(batch)]
        took = timed(lambda: http.post("/v1/claims", json={"claims": claims}).raise_for_status())
        ingest.append(batch / took)
    out: dict[str, Any] = {
        name: {"p50_ms": statistics.median(v) * 1000, "p99_ms": percentile(v, 99) * 1000, "n": len(v)}
        for name, v in times.items()
    }
    out["ingest"] = {
        "claims_per_s_median": statistics.median(ingest),
        "p50_ms": batch / statistics.median(ingest) * 1000,  # per batch, for the curve
        "p99_ms": batch / min(ingest) * 1000,
        "n": len(ingest),
    }
    return out


def project(sizes: list[int], values: list[float], size: int) -> float:
    """Extend the curve to `size` at the growth per decade between its last two measured sizes
    (logarithmic growth from there on; never below the last measured value)."""
    per_decade = (values[-1] - values[-2]) / math.log10(sizes[-1] / sizes[-2])
    return values[-1] + max(0.0, per_decade) * math.log10(size / sizes[-1])


def growth_flags(sizes: list[int], rows: list[dict]) -> list[str]:
    """Operations whose median grew faster than a logarithm would allow between the smallest and
    largest size (with 2x slack for noise): the per-decade increase must not itself grow."""
    flags: list[str] = []
    if len(sizes) < 3:
        return flags
    for op in OPERATIONS:
        p50 = [r[op]["p50_ms"] for r in rows]
        first_step = max(p50[1] - p50[0], 0.1 * p50[0]) / math.log10(sizes[1] / sizes[0])
        last_step = (p50[-1] - p50[-2]) / math.log10(sizes[-1] / sizes[-2])
        if last_step > 2 * first_step:
            flags.append(f"{op}: {last_step:.1f} ms per decade at the top vs {first_step:.1f} at the bottom")
    return flags


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = result["sizes"]
    rows = result["rows"]
    floors = {"as_of": "bare_lookup", "status": "bare_lookup", "recall": "recall_floor"}
    titles = {
        "ingest": f"batch ingest (ms per batch of {result['batch']})",
        "as_of": "as-of lookup (REST)",
        "status": "premise status (REST)",
        "recall": "recall k=20 (REST)",
    }
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    for ax, op in zip(axes.flat, OPERATIONS):
        for stat, style in (("p50_ms", "o-"), ("p99_ms", "s--")):
            ax.plot(sizes, [r[op][stat] for r in rows], style, label=f"{stat[:3]}")
        if op in floors:
            ax.plot(sizes, [r[floors[op]]["p50_ms"] for r in rows], "^:", color="grey", label="floor p50")
        projection = result.get("projection", {}).get(op)
        if projection:
            ax.plot(
                [sizes[-1], projection["size"]],
                [rows[-1][op]["p50_ms"], projection["p50_ms"]],
                "o--",
                mfc="none",
                color="tab:blue",
                label="p50 projected",
            )
        ax.set_xscale("log")
        ax.set_title(titles[op])
        ax.set_xlabel("claims in the graph")
        ax.set_ylabel("ms")
        ax.set_yscale("log")  # p99 sits an order of magnitude above p50 on a busy machine
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"donto cost curve ({result['machine']}, {result['date']})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def run(settings: Settings, args: argparse.Namespace) -> int:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    rng = random.Random(args.seed)
    vectors = np.random.default_rng(args.seed)
    rows: list[dict] = []
    with bench_settings(settings, args.throwaway) as s:
        s = s.model_copy(update={"api": s.api.model_copy(update={"run_workers": False})})
        with Memory(s) as memory, served_api(s) as http:
            memory.open()
            dimensions = memory.encoder.dimensions
            tips: list[str] = []
            grown = 0
            for size in sizes:
                started = time.perf_counter()
                tips += build(memory, size - grown, rng, first_chain=len(tips))
                grown = size
                add_random_vectors(memory, dimensions, vectors)
                built_s = time.perf_counter() - started
                settled_s = settle()  # the index merges a bulk load leaves behind are not the size's cost
                row = measure(http, memory, tips, args.samples, args.batch, rng)
                row["size"] = size
                row["build_s"] = built_s
                row["settled_s"] = settled_s
                rows.append(row)
                print(f"\n{size:>12,} claims (grown in {built_s:.0f} s, settled in {settled_s:.0f} s)")
                for op, floor in (("as_of", "bare_lookup"), ("status", "bare_lookup"), ("recall", "recall_floor")):
                    r, f = row[op], row[floor]
                    print(
                        f"  {op:<8} p50 {r['p50_ms']:8.2f} ms  p99 {r['p99_ms']:8.2f} ms   "
                        f"floor p50 {f['p50_ms']:7.2f} ms   ratio {r['p50_ms'] / f['p50_ms']:5.2f}x"
                    )
                print(f"  ingest   {row['ingest']['claims_per_s_median']:8,.0f} claims/s (median of batches)")
                grown += args.batch * row["ingest"]["n"]  # the ingest batches grew the graph too
    result: dict[str, Any] = {
        "bench": "scale",
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "model": settings.embedding.model,
        "batch": args.batch,
        "samples": args.samples,
        "sizes": [r["size"] for r in rows],
        "rows": rows,
    }
    if args.project and args.project > sizes[-1] and len(rows) >= 2:
        result["projection"] = {}
        for op in OPERATIONS:
            p50 = project(result["sizes"], [r[op]["p50_ms"] for r in rows], args.project)
            result["projection"][op] = {"size": args.project, "p50_ms": p50}
        print(f"\nprojected to {args.project:,} claims at the last decade's growth (not measured):")
        for op, p in result["projection"].items():
            print(f"  {op:<8} p50 {p['p50_ms']:8.2f} ms")
    result["flags"] = growth_flags(result["sizes"], rows)
    print("\nworse than logarithmic: " + ("; ".join(result["flags"]) or "none"))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    plot(result, Path(args.png))
    print(f"wrote {args.json} and {args.png}")
    return 0
