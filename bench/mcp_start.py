"""`python -m bench mcp-start`: how long an MCP host waits for `donto mcp`'s tool list, from the
process's start, and then for its first recall (sent --pause seconds after the list: a host's
first tool call follows a model's turn), and how long that recall took from being sent.

Each run starts `donto mcp` afresh (stdio, a key of its own workspace, no workers), sends
initialize, then tools/list, then one recall, each answered before the next is sent. The floor is a
process that imports what `donto mcp` imports and exits. Prints the medians and the ratio of the
tool list's to the floor."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import IO, Any

from bench.common import bench_settings
from donto.memory import Memory
from donto.settings import Settings

HELLO = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}
IMPORTS = "import donto.cli, donto.memory, donto.mcp.stdio, donto.mcp.tools"


def send(stdin: IO[str], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message) + "\n")
    stdin.flush()


def answer(stdout: IO[str]) -> dict[str, Any]:
    line = stdout.readline()
    if not line:
        raise RuntimeError("donto mcp ended before answering")
    return dict(json.loads(line))


def one_start(env: dict[str, str], pause_s: float = 0.0) -> tuple[float, float, float]:
    """Seconds from the start to the tool list, and to the first recall's answer, sent `pause_s`
    after the list (a host's first call follows a model's turn); and that recall's own seconds."""
    started = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, "-m", "donto.cli", "mcp"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        send(process.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO})
        answer(process.stdout)
        send(process.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        send(process.stdin, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        tools = answer(process.stdout)["result"]["tools"]
        listed = time.perf_counter() - started
        time.sleep(pause_s)
        recall = {"name": "recall", "arguments": {"query": "where does Ada work?"}}
        sent = time.perf_counter()
        send(process.stdin, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": recall})
        if answer(process.stdout)["result"].get("isError"):
            raise RuntimeError("the recall failed")
        recalled = time.perf_counter() - started
        own = time.perf_counter() - sent
        process.stdin.close()
        process.wait(timeout=60)
    if len(tools) < 40:
        raise RuntimeError(f"donto mcp listed {len(tools)} tools")
    return listed, recalled, own


def run(settings: Settings, args: argparse.Namespace) -> int:
    with bench_settings(settings, args.throwaway) as s:
        with Memory(s).open() as memory:  # the schema applied and the model recorded, as after `donto up`
            key = memory.keys.create("bench-mcp").key
        env = {k: v for k, v in os.environ.items() if not k.startswith("DONTO_MCP_")}
        env |= {"DONTO_MCP_KEY": key, "DONTO_RUN_WORKERS": "false"}
        if s.neo4j.uri is not None:  # a throwaway server; else the configured one, found as donto finds it
            env |= {
                "NEO4J_URI": s.neo4j.uri,
                "NEO4J_USER": s.neo4j.user,
                "NEO4J_PASSWORD": s.neo4j.password.get_secret_value(),
            }
        floors, listed, recalled, own = [], [], [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", IMPORTS], env=env, check=True)
            floors.append(time.perf_counter() - started)
            tools, first, its_own = one_start(env, args.pause)
            listed.append(tools)
            recalled.append(first)
            own.append(its_own)
    floor, tools, first, its_own = (statistics.median(x) for x in (floors, listed, recalled, own))
    print(f"donto mcp, {args.runs} starts, medians:")
    print(f"  imports alone (floor)      {floor:6.2f} s")
    print(f"  tools listed               {tools:6.2f} s   ({tools / floor:.2f}x the floor)")
    print(f"  first recall answered      {first:6.2f} s   (sent {args.pause:.1f} s after the list)")
    print(f"  that recall's own time     {its_own:6.2f} s   (from sent to answered)")
    return 0
