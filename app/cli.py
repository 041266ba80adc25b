"""The `donto` command line: run the service, manage the local Neo4j, apply the schema, make keys."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

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

    keys = sub.add_parser("keys", help="API keys bound to a workspace")
    keys.add_argument("action", choices=["create"])
    keys.add_argument("--workspace", required=True)

    from bench.cli import add_bench_commands

    add_bench_commands(sub)

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
        print(f"admin API key (from {ADMIN_KEY_FILE}): {settings.api.api_key.get_secret_value()}")
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
    from app.graph.client import GraphClient

    from app.embedding.encoder import Encoder

    encoder = Encoder(settings.embedding)
    with GraphClient(settings) as graph:
        graph.verify()
        version = graph.apply_schema(encoder.name, encoder.dimensions)
        print(f"schema version {version} applied ({encoder.name}, {encoder.dimensions} dimensions)")
    return 0


def cmd_reembed(settings: Settings, args: argparse.Namespace) -> int:
    from app.embedding.encoder import Encoder
    from app.embedding.reembed import reembed
    from app.graph.client import GraphClient

    encoder = Encoder(settings.embedding)
    with GraphClient(settings) as graph:
        graph.verify()
        done = reembed(graph, encoder)
    print(f"re-embedded with {encoder.name} ({encoder.dimensions} dimensions): "
          + ", ".join(f"{n} {kind}" for kind, n in done.items()))
    return 0


def cmd_keys(settings: Settings, args: argparse.Namespace) -> int:
    from app.auth.keys import KeyService
    from app.graph.client import GraphClient

    with GraphClient(settings) as graph:
        graph.verify()
        print(KeyService(graph, admin_key=None).create(args.workspace))
    return 0


def _print_status(status) -> None:
    for key, value in vars(status).items():
        print(f"{key:>11}: {value}")


def _local_admin_key() -> str:
    """The admin key of a local `donto up` without DONTO_API_KEY: made once, kept in .donto/api-key."""
    if ADMIN_KEY_FILE.exists():
        return ADMIN_KEY_FILE.read_text().strip()
    ADMIN_KEY_FILE.parent.mkdir(parents=True, exist_ok=True)
    key = "donto_admin_" + secrets.token_urlsafe(24)
    fd = os.open(ADMIN_KEY_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


COMMANDS = {
    "up": cmd_up,
    "serve": cmd_serve,
    "neo4j": cmd_neo4j,
    "schema": cmd_schema,
    "keys": cmd_keys,
    "reembed": cmd_reembed,
}


def _bench(settings: Settings, args: argparse.Namespace) -> int:
    return args.run_bench(settings, args)


COMMANDS["bench"] = _bench

if __name__ == "__main__":
    sys.exit(main())
