"""A start you can follow and stop: `donto up` in a home of its own, on ports of its own, with a real
Neo4j. While Neo4j starts, progress lines say so and the API's port answers /health `starting`; a
second `up` in the same home says this copy already runs there, and where; one Ctrl-C (SIGINT to
its process group, as a terminal sends it) stops it at once, says what it stopped, and leaves
nothing of that home running. One Neo4j start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from donto.settings import LocalNeo4jSettings
from support import REPO, free_ports

RUNTIME = LocalNeo4jSettings().runtime
RUNTIME = RUNTIME if RUNTIME.is_absolute() else REPO / RUNTIME


def processes_of(home: Path) -> list[str]:
    """Every live process whose command line names this home (its JVM) or that runs `donto up` there."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (proc / "stat").read_text().rpartition(")")[2].split()[0]
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue
        if state not in ("Z", "X") and (str(home) in command or f"DONTO_HOME={home}".encode() in environ):
            found.append(f"{proc.name}: {command[:120]}")
    return found


def test_ctrl_c_while_neo4j_starts_stops_it_says_so_and_leaves_nothing_running(tmp_path):
    home = tmp_path / ".donto"
    bolt, http, api = free_ports(3)
    kept = {k: v for k, v in os.environ.items() if k.startswith("DONTO_EMBEDDING_")}  # where this machine's model is
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DONTO_", "NEO4J_"))} | kept
    env |= {
        "DONTO_HOME": str(home),
        "DONTO_NEO4J_RUNTIME": str(RUNTIME),
        "DONTO_NEO4J_BOLT_PORT": str(bolt),
        "DONTO_NEO4J_HTTP_PORT": str(http),
        "DONTO_PORT": str(api),
        "DONTO_NEO4J_START_TIMEOUT_S": "600",
        "PYTHONUNBUFFERED": "1",
    }
    up = subprocess.Popen(
        [sys.executable, "-m", "donto", "up"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(up.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not any("Neo4j's JVM is pid" in line for line in lines):
            assert up.poll() is None and time.monotonic() < deadline, "".join(lines)
            time.sleep(0.1)
        # Neo4j starting: the API's port already answers, saying so.
        health = httpx.get(f"http://127.0.0.1:{api}/health", timeout=5)
        assert health.status_code == 503 and health.headers["retry-after"] == "2"
        assert health.json() == {"status": "unavailable", "state": "starting", "neo4j": "unreachable"}
        keyed = httpx.get(f"http://127.0.0.1:{api}/v1/claims", timeout=5)
        assert keyed.status_code == 503 and keyed.json()["error"]["code"] == "backend_unavailable"
        # A second `up` in this home: this copy, not "another process".
        second = subprocess.run(
            [sys.executable, "-m", "donto", "up"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"donto is already running in this home ({home}): `donto up`, pid {up.pid}" in second.stderr
        assert f"API at http://127.0.0.1:{api}" in second.stderr and "nothing was started" in second.stderr
        assert "another process" not in second.stderr
        os.killpg(up.pid, signal.SIGINT)
        began = time.monotonic()
        up.wait(timeout=60)
        took = time.monotonic() - began
    finally:
        if up.poll() is None:
            os.killpg(up.pid, signal.SIGTERM)  # `up` still stops its Neo4j on SIGTERM
            up.wait(timeout=60)
    reader.join(timeout=10)
    output = "".join(lines)
    assert up.returncode == 130, output
    assert "donto: starting Neo4j" in output, output
    assert took < 30, output
    assert "donto up interrupted: Neo4j (pid " in output and "which it had started, stopped" in output, output
    assert processes_of(home) == [], output
    assert not (home / "api.pid").exists() and not (home / "neo4j" / "run" / "donto-neo4j.pid").exists()
