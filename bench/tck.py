"""`python -m bench tck --kit ../shared/tck`: the Neo4j Labs agent-memory TCK against donto.

The kit (github.com/neo4j-labs/agent-memory-tck, Apache-2.0) is read-only input: it is copied to a
temporary folder, installed there into a virtualenv of its own (`[bridge]`), and its pytest suite is
run per tier against donto's own adapter (tests/tck_bridge.py: the kit's BaseAdapter methods mapped
onto donto.AsyncClient, nothing else, served over the kit's HTTP bridge). The bench prints passed,
failed and skipped per tier and each failing scenario (its SCN id from the kit's registry) by file
and test class.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import REPO, free_port

# donto's adapter for the kit lives with the tests (tests/tck_bridge.py); the bench runs from a checkout.
sys.path.insert(0, str(REPO / "tests"))
from tck_bridge import DontoBridge, served_bridge  # noqa: E402

from donto.settings import Settings

# Tiers as the kit marks and files them (Silver is two files: long-term and reasoning memory).
TIERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bronze": ("bronze", ("tck/tests/v1/test_schema.py", "tck/tests/v1/test_short_term.py")),
    "silver-long-term": ("silver", ("tck/tests/v1/test_long_term.py",)),
    "silver-reasoning": ("silver", ("tck/tests/v1/test_reasoning.py",)),
    "gold": ("gold", ("tck/tests/v1",)),
    "platinum": ("platinum", ("tck/tests/v1",)),
}
TIER_GROUPS = {"silver": ("silver-long-term", "silver-reasoning")}

# -- the kit: a copy, its virtualenv, its pytest per tier ------------------------------------------


def kit_digest(kit: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in kit.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(kit)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def prepare_kit(kit: Path, cache: Path) -> tuple[Path, Path]:
    """A copy of the kit and the python of a virtualenv holding it with `[bridge]`, made once per kit
    content under `cache` (a temporary folder) and kept for the next run."""
    root = cache / f"kit-{kit_digest(kit)}"
    copy, venv = root / "tck", root / "venv"
    python = venv / "bin" / "python"
    if not (root / "installed").exists():
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(kit, copy, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", f"{copy}[bridge]"], check=True)
        (root / "installed").write_text(f"{kit}\n")
    return copy, python


def scenario_ids(copy: Path) -> dict[str, str]:
    """The kit's registry (tck/registry/scenario_ids.yaml): test id ("test_schema::Class::test") to SCN id."""
    ids, current = {}, None
    for line in (copy / "tck" / "registry" / "scenario_ids.yaml").read_text().splitlines():
        if m := re.match(r"^(SCN-[A-Z]+-\d+):\s*$", line):
            current = m.group(1)
        elif (m := re.match(r"^\s+test_id:\s*(\S+)", line)) and current:
            ids[m.group(1)] = current
    return ids


@dataclass(frozen=True)
class Outcome:
    nodeid: str  # tck/tests/v1/test_schema.py::Class::test
    outcome: str  # passed, failed, skipped, error
    reason: str  # the last line of the failure's message; "" when it passed


def outcomes_of(report: dict[str, Any]) -> list[Outcome]:
    """The tests of a pytest-json-report report."""
    found = []
    for test in report.get("tests", []):
        reason = ""
        for stage in ("setup", "call", "teardown"):
            crash = (test.get(stage) or {}).get("crash") or {}
            if message := crash.get("message") or (test.get(stage) or {}).get("longrepr"):
                reason = str(message).strip().splitlines()[-1] if str(message).strip() else ""
                break
        outcome = test["outcome"]
        found.append(Outcome(test["nodeid"], "failed" if outcome == "error" else outcome, reason))
    return found


def run_tier(python: Path, copy: Path, tier: str, url: str, out: Path) -> list[Outcome]:
    marker, files = TIERS[tier]
    report = out / f"{tier}.json"
    ran = subprocess.run(
        [str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", marker, *files]
        + ["--bridge-url", url, "--json-report", f"--json-report-file={report}"],
        cwd=copy,
        capture_output=True,
        text=True,
        check=False,  # failing tests are the measurement
    )
    if not report.exists():  # pytest itself failed: no tests ran
        raise RuntimeError(
            f"the kit's pytest wrote no report (exit {ran.returncode}):\n{ran.stdout[-2000:]}{ran.stderr[-2000:]}"
        )
    return outcomes_of(json.loads(report.read_text()))


def registry_test_id(nodeid: str) -> str:
    """tck/tests/v1/test_schema.py::Class::test as the registry names it: test_schema::Class::test."""
    path, _, rest = nodeid.partition("::")
    return f"{Path(path).stem}::{rest}"


def short_reason(reason: str) -> str:
    """A failure's reason, without the kit's wrapper: 'not implemented: …' as the bridge said it."""
    reason = re.sub(r"^RuntimeError: Bridge call (\w+) failed: ", r"\1: ", reason)
    return reason[:160]


def print_tier(tier: str, outcomes: list[Outcome], registry: dict[str, str]) -> None:
    counts = Counter(o.outcome for o in outcomes)
    print(
        f"{tier:<18} passed {counts['passed']:>3}   failed {counts['failed']:>3}   "
        f"skipped {counts['skipped']:>3}   of {len(outcomes):>3}"
    )
    failing: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if o.outcome == "failed":
            failing[registry_test_id(o.nodeid).rsplit("::", 1)[0]].append(o)
    for group, tests in failing.items():
        print(f"  {group}: {len(tests)} failing")
        for o in tests:
            name = registry_test_id(o.nodeid)
            print(f"    {registry.get(name, '?'):<10} {name.rsplit('::', 1)[1]:<58} {short_reason(o.reason)}")


def tiers_of(text: str) -> list[str]:
    tiers: list[str] = []
    for name in (t.strip() for t in text.split(",") if t.strip()):
        for tier in TIER_GROUPS.get(name, (name,)):
            if tier not in TIERS:
                raise SystemExit(f"unknown tier {name!r}: {', '.join([*TIERS, *TIER_GROUPS])}")
            tiers.append(tier)
    return tiers


@contextmanager
def donto_api(settings: Settings, args: argparse.Namespace) -> Iterator[tuple[str, str, Settings | None]]:
    """(base URL, key, the settings of an API served here or None): --url's server, else donto's API
    under uvicorn in this process against a throwaway (or, --no-throwaway, the configured) Neo4j."""
    if args.url:
        key = args.api_key or ""
        yield args.url, key, None
        return
    from bench.common import BENCH_KEY, bench_settings, served_api

    with bench_settings(settings, args.throwaway) as s, served_api(s) as http:
        yield str(http.base_url).rstrip("/"), BENCH_KEY, s


def purge(settings: Settings, workspaces: list[str]) -> None:
    """Erase the run's workspaces from a Neo4j that outlives it (--no-throwaway)."""
    from donto.memory import Memory

    with Memory(settings).open() as memory:
        for workspace in workspaces:
            memory.purges.purge(workspace, None, by="bench:tck")


def run(settings: Settings, args: argparse.Namespace) -> int:
    kit = Path(args.kit).resolve()
    if not (kit / "tck" / "bridge" / "protocol.md").exists():
        raise SystemExit(f"{kit} is not the agent-memory TCK (no tck/bridge/protocol.md)")
    tiers = tiers_of(args.tiers)
    cache = Path(args.cache) if args.cache else Path(tempfile.gettempdir()) / "donto-tck"
    started = time.perf_counter()
    copy, python = prepare_kit(kit, cache)
    registry = scenario_ids(copy)
    print(f"kit {kit} ({kit_digest(kit)}), its copy and virtualenv in {copy.parent}")
    run_id = uuid.uuid4().hex[:8]
    with donto_api(settings, args) as (base_url, key, served):
        bridge = DontoBridge(base_url, key, f"tck-{run_id}")
        port = args.port or free_port()
        with served_bridge(bridge, port) as url, tempfile.TemporaryDirectory() as out:
            print(f"donto {base_url}, bridge {url}, workspaces tck-{run_id}-N")
            if args.serve_only:
                print("serving until interrupted")
                with suppress(KeyboardInterrupt):
                    threading.Event().wait()
                return 0
            results = {tier: run_tier(python, copy, tier, url, Path(out)) for tier in tiers}
        if served is not None and not args.throwaway:
            purge(served, bridge.workspaces)
    print(f"\n{len(bridge.workspaces)} workspaces, {time.perf_counter() - started:.0f} s")
    for tier in tiers:
        print_tier(tier, results[tier], registry)
    return 0
