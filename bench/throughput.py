"""`python -m bench throughput`: extraction facts/s with chunks and jobs at once, against a local
endpoint that takes `--delay` seconds a reply.

A local OpenAI-compatible endpoint answers every request, after the delay, with a fact about each
person its chunk's text names: the model's speed is fixed, so what is measured is how much of it
donto keeps busy. Each round queues `--docs` documents of `--chunks` chunks each in a fresh
workspace and times the workers (extraction only) from their start until every job ended, once per
configuration (`--configs`: concurrency x jobs; the first is the baseline), the configurations
taking turns round by round. Prints per configuration the median facts/s, seconds per round, and
the most requests the endpoint saw in flight at once. Needs Neo4j (a throwaway one by default) and
loads the embedding model (memorize registers each document's passages)."""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench.common import bench_settings
from donto.jobs.worker import JobKind
from donto.memorize.service import MemorizeRequest
from donto.memory import Memory
from donto.settings import LLMSettings, Settings

TEXT_MARK = "TEXT:\n"  # extraction/prompts.py puts the source after this line
FILLER = "Nothing much happened that day, and the notes say so at length. " * 50  # ~3,250 characters


class DelayedLLM:
    """Answers each request with a fact about every `Person<n>` its text names, after `delay_s`."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.in_flight = 0
        self.peak = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.request_queue_size = 128
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def reset(self) -> None:
        with self._lock:
            self.peak = self.in_flight

    def answer(self, prompt: str) -> str:
        text = prompt.split(TEXT_MARK, 1)[-1]
        names = [w.rstrip(".,") for w in text.split() if w.startswith("Person")]
        return "\n".join(
            json.dumps({"s": n, "p": "wrote", "o": f"report {n[6:]}", "q": f"{n} wrote report {n[6:]}"})
            for n in dict.fromkeys(names)
        )

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
                with llm._lock:
                    llm.in_flight += 1
                    llm.peak = max(llm.peak, llm.in_flight)
                time.sleep(llm.delay_s)
                reply = json.dumps(
                    {
                        "choices": [{"message": {"content": llm.answer(prompt)}, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 40},
                    }
                ).encode()
                with llm._lock:
                    llm.in_flight -= 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        return Handler


@contextmanager
def delayed_llm(delay_s: float) -> Iterator[DelayedLLM]:
    llm = DelayedLLM(delay_s)
    threading.Thread(target=llm._server.serve_forever, daemon=True).start()
    try:
        yield llm
    finally:
        llm._server.shutdown()
        llm._server.server_close()


def document(doc: int, chunks: int) -> str:
    """`chunks` paragraphs, each a chunk of its own (3,500 characters at most), each naming 3 people."""
    paragraphs = []
    for c in range(chunks):
        people = " ".join(f"Person{doc * 1000 + c * 10 + k} wrote report {doc * 1000 + c * 10 + k}." for k in range(3))
        paragraphs.append(f"{people} {FILLER}")
    return "\n\n".join(paragraphs)


def parse_configs(text: str) -> list[tuple[int, int]]:
    configs = []
    for item in text.split(","):
        concurrency, jobs = (int(x) for x in item.lower().split("x"))
        configs.append((concurrency, jobs))
    return configs


def one_round(
    settings: Settings, llm: DelayedLLM, args: argparse.Namespace, config: tuple[int, int], docs: int
) -> dict:
    """One configuration's round: a Memory made with DONTO_LLM_CONCURRENCY and DONTO_LLM_JOBS set
    to it (its model loaded before the clock starts), its extraction workers each draining the
    queue on a thread of its own until it is empty."""
    concurrency, jobs = config
    configured = settings.model_copy(
        update={"llm": settings.llm.model_copy(update={"concurrency": concurrency, "jobs": jobs})}
    )
    workspace = f"bench-throughput-{uuid.uuid4().hex[:8]}"
    with Memory(configured).open(apply_schema=False) as memory:
        memory.encoder.load()  # memorize registers passages and compares predicates: loaded untimed
        request = MemorizeRequest(mode=args.mode, passes=args.passes)
        ids = [
            memory.memorize.memorize(workspace, replace(request, text=document(d, args.chunks)), "bench").job_id
            for d in range(docs)
        ]
        workers = [kind for kind in memory.workers.kinds if kind.name == "extraction"]
        assert len(workers) == jobs
        threads = [threading.Thread(target=drain, args=(kind,)) for kind in workers]
        llm.reset()
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        views = [memory.jobs.get(workspace, i) for i in ids if i]
    facts = sum(int(v.summary.get("facts", 0)) for v in views)
    failed = sum(v.state != "succeeded" for v in views)
    return {"facts": facts, "seconds": seconds, "peak": llm.peak, "failed": failed}


def drain(kind: JobKind) -> None:
    while kind.run_once():
        pass


def run(settings: Settings, args: argparse.Namespace) -> int:
    configs = parse_configs(args.configs)
    with delayed_llm(args.delay) as llm, bench_settings(settings, args.throwaway) as s:
        s = s.model_copy(
            update={
                "llm": LLMSettings(base_url=llm.base_url, model="delayed", structured_output="never"),
                "api": s.api.model_copy(update={"run_workers": False}),
            }
        )
        Memory(s).open().close()  # the schema applied, the model's dimension recorded
        one_round(s, llm, args, configs[0], docs=1)  # warm-up, untimed: Neo4j's plans, the first writes
        print(
            f"{args.docs} documents x {args.chunks} chunks, mode {args.mode}, {args.delay} s a reply, "
            f"{args.rounds} rounds; configurations take turns"
        )
        results: dict[tuple[int, int], list[dict]] = {c: [] for c in configs}
        for number in range(args.rounds):
            for concurrency, jobs in configs:
                outcome = one_round(s, llm, args, (concurrency, jobs), args.docs)
                results[(concurrency, jobs)].append(outcome)
                print(
                    f"  round {number + 1} concurrency {concurrency} jobs {jobs}: {outcome['facts']} facts in "
                    f"{outcome['seconds']:.2f} s, peak {outcome['peak']} in flight, {outcome['failed']} failed",
                    flush=True,
                )
        print("concurrency  jobs  facts  median s  median facts/s  peak in flight  vs baseline")
        baseline = None
        for (concurrency, jobs), rounds in results.items():
            rate = statistics.median(r["facts"] / r["seconds"] for r in rounds)
            baseline = baseline or rate
            print(
                f"{concurrency:>11} {jobs:>5} {statistics.median(r['facts'] for r in rounds):>6.0f} "
                f"{statistics.median(r['seconds'] for r in rounds):>9.2f} {rate:>15.2f} "
                f"{max(r['peak'] for r in rounds):>15} {rate / baseline:>10.2f}x"
            )
    return 0
