"""`python -m bench episodes --data FILE`: episode ingest throughput beside its floor.

Each LoCoMo conversation goes in through POST /v1/episodes (one request per session, as
`bench locomo` does it). The floor, measured right after each conversation in the same run: the
model's own `encode` of the same turns (`speaker: text`, the document prompt), the faster of its
plain batches of donto's batch size and donto's length-bounded ones: what ingest would cost if each
turn were encoded once and nothing else were done.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from pathlib import Path

from bench.common import bench_settings, served_api, timed
from bench.locomo import sample_turns
from donto.memory import Memory
from donto.settings import Settings


def run(settings: Settings, args: argparse.Namespace) -> int:
    data = json.loads(Path(args.data).read_text())[: args.conversations]
    run_id = uuid.uuid4().hex[:6]
    rows = []
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http:
        encoder = Memory(s).encoder
        encoder.encode(["warm the model up"])
        print(f"model {encoder.name}, batch size {encoder.batch_size}")
        print("conversation   turns   ingest turns/s   raw encode turns/s   ratio")
        for sample in data:
            headers = {"X-Donto-Workspace": f"episodes-{sample['sample_id']}-{run_id}"}
            sessions = sample_turns(sample)
            started = time.perf_counter()
            for key, when, turns in sessions:
                body = {
                    "session": {"external_id": key, "started_at": when.isoformat()},
                    "turns": [{**t, "occurred_at": t["occurred_at"].isoformat()} for t in turns],
                }
                http.post("/v1/episodes", json=body, headers=headers).raise_for_status()
            ingest_s = time.perf_counter() - started
            spoken = [f"{t['speaker']}: {t['text']}" for _, _, turns in sessions for t in turns]
            # The floor is the faster of the model's plain encode at donto's batch size and donto's
            # own length-bounded batching, each encoding every turn once and nothing else.
            plain_s = timed(
                lambda: encoder.model.encode(
                    spoken,
                    prompt=encoder.document_prompt,
                    batch_size=encoder.batch_size,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
            )
            raw_s = min(plain_s, timed(lambda: encoder.encode(spoken)))
            row = {
                "conversation": sample["sample_id"],
                "turns": len(spoken),
                "ingest_turns_per_s": len(spoken) / ingest_s,
                "raw_encode_turns_per_s": len(spoken) / raw_s,
            }
            row["ratio"] = row["ingest_turns_per_s"] / row["raw_encode_turns_per_s"]
            rows.append(row)
            print(
                f"{row['conversation']:<12} {row['turns']:>7}   {row['ingest_turns_per_s']:>14.1f}   "
                f"{row['raw_encode_turns_per_s']:>18.1f}   {row['ratio']:>5.2f}",
                flush=True,
            )
    summary = {
        "model": encoder.name,
        "batch_size": encoder.batch_size,
        "conversations": rows,
        "median_ingest_turns_per_s": statistics.median(r["ingest_turns_per_s"] for r in rows),
        "median_raw_encode_turns_per_s": statistics.median(r["raw_encode_turns_per_s"] for r in rows),
        "median_ratio": statistics.median(r["ratio"] for r in rows),
    }
    print(
        f"median: ingest {summary['median_ingest_turns_per_s']:.1f} turns/s, raw encode "
        f"{summary['median_raw_encode_turns_per_s']:.1f} turns/s, ratio {summary['median_ratio']:.2f} "
        "(goal: at least 0.5)"
    )
    Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return 0
