"""Stopping the suite stops everything it started: one Ctrl-C (SIGINT to its process group, as a terminal
sends it) or one SIGTERM ends a pytest run at once, and its throwaway Neo4j, a JVM in a session of its
own that no terminal signal reaches, is gone with it. A real pytest run in a subprocess, a real Neo4j."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import REPO

# The suite's own way: a session fixture holding a throwaway server (tests/conftest.py).
PROBE = """
import os, time
from pathlib import Path
import pytest
from donto.neo4j_local import throwaway_server

@pytest.fixture(scope="session")
def neo4j():
    with throwaway_server(Path(os.environ["PROBE_RUNTIME"]), parent=Path(os.environ["PROBE_PARENT"])) as connection:
        yield connection

def test_runs_until_stopped(neo4j):
    Path(os.environ["PROBE_READY"]).write_text(neo4j[0])
    time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] not in ("Z", "X")


def wait_for(condition, timeout: float, what: str, run: subprocess.Popen):
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert run.poll() is None, f"the run ended first: {run.communicate()[0].decode()}"
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return found


@pytest.mark.parametrize(
    ("sent", "when"),
    [(signal.SIGINT, "once it answers"), (signal.SIGTERM, "while it starts")],
)
def test_one_signal_stops_a_pytest_run_and_the_neo4j_it_started(tmp_path, sent, when):
    from donto.settings import LocalNeo4jSettings

    runtime = LocalNeo4jSettings().runtime
    (tmp_path / "test_probe.py").write_text(PROBE)
    (parent := tmp_path / "homes").mkdir()
    ready = tmp_path / "ready"
    env = os.environ | {"PROBE_RUNTIME": str(runtime if runtime.is_absolute() else REPO / runtime)}
    env |= {"PROBE_PARENT": str(parent), "PROBE_READY": str(ready), "DONTO_NEO4J_START_TIMEOUT_S": "600"}
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_probe.py")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # whose Ctrl-C is not ignored: a suite started in the background (`nohup make test &`) passes
        # SIGINT on ignored, and Python then installs no handler for it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        pid_file = wait_for(
            lambda: next(parent.glob("*/run/donto-neo4j.pid"), None), 120, "Neo4j was not launched", run
        )
        pid = int(wait_for(pid_file.read_text, 10, "no pid written", run).strip())
        if when == "once it answers":
            wait_for(ready.exists, 600, "Neo4j did not answer", run)
        else:
            time.sleep(1)  # launched, not yet answering
        os.killpg(run.pid, sent)
        began = time.monotonic()
        try:
            output = run.communicate(timeout=60)[0].decode()
        except subprocess.TimeoutExpired:  # say what was left, for the assertions below
            ended = "still running" if run.poll() is None else f"ended ({run.returncode})"
            output = f"nothing ended the output within 60 s: pytest {ended}, Neo4j {'alive' if alive(pid) else 'gone'}"
        took = time.monotonic() - began
    finally:
        if run.poll() is None:  # this test was stopped or failed: the run still stops its Neo4j (SIGKILL would not)
            os.killpg(run.pid, signal.SIGTERM)
            try:
                run.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()
    assert run.returncode in (2, -sent), output  # pytest's "interrupted" (2), or the signal itself
    assert not alive(pid), f"Neo4j ({pid}) outlived the run it was started for"
    assert list(parent.iterdir()) == [], "its temporary home was left behind"
    print(f"{signal.Signals(sent).name} {when}: pytest and Neo4j gone in {took:.1f} s")
    assert took < 30, output
