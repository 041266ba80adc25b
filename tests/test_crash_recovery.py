"""Crash recovery: the real API process (`python -m donto serve`) is killed with SIGKILL at random
points of batch ingest, round after round, and started again; cut batches are sent again after a
restart. Then every acknowledged write is there exactly once, no batch is there in part, every
session's turns form one chain, and the embedding backlog drains.

Starting a process (the embedding model loads) is the cost of a round, so the next process boots
while a round runs (BOOTING_AHEAD) and is ready, or nearly, when the current one is killed."""

from __future__ import annotations

import math
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from support import ADMIN_KEY, REPO

ROUNDS = 20
SEED = 20_240_611
CLAIM_CLIENTS = 2
EPISODE_CLIENTS = 2
SESSIONS = 3
MAX_BATCH = 500
KILL_AFTER_REQUESTS = (1, 8)  # the kill comes once this many requests of a round have started,
KILL_AFTER_POSTS = (0, 1)  # this many posts of turns were acknowledged,
KILL_AFTER_S = (0.0, 1.0)  # and then this long after
ACK_TIMEOUT_S = 120.0
# Processes booting ahead of the round that will use them: a boot is mostly one core importing the
# model's libraries, so more than one pays only where there are cores to spare.
BOOTING_AHEAD = max(1, min(3, (os.cpu_count() or 2) // 2))
RESENT_PER_ROUND = 4  # cut requests sent again at the start of the next round
THINK_S = (0.0, 0.3)  # a claim writer pauses after each answer: less to embed, so a shorter drain
READY_TIMEOUT_S = 240.0
DRAIN_TIMEOUT_S = 300.0


@dataclass
class Write:
    """One batch of claims or one post of turns, as many times as it was sent. Its content never
    changes between attempts, so any attempt's effect is the same as the first's."""

    kind: str  # "claims" | "episode"
    body: dict[str, Any]
    keys: list[str]  # claim subjects (one content key each) or turn external ids
    attempts: int = 0
    cut: int = 0  # attempts sent and never answered
    acked: dict[str, str] | None = None  # key -> id, from the first acknowledgement
    created: list[bool] = field(default_factory=list)  # the created flags of every acknowledgement
    refusals: list[str] = field(default_factory=list)  # answers that were neither 2xx nor a cut
    deferred: int = 0  # answers that said to come back after Retry-After


class Ledger:
    def __init__(self, workspace: str):
        self.workspace = workspace
        self.writes: list[Write] = []
        self.lock = threading.Lock()

    def new_batch(self, rng: random.Random) -> Write:
        with self.lock:
            number = len(self.writes)
            # Log-uniform sizes: mostly small batches (many requests to cut) and now and then 500.
            size = int(math.exp(rng.uniform(0, math.log(MAX_BATCH + 1))))
            subjects = [f"{self.workspace}-w{number}-c{i}" for i in range(size)]
            claims = [
                {"subject": s, "predicate": "probe", "object": {"entity": f"shared-{i % 17}"}}
                if i % 3
                else {"subject": s, "predicate": "size", "object": {"literal": {"datatype": "xsd:integer", "value": i}}}
                for i, s in enumerate(subjects)
            ]
            write = Write("claims", {"claims": claims}, subjects)
            self.writes.append(write)
            return write

    def new_post(self, rng: random.Random, session_number: int) -> Write:
        session = f"session-{session_number}"
        with self.lock:
            number = len(self.writes)
            turns = [
                {"external_id": f"w{number}-t{k}", "speaker": f"speaker{k % 2}", "text": f"Turn {k} of write {number}."}
                for k in range(rng.randint(1, 3))
            ]
            write = Write(
                "episode", {"session": {"external_id": session}, "turns": turns}, [t["external_id"] for t in turns]
            )
            self.writes.append(write)
            return write

    def unacknowledged(self) -> list[Write]:
        with self.lock:
            return [w for w in self.writes if w.acked is None and w.cut]


def send(http: httpx.Client, write: Write) -> str:
    """Send until answered and record the outcome: "acked", "refused" (an answer, not 2xx) or
    "gone" (the process is dead or dying: nothing sent, or no answer). A 429 or 503 with
    Retry-After (busy, warming up) is waited out and the write sent again, as a client should."""
    path = "/v1/claims" if write.kind == "claims" else "/v1/episodes"
    while True:
        try:
            response = http.post(path, json=write.body)
            body = response.json() if response.status_code == 201 else None
        except httpx.ConnectError:
            return "gone"  # nothing was sent
        except (httpx.TransportError, ValueError):
            write.attempts += 1
            write.cut += 1
            return "gone"
        if response.status_code in (429, 503) and "retry-after" in response.headers:
            write.deferred += 1
            time.sleep(float(response.headers["retry-after"]))
            continue
        write.attempts += 1
        break
    if body is None:
        write.refusals.append(f"{response.status_code} {response.text[:200]}")
        return "refused"
    outcomes = body["claims"] if write.kind == "claims" else body["turns"]
    assert len(outcomes) == len(write.keys), body
    assert write.kind == "claims" or [o["external_id"] for o in outcomes] == write.keys, body
    ids = dict(zip(write.keys, (o["id"] for o in outcomes)))
    write.created += [o["created"] for o in outcomes]
    if write.acked is None:
        write.acked = ids
    assert ids == write.acked, f"a {write.kind} write sent again came back with other ids: {write.keys[:3]}"
    return "acked"


class ApiProcess:
    """One `python -m donto serve` on a free loopback port."""

    def __init__(self, env: dict[str, str], log: Path):
        self.port = _free_port()
        self.log = log
        self.started = time.monotonic()
        self.ready_after_s: float | None = None
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "donto.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=REPO,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> None:
        deadline = self.started + READY_TIMEOUT_S
        while True:
            assert self.proc.poll() is None, f"the API exited ({self.proc.returncode}):\n{self.log_tail()}"
            assert time.monotonic() < deadline, f"the API was not ready in {READY_TIMEOUT_S} s:\n{self.log_tail()}"
            try:
                # Ready for the rounds: the model is in, so a post of turns is answered (until then
                # it is a 503 model_warming_up, which send() would wait out)
                health = httpx.get(self.url + "/health", timeout=2)
                if health.status_code == 200 and health.json().get("model_state") == "ready":
                    self.ready_after_s = time.monotonic() - self.started
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_round(api: ApiProcess, ledger: Ledger, rng: random.Random, resend: list[Write]) -> None:
    """Clients write (and one sends cut writes again) until the process is killed under them: once
    1-8 requests of this round have started and 0-2 posts of turns were acknowledged, after a random
    delay. Counting requests rather than seconds puts the kill inside the ingest however fast this
    machine answers, and bounds what a round writes."""
    headers = {"Authorization": f"Bearer {ADMIN_KEY}", "X-Donto-Workspace": ledger.workspace}
    kill_after = rng.randint(*KILL_AFTER_REQUESTS)
    started, enough, stop = [0], threading.Event(), threading.Event()
    lock, posts_acked = threading.Lock(), threading.Semaphore(0)
    failures: list[BaseException] = []

    def writes(kind: str, local: random.Random) -> Iterator[Write]:
        if kind == "resend":
            yield from resend
            return
        while True:
            yield ledger.new_batch(local) if kind == "claims" else ledger.new_post(local, local.randrange(SESSIONS))

    def client(kind: str, seed: float) -> None:
        try:
            with httpx.Client(base_url=api.url, headers=headers, timeout=120) as http:
                local = random.Random(seed)
                for write in writes(kind, local):
                    with lock:
                        started[0] += 1
                        if started[0] >= kill_after:
                            enough.set()
                    outcome = send(http, write)
                    if outcome == "acked" and write.kind == "episode":
                        posts_acked.release()
                    if outcome == "gone" or stop.is_set():
                        return
                    if kind == "claims":
                        time.sleep(local.uniform(*THINK_S))
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            failures.append(exc)

    kinds = ["resend"] + ["claims"] * CLAIM_CLIENTS + ["episode"] * EPISODE_CLIENTS
    threads = [threading.Thread(target=client, args=(k, rng.random())) for k in kinds]
    for t in threads:
        t.start()
    deadline = time.monotonic() + ACK_TIMEOUT_S
    assert enough.wait(ACK_TIMEOUT_S), f"{kill_after} requests never started"
    for _ in range(rng.randint(*KILL_AFTER_POSTS)):
        assert posts_acked.acquire(timeout=max(0.0, deadline - time.monotonic())) or failures, (
            f"too few posts acknowledged in {ACK_TIMEOUT_S} s:\n{api.log_tail()}"
        )
    time.sleep(rng.uniform(*KILL_AFTER_S))
    api.kill()
    stop.set()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive(), "a client hung after the kill"
    if failures:
        raise failures[0]


def test_every_acknowledged_write_survives_sigkill_exactly_once(settings, memory, tmp_path: Path) -> None:
    workspace = "crash-" + uuid.uuid4().hex[:12]
    rng = random.Random(SEED)
    ledger = Ledger(workspace)
    uri, user, password, database = settings.connection()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DONTO_", "NEO4J_"))}
    env.update(
        NEO4J_URI=uri,
        NEO4J_USER=user,
        NEO4J_PASSWORD=password,
        NEO4J_DATABASE=database,
        DONTO_API_KEY=ADMIN_KEY,
        DONTO_EMBEDDING_MODEL=settings.embedding.model,  # the model the suite's schema was applied for
        DONTO_RATE_LIMIT_PER_S="0",
        DONTO_AUTH_FAILURE_LIMIT="0",
        DONTO_RUN_WORKERS="true",
    )
    started = time.monotonic()
    processes: list[ApiProcess] = []
    booting: deque[ApiProcess] = deque()

    def boot() -> None:
        if len(processes) <= ROUNDS:  # one a round and one to restart after the last kill
            processes.append(ApiProcess(env, tmp_path / f"api-{len(processes)}.log"))
            booting.append(processes[-1])

    try:
        for _ in range(1 + BOOTING_AHEAD):
            boot()
        for _ in range(ROUNDS):
            api = booting.popleft()
            api.wait_ready()
            boot()
            cut = ledger.unacknowledged()
            resend = rng.sample(cut, min(RESENT_PER_ROUND, len(cut)))
            run_round(api, ledger, rng, resend)
        booting.popleft().wait_ready()  # the restart after the last kill: its workers drain the backlog
        rounds_s = time.monotonic() - started
        pending = wait_for_drained_backlog(memory, workspace)
        drained_s = time.monotonic() - started - rounds_s
    finally:
        for p in processes:
            p.kill()

    boots = sorted(p.ready_after_s for p in processes if p.ready_after_s is not None)
    print(
        f"\ncrash recovery: {ROUNDS} rounds in {rounds_s:.0f} s, backlog drained in {drained_s:.0f} s "
        f"({pending} claims left); API ready after {boots[0]:.1f}-{boots[-1]:.1f} s "
        f"(median {boots[len(boots) // 2]:.1f})"
    )
    unembedded = check_graph(memory, ledger)
    assert pending == 0, f"{pending} claims still wait for their embedding after {DRAIN_TIMEOUT_S} s"
    assert unembedded == 0, f"{unembedded} claims left the embedding queue without an embedding"


def wait_for_drained_backlog(memory, workspace: str) -> int:
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    while True:
        pending = memory.graph.read(
            lambda tx: tx.run("MATCH (c:PendingEmbedding {workspace: $w}) RETURN count(c) AS n", w=workspace).single()
        )["n"]
        if pending == 0 or time.monotonic() > deadline:
            return pending
        time.sleep(0.5)


CLAIMS = """MATCH (c:Claim {workspace: $w})
            RETURN c.id AS id, c.subject AS key, c.contentKey AS contentKey, c.embedding IS NOT NULL AS embedded,
                   COUNT { (c)-[:SUBJECT]->(:Entity) } AS subjects, COUNT { (c)-[:OBJECT]->(:Entity) } AS objects,
                   c.objectKind AS objectKind"""
TURNS = """MATCH (t:Turn {workspace: $w})
           OPTIONAL MATCH (s:Session)-[:HAS_TURN]->(t)
           RETURN s.externalId AS session, t.externalId AS key, t.id AS id, t.seq AS seq,
                  t.embedding IS NOT NULL AS embedded, COUNT { (t)-[:HAS_PASSAGE]->(:Passage) } AS passages,
                  [(t)-[:NEXT]->(u:Turn) | u.seq] AS next"""


def check_graph(memory, ledger: Ledger) -> int:
    """Checks what the graph holds against the ledger; the number of claims without an embedding."""
    claims, turns = (
        memory.graph.read(lambda tx, q=query: tx.run(q, w=ledger.workspace).data()) for query in (CLAIMS, TURNS)
    )
    held = {
        "claims": {c["key"]: c for c in claims},
        "episode": {(t["session"], t["key"]): t for t in turns},
    }

    def items(write: Write) -> list[Any]:
        """How the graph names what a write holds: claim subjects, or (session, turn) pairs."""
        return write.keys if write.kind == "claims" else [(write.body["session"]["external_id"], k) for k in write.keys]

    def figures(kind: str) -> str:
        writes = [w for w in ledger.writes if w.kind == kind and w.attempts]
        acked = [w for w in writes if w.acked is not None]
        return (
            f"{kind}: {len(writes)} writes in {sum(w.attempts for w in writes)} requests, "
            f"{sum(w.cut for w in writes)} requests cut, {sum(w.attempts > 1 for w in writes)} writes sent again; "
            f"{len(acked)} acknowledged ({sum(len(w.keys) for w in acked)} items), of which "
            f"{sum(not w.created[0] for w in acked)} were found committed by an earlier cut attempt; "
            f"{sum(w.acked is None and items(w)[0] in held[kind] for w in writes)} committed, never acknowledged; "
            f"{len(held[kind])} items held"
        )

    print(f"{figures('claims')}\n{figures('episode')}")

    # Every write, acknowledged or not, sent again or not, is all there or not there at all; an
    # acknowledged one is there with the ids its answer gave; no answer was an error.
    for write in ledger.writes:
        there = [held[write.kind].get(i) for i in items(write)]
        assert all(there) or not any(there), f"a {write.kind} write is held in part: {len(list(filter(None, there)))}"
        if write.acked is not None:
            assert [t and t["id"] for t in there] == list(write.acked.values()), f"an acknowledged {write.kind} write"
        assert not write.refusals, f"a {write.kind} write was refused: {write.refusals}"
        assert len(set(write.created)) <= 1, f"one {write.kind} answer had created true and false"

    # Claims: one per content key, nothing nobody wrote, none in part.
    duplicated = [k for k, n in Counter(c["contentKey"] for c in claims).items() if n > 1]
    assert not duplicated, f"{len(duplicated)} content keys are held more than once"
    assert set(held["claims"]) <= {s for w in ledger.writes if w.kind == "claims" for s in w.keys}
    broken = [c for c in claims if c["subjects"] != 1 or c["objects"] != (c["objectKind"] == "entity")]
    assert not broken, f"claims written in part: {broken[:3]}"

    # Turns: once each, whole, and every session one NEXT chain numbered 0..n-1.
    assert all(t["session"] is not None for t in turns), "turns outside any session"
    assert len(held["episode"]) == len(turns), "a turn held twice"
    assert all(t["passages"] >= 1 and t["embedded"] for t in turns), "turns written in part"
    sessions: defaultdict[str, list[dict]] = defaultdict(list)
    for t in turns:
        sessions[t["session"]].append(t)
    for session, chain in sessions.items():
        seqs = sorted(t["seq"] for t in chain)
        assert seqs == list(range(len(chain))), f"{session}: turn numbers {seqs[:20]}..."
        for t in chain:
            after = [] if t["seq"] == len(chain) - 1 else [t["seq"] + 1]
            assert t["next"] == after, f"{session}: turn {t['seq']} is followed by {t['next']}"
    return sum(not c["embedded"] for c in claims)
