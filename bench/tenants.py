"""`python -m bench tenants`: a quiet tenant's recall latency alone, then beside a noisy tenant.

The quiet workspace holds a few hundred claims and a conversation; its recall is timed alone
(the floor), then again beside a noisy workspace. With one noisy client (the default) it writes
claims in large batches as fast as the server takes them and recalls over its own growing
backlog. With `--flood N`, N clients of the noisy workspace, each in a process of its own (so that
they do not share this process's interpreter with the server), post at once, back to back:
1,000-claim batches (`--noise claims`) or 20-turn episodes (`--noise episodes`, which load the
encoder); a client answered 429 or 503 waits its Retry-After and sends the same body again. Prints
p50/p95 of both, the ratio of the p95s (the issue's bar: within 2x), what the noisy tenant got
written meanwhile, and any answer of the flood that was not a 201."""

from __future__ import annotations

import argparse
import multiprocessing
import random
import threading
import time
from collections import Counter
from typing import Any

import httpx

from bench.common import bench_settings, percentile, served_api
from donto.settings import Settings

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

        if args.flood:
            context = multiprocessing.get_context("spawn")
            halt, answers = context.Event(), context.Queue()
            base, key = str(http.base_url), http.headers["Authorization"]
            flood = [
                context.Process(target=flooder, args=(base, key, args.noise, args.batch, i, halt, answers), daemon=True)
                for i in range(args.flood)
            ]
            flood_started = time.monotonic()
            for process in flood:
                process.start()
            time.sleep(10)  # the processes start (spawn) and the flood builds
            beside = quiet_recalls(http, args.samples, rng)
            halt.set()
            flood_s = time.monotonic() - flood_started
            codes: Counter[str] = Counter()
            for _ in flood:
                codes.update(answers.get(timeout=600))
            for process in flood:
                process.join(timeout=60)
            written[0] = codes.pop("written", 0)
        else:
            loud_thread = threading.Thread(target=noisy, daemon=True)
            flood_started = time.monotonic()
            loud_thread.start()
            time.sleep(2)  # let the noisy backlog build
            beside = quiet_recalls(http, args.samples, rng)
            stop.set()
            flood_s = time.monotonic() - flood_started
            loud_thread.join(timeout=600)
            codes = Counter()

    def line(name: str, samples: list[float]) -> str:
        p50, p95 = percentile(samples, 50) * 1000, percentile(samples, 95) * 1000
        return f"{name:<22} p50 {p50:8.1f} ms   p95 {p95:8.1f} ms   (n={len(samples)})"

    what = "episodes" if args.flood and args.noise == "episodes" else "claims"
    print(line("quiet recall, alone", solo))
    noise = f"   noisy tenant wrote {written[0]} {what} meanwhile ({written[0] / flood_s:.1f}/s)"
    print(line("quiet recall, beside", beside) + noise)
    print(f"p95 beside / p95 alone: {percentile(beside, 95) / percentile(solo, 95):.2f}x")
    if args.flood:
        print(f"{args.flood} noisy clients ({args.noise}); their answers other than 201: {dict(codes) or 'none'}")
    return 0


def flooder(base: str, key: str, noise: str, batch: int, client: int, halt: Any, answers: Any) -> None:
    """One noisy client, in a process of its own: posts back to back until `halt`, then reports
    its answers' status codes and how many claims or episodes went in."""
    codes: Counter[str] = Counter()
    headers = {"Authorization": key, "X-Donto-Workspace": "noisy"}
    with httpx.Client(base_url=base, headers=headers, timeout=600) as http:
        n = 0
        while not halt.is_set():
            if noise == "episodes":
                turns = [
                    {
                        "external_id": f"c{client}-e{n}-t{k}",
                        "speaker": f"person {k % 5}",
                        "text": f"On day {n} person {k % 5} told person {(k + 1) % 5} about trip {client}-{k}: "
                        "the train was late, the hotel was by the river, and the food was better than expected.",
                    }
                    for k in range(20)
                ]
                body = {"session": {"external_id": f"c{client}-e{n}"}, "turns": turns}
                answer = http.post("/v1/episodes", json=body)
            else:
                claims = [
                    {"subject": f"noise {client}-{n}-{k}", "predicate": "echoes", "object": {"entity": f"noise {k}"}}
                    for k in range(batch)
                ]
                answer = http.post("/v1/claims", json={"claims": claims})
            codes[str(answer.status_code)] += 1
            if answer.status_code == 201:
                codes["written"] += 1 if noise == "episodes" else batch
                n += 1
            elif answer.status_code in (429, 503) and "Retry-After" in answer.headers:
                halt.wait(int(answer.headers["Retry-After"]))  # as a client should: the same batch again then
    codes.pop("201", None)
    answers.put(dict(codes))
