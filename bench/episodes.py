"""`python -m bench episodes --data FILE`: episode ingest throughput beside its floor.

Each LoCoMo conversation goes in through POST /v1/episodes (one request per session, as
`bench locomo` does it). The floor, measured right after each conversation in the same run: the
model's own `encode` of the same turns (`speaker: text`, the document prompt), the faster of its
plain batches of donto's batch size and donto's length-bounded ones: what ingest would cost if each
turn were encoded once and nothing else were done. Beside it, the tokens ingest encodes against
the turns' own (each turn, its exchange with the turn before, its sentence passages; a text that
comes twice in a request once): ingest cannot beat the floor by more than their quotient.

`--one-turn-requests N` posts as an agent that hears one turn at a time does: a request per turn, N
conversations at once (each its own client and workspace), against the raw encode of all their turns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from bench.common import bench_settings, percentile, served_api, timed
from bench.locomo import sample_turns
from donto.embedding.encoder import Encoder
from donto.embedding.turns import turn_texts
from donto.episodes.passages import split_passages
from donto.memory import Memory
from donto.settings import Settings


def token_counter(encoder: Encoder) -> Callable[[list[str]], int] | None:
    """Tokens of texts as the model reads them (its document prompt and special tokens included),
    from the model folder's tokenizer.json; None for a model without one."""
    from tokenizers import Tokenizer

    path = Path(encoder.locate()[0]) / "tokenizer.json"
    if not path.is_file():
        return None
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    prompt = encoder.document_prompt or ""
    return lambda texts: sum(len(e.ids) for e in tokenizer.encode_batch([prompt + t for t in texts]))


def encoded_texts(turns: list[dict], before: dict | None = None) -> list[str]:
    """The distinct texts one request of these turns encodes (`before`: the turn the session held last)."""
    rows = [{**t, "passages": [{"text": p.text} for p in split_passages(t["text"])]} for t in turns]
    return list(dict.fromkeys(turn_texts(rows, [before, *rows[:-1]])))


def request_texts(sessions: list[tuple[str, datetime, list[dict]]], turn_by_turn: bool) -> list[list[str]]:
    """The distinct texts of each request: a session's, or (turn by turn) each turn's."""
    if not turn_by_turn:
        return [encoded_texts(turns) for _, _, turns in sessions]
    return [encoded_texts([t], turns[i - 1] if i else None) for _, _, turns in sessions for i, t in enumerate(turns)]


def session_body(key: str, when: datetime, turns: list[dict]) -> dict:
    return {
        "session": {"external_id": key, "started_at": when.isoformat()},
        "turns": [{**t, "occurred_at": t["occurred_at"].isoformat()} for t in turns],
    }


def post_turn_by_turn(http: httpx.Client, workspace: str, sample: dict, latencies: list[float]) -> None:
    """A conversation as an agent posts it when it hears one turn at a time: a request per turn."""
    with httpx.Client(base_url=http.base_url, headers=http.headers, timeout=600) as client:
        for key, when, turns in sample_turns(sample):
            for turn in turns:
                started = time.perf_counter()
                body = session_body(key, when, [turn])
                client.post("/v1/episodes", json=body, headers={"X-Donto-Workspace": workspace}).raise_for_status()
                latencies.append(time.perf_counter() - started)


def run(settings: Settings, args: argparse.Namespace) -> int:
    data = json.loads(Path(args.data).read_text())[: args.conversations]
    run_id = uuid.uuid4().hex[:6]
    clients = args.one_turn_requests
    rows = []
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http:
        encoder = Memory(s).encoder
        encoder.encode(["warm the model up"])
        print(f"model {encoder.name}, batch size {encoder.batch_size}")
        tokens = token_counter(encoder)
        if clients:
            print(f"a request per turn, {clients} conversations at once")
        print("conversation   turns   ingest turns/s   raw encode turns/s   ratio   tokens encoded / turns' tokens")
        groups = [data[i : i + clients] for i in range(0, len(data), clients)] if clients else [[d] for d in data]
        for group in groups:
            started, latencies = time.perf_counter(), list[float]()
            if clients:
                with ThreadPoolExecutor(len(group)) as pool:  # a client's failure is raised here, not lost
                    workspaces = [f"episodes-{sample['sample_id']}-{run_id}" for sample in group]
                    posting = [
                        pool.submit(post_turn_by_turn, http, workspace, sample, latencies)
                        for workspace, sample in zip(workspaces, group)
                    ]
                    for done in posting:
                        done.result()
            else:
                headers = {"X-Donto-Workspace": f"episodes-{group[0]['sample_id']}-{run_id}"}
                for key, when, turns in sample_turns(group[0]):
                    http.post("/v1/episodes", json=session_body(key, when, turns), headers=headers).raise_for_status()
            ingest_s = time.perf_counter() - started
            sessions = [session for sample in group for session in sample_turns(sample)]
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
            row: dict[str, Any] = {
                "conversation": "+".join(sample["sample_id"] for sample in group),
                "turns": len(spoken),
                "ingest_turns_per_s": len(spoken) / ingest_s,
                "raw_encode_turns_per_s": len(spoken) / raw_s,
            }
            row["ratio"] = row["ingest_turns_per_s"] / row["raw_encode_turns_per_s"]
            if latencies:
                row["request_p50_ms"] = percentile(latencies, 50) * 1000
            if tokens is not None:
                encoded = sum(tokens(texts) for texts in request_texts(sessions, bool(clients)))
                row["tokens_encoded_per_turn_token"] = encoded / tokens(spoken)
            rows.append(row)
            print(
                f"{row['conversation']:<12} {row['turns']:>7}   {row['ingest_turns_per_s']:>14.1f}   "
                f"{row['raw_encode_turns_per_s']:>18.1f}   {row['ratio']:>5.2f}   "
                f"{row.get('tokens_encoded_per_turn_token', float('nan')):>30.2f}"
                + (f"   request p50 {row['request_p50_ms']:.0f} ms" if latencies else ""),
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
    if tokens is not None:
        summary["median_tokens_encoded_per_turn_token"] = statistics.median(
            r["tokens_encoded_per_turn_token"] for r in rows
        )
    print(
        f"median: ingest {summary['median_ingest_turns_per_s']:.1f} turns/s, raw encode "
        f"{summary['median_raw_encode_turns_per_s']:.1f} turns/s, ratio {summary['median_ratio']:.2f} "
        "(goal: at least 0.5)"
    )
    if tokens is not None:
        per = summary["median_tokens_encoded_per_turn_token"]
        print(f"ingest encodes {per:.2f}x the turns' own tokens: at most about {1 / per:.2f} of the raw encode's rate")
    Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return 0
