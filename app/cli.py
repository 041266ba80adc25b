"""The `donto` command line, a thin shell over the Memory (app/memory.py): run the service or a
worker, manage the local Neo4j, apply the schema, rebuild vectors, make keys."""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from pydantic import SecretStr

from app.settings import Settings, load_settings

ADMIN_KEY_FILE = Path(".donto/api-key")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="donto", description="Graph-database-native memory for AI agents.")
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser("up", help="start the local Neo4j (unless NEO4J_URI is set), apply the schema, serve the API")
    serve = sub.add_parser("serve", help="serve the API against the configured Neo4j")
    for p in (up, serve):
        p.add_argument("--host", default=None)
        p.add_argument("--port", type=int, default=None)

    neo4j = sub.add_parser("neo4j", help="manage the local Neo4j Community server")
    neo4j.add_argument("action", choices=["install", "start", "stop", "status"])

    schema = sub.add_parser("schema", help="apply cypher/schema.cypher to the configured Neo4j")
    schema.add_argument("action", choices=["apply"])

    sub.add_parser("reembed", help="rebuild every vector for the configured embedding model")
    sub.add_parser("worker", help="drain the background job queues (claim embeddings) until stopped")

    keys = sub.add_parser("keys", help="API keys bound to a workspace")
    keys.add_argument("action", choices=["create"])
    keys.add_argument("--workspace", required=True)

    memorize = sub.add_parser("memorize", help="keep text files as documents and queue their extraction")
    memorize.add_argument("files", nargs="+", type=Path)
    memorize.add_argument("--workspace", default="default")
    memorize.add_argument("--mode", choices=["single", "exhaustive", "deep"], default="single")
    memorize.add_argument("--passes", type=int, default=3)
    memorize.add_argument("--lens", action="append", default=[], dest="lenses")
    memorize.add_argument(
        "--wait",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="follow each job until it ends (the default); a worker must be running",
    )

    jobs = sub.add_parser("jobs", help="list a workspace's jobs, newest first")
    jobs.add_argument("--workspace", default="default")
    jobs.add_argument("--state", choices=["queued", "running", "succeeded", "failed", "cancelled"])
    jobs.add_argument("--limit", type=int, default=20)

    args = parser.parse_args(argv)
    settings = load_settings()
    try:
        return COMMANDS[args.command](settings, args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the CLI prints what went wrong, not a traceback
        from app.errors import DontoError
        from app.neo4j_local import LocalNeo4jError

        if isinstance(exc, (DontoError, LocalNeo4jError)):
            print(f"donto: {exc}", file=sys.stderr)
            return 1
        raise


def cmd_up(settings: Settings, args: argparse.Namespace) -> int:
    if settings.uses_local_neo4j:
        from app.neo4j_local import LocalNeo4j

        local = LocalNeo4j(settings.local_neo4j)
        local.install()
        _print_status(local.start())
    if settings.api.api_key is None:
        settings.api.api_key = SecretStr(_local_admin_key())
        # Never printed: whatever captures this output (a terminal log, CI, journald) would keep it.
        print(f"admin API key: in {ADMIN_KEY_FILE} (readable by you only); KEY=$(cat {ADMIN_KEY_FILE})")
    return cmd_serve(settings, args)


def cmd_serve(settings: Settings, args: argparse.Namespace) -> int:
    import uvicorn

    from app.api.main import create_app

    host = args.host or settings.api.host
    port = args.port or settings.api.port
    print(f"donto API on http://{host}:{port}  (OpenAPI at /docs)", flush=True)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
    return 0


def cmd_neo4j(settings: Settings, args: argparse.Namespace) -> int:
    from app.neo4j_local import LocalNeo4j

    if not settings.uses_local_neo4j and args.action != "install":
        print(f"NEO4J_URI is set ({settings.neo4j.uri}): donto uses that server and starts none.")
        return 0
    local = LocalNeo4j(settings.local_neo4j)
    if args.action == "install":
        local.install()
        print(f"Neo4j {settings.local_neo4j.version} jars in {settings.local_neo4j.runtime}/lib")
    elif args.action == "start":
        _print_status(local.start())
    elif args.action == "stop":
        local.stop()
        print("Neo4j stopped")
    else:
        status = local.status()
        _print_status(status)
        return 0 if status.running else 3
    return 0


def cmd_schema(settings: Settings, args: argparse.Namespace) -> int:
    from app.memory import Memory

    with Memory(settings).open(apply_schema=False) as memory:
        version = memory.apply_schema()
        print(f"schema version {version} applied ({memory.encoder.name}, {memory.encoder.dimensions} dimensions)")
    return 0


def cmd_reembed(settings: Settings, args: argparse.Namespace) -> int:
    from app.memory import Memory

    # The schema is not applied first: it would refuse the old model's indexes that reembed replaces.
    with Memory(settings).open(apply_schema=False) as memory:
        done = memory.reembed()
        print(
            f"re-embedded with {memory.encoder.name} ({memory.encoder.dimensions} dimensions): "
            + ", ".join(f"{n} {kind}" for kind, n in done.items())
        )
    return 0


def cmd_worker(settings: Settings, args: argparse.Namespace) -> int:
    from app.memory import Memory

    with Memory(settings).open() as memory:
        memory.start_workers()
        print(f"donto worker: draining {', '.join(k.name for k in memory.workers.kinds)} (Ctrl-C stops)", flush=True)

        def stop(signum: int, frame: FrameType | None) -> None:
            memory.workers.request_stop()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        memory.workers.wait()
    return 0


def cmd_memorize(settings: Settings, args: argparse.Namespace) -> int:
    import time

    from app.auth.keys import check_workspace
    from app.memorize.service import MemorizeRequest
    from app.memory import Memory

    check_workspace(args.workspace)
    with Memory(settings).open(apply_schema=False) as memory:
        queued = []
        for path in args.files:
            text = path.read_text(encoding="utf-8")
            outcome = memory.memorize.memorize(
                args.workspace,
                MemorizeRequest(
                    text=text,
                    title=path.name,
                    mode=args.mode,
                    passes=args.passes,
                    lenses=tuple(args.lenses),
                ),
                runner="cli",
            )
            if outcome.job_id is None:
                print(f"{path}: kept as document {outcome.source_id}; no extraction (DONTO_LLM_BASE_URL is unset)")
                continue
            print(
                f"{path}: document {outcome.source_id}, job {outcome.job_id} queued "
                f"(position {outcome.queue_position}, about {outcome.eta_s:.0f} s)"
            )
            queued.append((path, outcome.job_id))
        for path, job_id in queued if args.wait else []:
            shown = -1
            while True:
                job = memory.jobs.get(args.workspace, job_id)
                found = sum(p.get("new", 0) for p in job.passes)
                if len(job.passes) != shown:
                    bar = "#" * len(job.passes)
                    print(
                        f"\r{path.name}: [{bar:<10}] {job.state}, {len(job.passes)} passes, {found} facts",
                        end="",
                        flush=True,
                    )
                    shown = len(job.passes)
                if job.state in ("succeeded", "failed", "cancelled"):
                    print(f"\r{path.name}: {job.state}: {job.summary or job.error}" + " " * 20)
                    break
                time.sleep(1)
    return 0


def cmd_jobs(settings: Settings, args: argparse.Namespace) -> int:
    from app.memory import Memory

    with Memory(settings).open(apply_schema=False) as memory:
        for job in memory.jobs.page(args.workspace, args.state, None, args.limit):
            facts = job.summary.get("facts", "")
            print(
                f"{job.id}  {job.state:<9}  {job.mode:<10}  {job.created_at:%Y-%m-%d %H:%M:%S}  "
                f"attempts {job.attempts}/{job.max_attempts}  {facts} facts  {job.error or ''}"
            )
    return 0


def cmd_keys(settings: Settings, args: argparse.Namespace) -> int:
    from app.memory import Memory

    with Memory(settings).open(apply_schema=False) as memory:
        print(memory.keys.create(args.workspace))
    return 0


def _print_status(status: object) -> None:
    for key, value in vars(status).items():
        print(f"{key:>11}: {value}")


def _local_admin_key() -> str:
    """The admin key of a local `donto up` without DONTO_API_KEY: made once, kept in .donto/api-key."""
    if ADMIN_KEY_FILE.exists():
        return ADMIN_KEY_FILE.read_text().strip()
    ADMIN_KEY_FILE.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = "donto_admin_" + secrets.token_urlsafe(24)
    fd = os.open(ADMIN_KEY_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


COMMANDS: dict[str, Callable[[Settings, argparse.Namespace], int]] = {
    "up": cmd_up,
    "serve": cmd_serve,
    "worker": cmd_worker,
    "neo4j": cmd_neo4j,
    "schema": cmd_schema,
    "keys": cmd_keys,
    "reembed": cmd_reembed,
    "memorize": cmd_memorize,
    "jobs": cmd_jobs,
}

if __name__ == "__main__":
    sys.exit(main())
