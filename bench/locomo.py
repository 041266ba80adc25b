"""`python -m bench locomo --data FILE`: reader-independent evidence recall on LoCoMo conversations.

Each conversation goes into its own workspace through POST /v1/episodes (one session per LoCoMo
session, turn external_id = dia_id, occurred_at = the session's date; a shared image's caption
is part of what the turn says). Every question of categories 1-4 with evidence is asked through
POST /v1/recall with provenance. Recall@K: the share of a question's evidence turns among the
turns of the top K items (turn level), and of its evidence sessions among their sessions
(session level), averaged over questions. Next to donto, measured in the same run on the same
model: a bare turn-vector index (exact cosine over "speaker: text", and over the raw text alone)
and BM25 over the same two texts. `--profile NAME=JSON` also recalls with other arm weights (and,
with a reranker configured, without it) in process, on the same graph; every figure names the model.

`--as-documents` posts each session as one dated transcript document instead (a line per turn,
"speaker: text", through POST /v1/documents, no LLM): recall then finds the documents' passages,
and a passage counts as the turn whose line it lies in, read from its offsets.

`--replay-observations` also memorizes every session through the production extraction path, with
a local endpoint answering each with LoCoMo's own `observation` facts about it (bench/replay.py):
the claim arm is then measured with facts of LLM quality, against the same graph without it (the
profile "no claim arm"), and the replay's cost is printed beside the episodes' ingest time.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import time
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from bench.common import bench_settings, nullcontext, percentile, served_api, timed
from bench.own_memory import auc
from bench.replay import ReplayLLM, observation_facts, replay_llm
from donto.memory import Memory
from donto.recall.render import RecallItem
from donto.recall.service import RecallRequest
from donto.settings import LLMSettings, Settings
from donto.temporal.scope import TimeScope

KS = (5, 10, 20, 40)
LEADS = (("turn", 5), ("turn", 20), ("session", 5))  # printed after each conversation
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_TOKEN = re.compile(r"[a-z0-9]+")


def session_date(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> aware datetime (UTC)."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def conversation_turns(conversation: dict) -> list[tuple[str, datetime, list[dict]]]:
    """A LoCoMo conversation's sessions in order: (key, the session's date, its turns, each dated by it)."""
    sessions = sorted(
        (int(k.split("_")[1]), k) for k in conversation if re.fullmatch(r"session_\d+", k) and conversation[k]
    )
    out = []
    for _, key in sessions:
        when = session_date(conversation[f"{key}_date_time"])
        turns = [
            {
                "external_id": t["dia_id"].strip(),
                "speaker": t["speaker"],
                "text": t["text"] + (f" [shares a photo: {t['blip_caption']}]" if t.get("blip_caption") else ""),
                "occurred_at": when,
            }
            for t in conversation[key]
        ]
        out.append((key, when, turns))
    return out


def message_time(text: str) -> datetime:
    """REALTALK's '29.12.2023, 22:42:04' -> aware datetime (UTC)."""
    return datetime.strptime(text.strip(), "%d.%m.%Y, %H:%M:%S").replace(tzinfo=UTC)


def chat_turns(chat: dict) -> list[tuple[str, datetime, list[dict]]]:
    """A REALTALK chat's sessions in order, each message dated by its own time (a session starts at
    its first message). Images are not in the data as text: a message that only shares one is left out."""
    sessions = sorted((int(k.split("_")[1]), k) for k in chat if re.fullmatch(r"session_\d+", k) and chat[k])
    out = []
    for _, key in sessions:
        turns = [
            {
                "external_id": t["dia_id"].strip(),
                "speaker": t["speaker"],
                "text": t["clean_text"],
                "occurred_at": message_time(t["date_time"]),
            }
            for t in chat[key]
            if t.get("clean_text", "").strip()
        ]
        if turns:
            out.append((key, min(t["occurred_at"] for t in turns), turns))
    return out


def sample_turns(sample: dict) -> list[tuple[str, datetime, list[dict]]]:
    """LoCoMo keeps its sessions under `conversation`; REALTALK at the sample's top level."""
    return conversation_turns(sample["conversation"]) if "conversation" in sample else chat_turns(sample)


def transcript(turns: list[dict]) -> tuple[str, list[tuple[int, int, str]]]:
    """A session as one document: a line per turn, and each turn's line as (start, end, dia_id)."""
    lines, spans, at = [], [], 0
    for t in turns:
        line = f"{t['speaker']}: {t['text']}"
        lines.append(line)
        spans.append((at, at + len(line), t["external_id"]))
        at += len(line) + 1
    return "\n".join(lines), spans


class FoundTurns:
    """The turns of recalled items, in order: a turn item names its own; a document passage counts as
    the turn whose transcript line holds it (--as-documents)."""

    def __init__(self) -> None:
        self.lines: dict[str, list[tuple[int, int, str]]] = {}  # document id -> its turns' lines

    def of(self, items: list[dict]) -> list[str]:
        found: list[str] = []
        for item in items:
            p = item.get("provenance") or {}
            if p.get("document_id"):
                found += [t for a, b, t in self.lines.get(p["document_id"], []) if a < p["end"] and p["start"] < b]
            else:
                found += p.get("turn_ids", [])
        return list(dict.fromkeys(found))

    def of_items(self, items: list[RecallItem]) -> list[str]:
        return self.of([{"provenance": vars(i.provenance)} for i in items if i.provenance])


def evidence_ids(qa: dict) -> list[str]:
    """Stray spaces, separators and full stops ("D13:4. D14:4") are not part of an id."""
    return [e.strip(".") for raw in qa.get("evidence", []) for e in re.split(r"[;,\s]+", raw) if e.strip(".")]


def recall_at(found: list[str], wanted: set[str], k: int) -> float:
    return len(wanted & set(found[:k])) / len(wanted)


class Bm25:
    def __init__(self, texts: list[str], k1: float = 1.2, b: float = 0.75):
        self.docs = [Counter(_TOKEN.findall(t.lower())) for t in texts]
        self.lengths = np.array([sum(d.values()) for d in self.docs], dtype=float)
        df = Counter(term for d in self.docs for term in d)
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.k1, self.b, self.avg = k1, b, self.lengths.mean()

    def rank(self, query: str) -> list[int]:
        scores = np.zeros(len(self.docs))
        for term in set(_TOKEN.findall(query.lower())):
            if term not in self.idf:
                continue
            tf = np.array([d.get(term, 0) for d in self.docs], dtype=float)
            scores += (
                self.idf[term] * tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * self.lengths / self.avg))
            )
        return list(np.argsort(-scores, kind="stable"))


def run(settings: Settings, args: argparse.Namespace) -> int:
    if args.as_documents and args.replay_observations:
        raise SystemExit("--replay-observations memorizes the sessions as episodes: leave out --as-documents")
    data = json.loads(Path(args.data).read_text())
    if args.replay_observations and not all("observation" in sample for sample in data):
        raise SystemExit("--replay-observations replays LoCoMo's observation facts: this file has none (REALTALK?)")
    replaying = replay_llm() if args.replay_observations else nullcontext()
    with replaying as llm, bench_settings(settings, args.throwaway) as plain:
        return measure(plain if llm is None else replayed(plain, llm), args, data, llm)


def replayed(settings: Settings, llm: ReplayLLM) -> Settings:
    """The bench's settings with the replay endpoint as the LLM (sessions are memorized while the
    request waits, one at a time)."""
    return settings.model_copy(
        update={"llm": LLMSettings(base_url=llm.base_url, model="replay", structured_output="never")}
    )


def measure(s: Settings, args: argparse.Namespace, data: list[dict], llm: ReplayLLM | None) -> int:
    run_id = uuid.uuid4().hex[:6]
    results: dict[str, list[tuple[int, dict]]] = defaultdict(list)  # method -> [(category, {level@k: r})]
    latencies, server_ms = [], []
    recall_k20: list[float] = []  # the measure: k = 20 with provenance, through REST
    floor_k20: list[float] = []  # one query embedding plus one bare vector-index query for 20 turns
    profiles = {name: json.loads(weights) for name, weights in (p.split("=", 1) for p in args.profile)}
    if llm is not None:
        profiles["no claim arm"] = {"claim_vector": 0.0}
    profile_ms: dict[str, list[float]] = defaultdict(list)
    ingested = ingest_s = raw_s = replay_s = 0.0
    replayed_facts = 0
    found_turns = FoundTurns()
    # The top item's `relevance` for categories 1-4 and, when the first bundle carries one, for category 5
    # (adversarial: asked only then, so a run without relevance makes no extra request)
    relevance_seen: bool | None = None
    top_relevance: dict[str, list[float]] = {"answerable": [], "adversarial": []}
    with served_api(s) as http:
        memory = Memory(s)
        encoder = memory.encoder  # the baselines embed with donto's own model
        reranker = memory.recall.reranker
        if reranker is not None:
            profiles["no rerank"] = {"rerank": False}
        model = encoder.name.rstrip("/").split("/")[-1] + (
            f" > {reranker.name.rstrip('/').split('/')[-1]}" if reranker else ""
        )
        for sample in data:
            workspace = f"locomo-{sample['sample_id']}-{run_id}"
            headers = {"X-Donto-Workspace": workspace}
            sessions = sample_turns(sample)
            started = time.perf_counter()
            turn_session, texts, speakers, ids = {}, [], [], []
            session_ids = {}
            for key, when, turns in sessions:
                if args.as_documents:
                    text, lines = transcript(turns)
                    posted = http.post(
                        "/v1/documents",
                        json={"text": text, "occurred_at": when.isoformat(), "external_id": key},
                        headers=headers,
                    )
                    posted.raise_for_status()
                    found_turns.lines[posted.json()["id"]] = lines
                else:
                    body = {
                        "session": {"external_id": key, "started_at": when.isoformat()},
                        "turns": [{**t, "occurred_at": t["occurred_at"].isoformat()} for t in turns],
                    }
                    posted = http.post("/v1/episodes", json=body, headers=headers)
                    posted.raise_for_status()
                    session_ids[key] = posted.json()["session_id"]
                for t in turns:
                    turn_session[t["external_id"]] = key
                    texts.append(t["text"])
                    speakers.append(t["speaker"])
                    ids.append(t["external_id"])
            if args.as_documents:  # the passages' embeddings, as a recall would make them first
                memory.claim_embeddings.drain(workspace)
            ingested, ingest_s = ingested + len(ids), ingest_s + time.perf_counter() - started
            if llm is not None:
                replay_started = time.perf_counter()
                turn_text = dict(zip(ids, texts))
                for key, _, _ in sessions:
                    llm.facts = observation_facts(sample["observation"].get(f"{key}_observation") or {}, turn_text)
                    replayed_facts += len(llm.facts)
                    http.post(
                        "/v1/memorize", json={"session_id": session_ids[key], "async": False}, headers=headers
                    ).raise_for_status()
                memory.claim_embeddings.drain(workspace)
                replay_s += time.perf_counter() - replay_started
            print(
                f"{sample['sample_id']}: {len(ids)} turns in {len(sessions)} sessions ingested in "
                f"{time.perf_counter() - started:.1f} s [{model}]",
                flush=True,
            )
            spoken = [f"{who}: {text}" for who, text in zip(speakers, texts)]
            raw_started = time.perf_counter()  # the floor: the same turns encoded once each
            turn_vectors = np.array(encoder.encode(spoken))
            raw_s += time.perf_counter() - raw_started
            raw_turn_vectors = np.array(encoder.encode(texts))
            bm25 = Bm25(texts)
            bm25_speaker = Bm25(spoken)
            for qa in sample["qa"]:
                wanted = [e for e in evidence_ids(qa) if e in turn_session]
                if qa.get("category") not in CATEGORIES or not wanted:
                    continue
                question = str(qa["question"])
                t0 = time.perf_counter()
                response = http.post(
                    "/v1/recall", headers=headers, json={"query": question, "k": max(KS), "include_provenance": True}
                )
                latencies.append(time.perf_counter() - t0)
                response.raise_for_status()
                server_ms.append(response.json()["took_ms"])
                items = response.json()["items"]
                if relevance_seen is None and items:
                    relevance_seen = any("relevance" in i for i in items)
                if relevance_seen:
                    top_relevance["answerable"].append((items[0].get("relevance") or 0.0) if items else 0.0)
                recall_k20.append(
                    timed(
                        lambda: http.post(
                            "/v1/recall", headers=headers, json={"query": question, "k": 20, "include_provenance": True}
                        ).raise_for_status()
                    )
                )
                floor_k20.append(
                    timed(
                        lambda: memory.graph.read_list(
                            "bench_turn_vector_floor",
                            workspace=workspace,
                            vector=encoder.encode_query(question),
                            k=20,
                        )
                    )
                )
                found = found_turns.of(response.json()["items"])
                by_profile = {}
                for name, profile in profiles.items():
                    weights = {k: v for k, v in profile.items() if k != "rerank"}
                    request = RecallRequest(
                        question,
                        TimeScope.now(),
                        k=max(KS),
                        include_provenance=True,
                        arm_weights=weights or None,
                        rerank=profile.get("rerank", True),
                    )
                    t1 = time.perf_counter()
                    items = memory.recall.recall(workspace, request).items
                    profile_ms[name].append((time.perf_counter() - t1) * 1000)
                    by_profile[f"donto {name}"] = found_turns.of_items(items)
                q_vector = np.array(encoder.encode_query(question))
                vector_found = [ids[i] for i in np.argsort(-(turn_vectors @ q_vector))[: max(KS)]]
                raw_vector_found = [ids[i] for i in np.argsort(-(raw_turn_vectors @ q_vector))[: max(KS)]]
                bm25_found = [ids[i] for i in bm25.rank(question)[: max(KS)]]
                bm25_speaker_found = [ids[i] for i in bm25_speaker.rank(question)[: max(KS)]]
                for method, ranked in (
                    ("donto", found),
                    ("turn-vector", vector_found),
                    ("turn-vec raw", raw_vector_found),
                    ("bm25", bm25_speaker_found),
                    ("bm25 raw", bm25_found),
                    *by_profile.items(),
                ):
                    scores = {}
                    for k in KS:
                        scores[f"turn@{k}"] = recall_at(ranked, set(wanted), k)
                        scores[f"session@{k}"] = recall_at(
                            list(dict.fromkeys(turn_session[t] for t in ranked[:k])),
                            {turn_session[e] for e in wanted},
                            k,
                        )
                    results[method].append((qa["category"], scores))
            if relevance_seen:
                for qa in sample["qa"]:
                    if qa.get("category") == 5:
                        adversarial = http.post(
                            "/v1/recall",
                            headers=headers,
                            json={"query": str(qa["question"]), "k": max(KS), "include_provenance": True},
                        )
                        adversarial.raise_for_status()
                        items = adversarial.json()["items"]
                        top_relevance["adversarial"].append((items[0].get("relevance") or 0.0) if items else 0.0)
            so_far = results["donto"]  # printed as it goes: a run that dies later keeps what it measured
            print(
                f"{sample['sample_id']}: donto so far over {len(so_far)} questions: "
                + ", ".join(f"{m}@{k} {statistics.mean(r[f'{m}@{k}'] for _, r in so_far):.3f}" for m, k in LEADS)
                + "".join(
                    f"; {name} turn@20 {statistics.mean(r['turn@20'] for _, r in results[f'donto {name}']):.3f}"
                    for name in profiles
                )
                + f" [{model}]",
                flush=True,
            )
    report(results, latencies, server_ms, model)
    if relevance_seen:
        value = auc(top_relevance["answerable"], top_relevance["adversarial"])
        print(
            f"relevance AUC (the top item's): categories 1-4 ({len(top_relevance['answerable'])} questions) against "
            f"category 5, adversarial ({len(top_relevance['adversarial'])}): "
            + (f"{value:.3f}" if value is not None else "-")
            + f" [{model}]"
        )
    print(
        f"ingest{' as documents' if args.as_documents else ''}: {ingested / ingest_s:.1f} turns/s over "
        f"{ingested:.0f} turns, raw encode of the same turns {ingested / raw_s:.1f} turns/s "
        f"(ratio {raw_s / ingest_s:.2f}) [{model}]"
    )
    if llm is not None:
        print(
            f"replay: {replayed_facts} observation facts memorized in {replay_s:.1f} s "
            f"({replayed_facts / replay_s:.1f} facts/s, embedded included), beside {ingest_s:.1f} s of episode "
            f"ingest; {llm.requests} LLM requests [{model}]"
        )
    recall_ms, floor_ms = [x * 1000 for x in recall_k20], [x * 1000 for x in floor_k20]
    print(
        f"recall k=20 with provenance (REST): p50 {statistics.median(recall_ms):.1f} ms, p95 "
        f"{percentile(recall_ms, 95):.1f} ms; floor (one query embedding + one bare vector query for 20 turns, "
        f"in process): p50 {statistics.median(floor_ms):.1f} ms, p95 {percentile(floor_ms, 95):.1f} ms; ratio p50 "
        f"{statistics.median(recall_ms) / statistics.median(floor_ms):.2f}x, p95 "
        f"{percentile(recall_ms, 95) / percentile(floor_ms, 95):.2f}x [{model}]"
    )
    for name, ms in profile_ms.items():
        print(
            f"donto {name} (in process): p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms [{model}]"
        )
    return 0


def report(
    results: dict[str, list[tuple[int, dict[str, float]]]], latencies: list[float], server_ms: list[float], model: str
) -> None:
    n = len(results["donto"])
    print(f"\nevidence recall@K over {n} questions (categories 1-4 with evidence), model {model}")
    width = max(13, *(len(m) for m in results))
    header = f"{'method':<{width}} level    " + "".join(f"  @{k:<5}" for k in KS) + "  model"
    print(header)
    for method, rows in results.items():
        for level in ("turn", "session"):
            cells = "".join(f"  {statistics.mean(r[f'{level}@{k}'] for _, r in rows):.3f}" for k in KS)
            print(f"{method:<{width}} {level:<8}{cells}  {model}")
    for method in [m for m in results if m == "donto" or m.startswith("donto ")]:
        print(f"\n{method} per category")
        print("category       n    level    " + "".join(f"  @{k:<5}" for k in KS))
        for category, name in CATEGORIES.items():
            in_category = [r for c, r in results[method] if c == category]
            if not in_category:  # a subset of conversations may ask none of a category
                continue
            for level in ("turn", "session"):
                cells = "".join(f"  {statistics.mean(r[f'{level}@{k}'] for r in in_category):.3f}" for k in KS)
                print(f"{name:<12} {len(in_category):>4}    {level:<8}{cells}  {model}")
    for method in [m for m in results if m.startswith("donto ")]:  # per question: what the profile changed
        print(f"\n{method} against donto, questions that rose / fell (per category)")
        for category, name in CATEGORIES.items():
            pairs = [(a, b) for (c, a), (_, b) in zip(results["donto"], results[method]) if c == category]
            if pairs:
                moved = [
                    f"{level}@5 +{sum(a[f'{level}@5'] > b[f'{level}@5'] for a, b in pairs)}"
                    f"/-{sum(a[f'{level}@5'] < b[f'{level}@5'] for a, b in pairs)}"
                    for level in ("turn", "session")
                ]
                print(f"{name:<12} {len(pairs):>4}    donto over {method}: {', '.join(moved)}")
    ms = [x * 1000 for x in latencies]
    print(
        f"\nrecall latency (client, k=40, with provenance): p50 {statistics.median(ms):.1f} ms, "
        f"p95 {percentile(ms, 95):.1f} ms; server took_ms p50 {statistics.median(server_ms):.1f} [{model}]"
    )
