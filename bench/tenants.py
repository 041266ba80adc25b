"""`python -m bench tenants`: a quiet tenant's recall latency alone, then beside a noisy tenant.

The quiet workspace holds a few hundred claims and a conversation; its recall is timed alone
(the floor), then again while a noisy workspace writes claims in large batches as fast as the
server takes them and recalls over its own growing backlog. Prints p50/p95 of both and the
ratio of the p95s (the issue's bar: within 2x)."""

from __future__ import annotations

import argparse
import random
import threading
import time

import httpx

from app.settings import Settings
from bench.common import bench_settings, percentile, served_api

QUESTIONS = [
    "what does person {i} like?",
    "where did person {i} travel last year?",
    "who works with person {i}?",
    "when did person {i} move?",
]


def quiet_recalls(http: httpx.Client, n: int, rng: random.Random) -> list[float]:
    samples = []
    for _ in range(n):
        question = rng.choice(QUESTIONS).format(i=rng.randrange(50))
        started = time.perf_counter()
        http.post("/v1/recall", json={"query": question}, headers={"X-Donto-Workspace": "quiet"}).raise_for_status()
        samples.append(time.perf_counter() - started)
    return samples


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http:
        quiet = {"X-Donto-Workspace": "quiet"}
        claims = [
            {
                "subject": f"person {i}",
                "predicate": rng.choice(["likes", "works with", "visited"]),
                "object": {"entity": f"thing {j}"},
            }
            for i in range(50)
            for j in range(6)
        ]
        http.post("/v1/claims", json={"claims": claims}, headers=quiet).raise_for_status()
        turns = [
            {
                "external_id": f"t{i}",
                "speaker": f"person {i % 7}",
                "text": f"Last week person {i} moved to city {i % 11}.",
            }
            for i in range(60)
        ]
        http.post(
            "/v1/episodes", json={"session": {"external_id": "s1"}, "turns": turns}, headers=quiet
        ).raise_for_status()
        quiet_recalls(http, 5, rng)  # warm-up: the quiet backlog is drained, the model loaded
        solo = quiet_recalls(http, args.samples, rng)

        stop = threading.Event()
        written = [0]

        def noisy() -> None:
            loud = {"X-Donto-Workspace": "noisy"}
            n = 0
            while not stop.is_set():
                batch = [
                    {"subject": f"noise {n + k}", "predicate": "echoes", "object": {"entity": f"noise {n + k + 1}"}}
                    for k in range(args.batch)
                ]
                http.post("/v1/claims", json={"claims": batch}, headers=loud).raise_for_status()
                n += args.batch
                written[0] = n
                http.post("/v1/recall", json={"query": f"what echoes noise {n}?"}, headers=loud).raise_for_status()

        loud_thread = threading.Thread(target=noisy, daemon=True)
        loud_thread.start()
        time.sleep(2)  # let the noisy backlog build
        beside = quiet_recalls(http, args.samples, rng)
        stop.set()
        loud_thread.join(timeout=600)

    def line(name: str, samples: list[float]) -> str:
        p50, p95 = percentile(samples, 50) * 1000, percentile(samples, 95) * 1000
        return f"{name:<22} p50 {p50:8.1f} ms   p95 {p95:8.1f} ms   (n={len(samples)})"

    print(line("quiet recall, alone", solo))
    print(line("quiet recall, beside", beside) + f"   noisy tenant wrote {written[0]} claims meanwhile")
    print(f"p95 beside / p95 alone: {percentile(beside, 95) / percentile(solo, 95):.2f}x")
    return 0
