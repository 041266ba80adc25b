"""Shared benchmark plumbing: a donto API served on a free local port, and latency summaries."""

from __future__ import annotations

import os
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import httpx
from pydantic import SecretStr

from donto.settings import ApiSettings, Neo4jSettings, Settings

BENCH_KEY = "bench-admin-key"
REPO = Path(__file__).resolve().parent.parent  # benchmarks run from a checkout


def _cpu_times() -> tuple[int, int] | None:
    """(busy, total) jiffies of all this machine's CPUs, from /proc/stat; None off Linux."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


class CpuMeter:
    """CPU seconds spent while it runs: by this process (a bench's client and the API it serves, with
    the API's workers) and by the whole machine; the rest is the other processes' (a local Neo4j's).
    Read on an otherwise idle machine, it says which side a throughput is bound by. None off Linux."""

    def __init__(self) -> None:
        self.process_s = 0.0
        self.machine_s: float | None = None  # None until it has run, or off Linux
        self._machine: tuple[int, int] | None = None
        self._process = 0.0

    def __enter__(self) -> CpuMeter:
        self._machine, self._process = _cpu_times(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.process_s = time.process_time() - self._process
        after = _cpu_times()
        if self._machine is not None and after is not None:
            self.machine_s = (after[0] - self._machine[0]) / os.sysconf("SC_CLK_TCK")


def settle(busy_below: float = 0.15, window_s: float = 5.0, max_wait_s: float = 1800.0) -> float:
    """Wait until this machine's CPUs are idle over a whole window (the bench itself sleeps here);
    returns the seconds waited. A bulk load leaves the local Neo4j merging index segments for
    minutes after its last commit: measured straight after writing 1M claims, recall and its floor
    both ran in the merges' shadow. A remote server's background work is not seen (nor waited for)."""
    started = time.perf_counter()
    before = _cpu_times()
    while before is not None and time.perf_counter() - started < max_wait_s:
        time.sleep(window_s)
        after = _cpu_times()
        assert after is not None
        busy, total = after[0] - before[0], after[1] - before[1]
        if total > 0 and busy / total < busy_below:
            break
        before = after
    return time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def bench_settings(settings: Settings, throwaway: bool) -> Iterator[Settings]:
    """The configured Neo4j, or (throwaway=True) a fresh local server that is removed afterwards.
    The per-key rate limit is off: a bench drives its one key as fast as the server answers."""
    if not throwaway:
        yield settings.model_copy(
            update={"api": ApiSettings(api_key=SecretStr(BENCH_KEY), rate_limit_per_s=0, keep_alive_s=3600)}
        )
        return
    from donto.neo4j_local import throwaway_server

    runtime = settings.local_neo4j.runtime
    # Benchmarks get the memory of the default local server, not the tests' small one.
    with throwaway_server(
        runtime if runtime.is_absolute() else REPO / runtime,
        heap=settings.local_neo4j.heap,
        pagecache=settings.local_neo4j.pagecache,
    ) as (uri, user, password):
        yield settings.model_copy(
            update={
                "neo4j": Neo4jSettings(uri=uri, user=user, password=SecretStr(password)),
                # keep_alive_s: a bench's client idles between requests while it works in process
                # (profiles, baselines); past the server's keep-alive its close races the next request
                # (a 100-minute locomo run died of one "connection reset by peer").
                "api": ApiSettings(
                    api_key=SecretStr(BENCH_KEY), max_body_bytes=64 * 1024 * 1024, rate_limit_per_s=0, keep_alive_s=3600
                ),
            }
        )


@contextmanager
def served_api(settings: Settings) -> Iterator[httpx.Client]:
    """donto's REST API under uvicorn on a free port, in this process; yields an authorised client."""
    import uvicorn

    from donto.api.main import create_app
    from donto.api.server import uvicorn_config

    port = free_port()
    config = uvicorn_config(create_app(settings), settings.api, "127.0.0.1", port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the API did not start")
        time.sleep(0.05)
    try:
        assert settings.api.api_key is not None  # bench_settings always sets one
        key = settings.api.api_key.get_secret_value()
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}",
            timeout=600,
            headers={"Authorization": f"Bearer {key}", "X-Donto-Workspace": "bench"},
        ) as client:
            # The model loads after the API starts (recall answers 503 model_warming_up until then).
            while client.get("/health").json().get("model_state") != "ready":
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the model did not load: {client.get('/health').text}")
                time.sleep(0.1)
            yield client
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def summary_ms(samples: list[float]) -> str:
    ms = [s * 1000 for s in samples]
    return f"p50 {statistics.median(ms):7.2f} ms   p99 {percentile(ms, 99):7.2f} ms   (n={len(ms)})"


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


__all__ = ["bench_settings", "served_api", "summary_ms", "percentile", "timed", "nullcontext"]
