"""The only module that touches the Neo4j driver.

Writes go through `execute_write`, reads of several statements through `execute_read`: managed
transactions, so the driver retries transient errors (deadlocks, leader switches) and, with a
routing URI (`neo4j://`, `neo4j+s://`), sends reads to secondaries and writes to the leader. A read
of one named statement (read_query, read_list, read_lists) runs as an auto-commit transaction in a
read session, retried here by the driver's own rule: a managed read spends a second round trip on
its COMMIT, which a read does not need (see _read_statement). Every transaction is tagged with
`app: donto_v<version>` and the query name, so a DBA finds donto's work in `SHOW TRANSACTIONS`
and the query log. Query parameters are never logged: they carry user text and vectors.
"""

from __future__ import annotations

import logging
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NoReturn, TypeVar

from neo4j import READ_ACCESS as READ
from neo4j import WRITE_ACCESS as WRITE
from neo4j import Driver, GraphDatabase, ManagedTransaction, Query, Result, Session, unit_of_work
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

from donto.errors import (
    BackendBusy,
    BackendUnavailable,
    IndexUnavailable,
    Neo4jLoginRefused,
    QueryTimedOut,
    SchemaMismatch,
    UnsupportedNeo4j,
)
from donto.graph.queries import QueryLibrary, schema_indexes, schema_statements, schema_text, schema_version
from donto.settings import APP_NAME, APP_VERSION, Settings
from donto.temporal.instants import to_native

log = logging.getLogger(__name__)
T = TypeVar("T")

SCHEMA_TIMEOUT_S = 600.0  # a schema statement on a large graph (a migration batch) outlasts the query timeout
# How long applying the schema waits for its indexes to come online. A new store's are online in
# well under a second; a large graph's rebuilt vector index takes minutes (about 40 s per 60k vectors
# on 2 cores), and the API starts without it: recall skips the arms whose index is still building and
# says so, other reads of it answer 503, and /health lists what is still building.
INDEX_WAIT_S = 20.0
INDEX_POPULATING = "51N63"  # GQL status: "Index `…` is not ready yet. Wait until it finishes populating"
INDEX_MISSING = "22N69"  # GQL status: "The index '…' does not exist"
# A full-text index read by its procedure (db.index.fulltext.queryNodes) that does not exist fails
# the procedure instead, naming the index only in its message.
PROCEDURE_FAILED = "Neo.ClientError.Procedure.ProcedureCallFailed"
NO_FULLTEXT_INDEX = re.compile(r"no such fulltext schema index: ([\w-]+)")
TIMED_OUT = "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration"  # past the transaction's timeout
# The same timeout met while waiting for a lock (a workspace's writers queue on its clock): Neo4j
# stops the transaction's lock client instead (found as a 500 under 48 concurrent batch writes).
LOCK_WAIT_STOPPED = "Neo.ClientError.Transaction.LockClientStopped"
# Transient errors that are one request's bad luck, not an outage, when they outlast the driver's
# retries; what the client is told of each. Any other (a database starting or stopping) is an outage.
BUSY = {
    "Neo.TransientError.Transaction.DeadlockDetected": "deadlocks among concurrent writers",
    "Neo.TransientError.General.MemoryPoolOutOfMemoryError": "its memory pool is full",
    "Neo.TransientError.Transaction.MaximumTransactionLimitReached": "too many transactions at once",
}
# The driver's retry of a managed transaction, which _read_statement repeats for auto-commit reads:
# the first retry after about a second, each later one after twice the last, ±20%.
RETRY_DELAY_S, RETRY_MULTIPLIER, RETRY_JITTER = 1.0, 2.0, 0.2
MIGRATION_BATCH = 10_000  # edges a schema migration moves per transaction
# donto's vector indexes and the filter properties each carries (schema version 7), which a SEARCH
# clause's WHERE may name: every search is of one workspace, the perspective vectors' of one model too.
VECTOR_INDEXES: dict[str, tuple[str, ...]] = {
    "turn_embedding": ("workspace",),
    "turn_context_embedding": ("workspace",),
    "passage_embedding": ("workspace",),
    "passage_context_embedding": ("workspace",),
    "claim_embedding": ("workspace",),
    "perspective_embedding": ("workspace", "model"),
    "subject_embedding": ("workspace",),
}
# donto's full-text indexes, the labels and the properties each covers. The last property is the nodes'
# workspace (schema version 8), which every full-text query requires, so that Lucene ranks one
# workspace's documents; recall_search takes claims by :Searchable (version 9), which the embedder gives.
FULLTEXT_INDEXES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "recall_search": (("Turn", "Passage", "Searchable"), ("text", "speaker", "workspace")),
    "session_text": (("Session",), ("text", "workspace")),
    "document_text": (("Document",), ("text", "title", "workspace")),
    "memory_text": (("Observation", "Understanding"), ("text", "summary", "workspace")),
}
SUPPORTED_NEO4J = 2026  # the one supported line: 2026.x (Cypher 25, vector indexes with filter properties)


def unsupported_neo4j(version: str) -> str | None:
    """Why donto cannot use a Neo4j of this version (`CALL dbms.components()`'s), or None when it can."""
    try:
        year = int(version.split(".")[0])
    except ValueError:
        return f"Neo4j {version!r} is not a version donto knows; it needs Neo4j {SUPPORTED_NEO4J}.x or newer"
    if year >= SUPPORTED_NEO4J:
        return None
    return (
        f"Neo4j {version} is too old: donto needs Neo4j {SUPPORTED_NEO4J}.x or newer (Cypher 25's SEARCH "
        f'filters its vector searches by workspace). Upgrade the server (see docs/how-to/upgrade.md, "Upgrading from '
        f'Neo4j 5.26") or point NEO4J_URI at a {SUPPORTED_NEO4J}.x one'
    )


def same_model(recorded: str | None, configured: str) -> bool:
    """One model named two ways (a path to its folder, its hub or catalogue name) counts as one: the
    last path segment decides. A store that recorded none (before version 5) is taken at its word."""
    if recorded is None:
        return True
    return recorded.rstrip("/").rsplit("/", 1)[-1] == configured.rstrip("/").rsplit("/", 1)[-1]


class GraphClient:
    def __init__(self, settings: Settings):
        self._settings = settings
        self.database = settings.database
        self.timeout = settings.api.query_timeout_s
        self.queries = QueryLibrary()
        api = settings.api
        self.retry_after_s = api.backend_retry_after_s
        self.retry_s = api.backend_retry_s
        self._down_until = 0.0  # monotonic time until which Neo4j counts as down (see _session_call)
        # One bookmark manager for every session of this process: a read waits for the writes this
        # process committed before it, so an agent reads its own writes when reads are routed to a
        # cluster member that is behind (`neo4j://`, `neo4j+s://`). On a single server it costs nothing.
        self.bookmarks = GraphDatabase.bookmark_manager()
        self._driver: Driver | None = None
        self._driver_lock = threading.Lock()

    @property
    def driver(self) -> Driver:
        """Made on first use, so that making a Memory reads no password: a command that never reaches
        Neo4j (`donto models`) needs no donto home."""
        with self._driver_lock:
            if self._driver is None:
                uri, user, password, _ = self._settings.connection()
                api = self._settings.api
                self._driver = GraphDatabase.driver(
                    uri,
                    auth=(user, password),
                    notifications_min_severity="OFF",
                    connection_timeout=api.connect_timeout_s,
                    connection_acquisition_timeout=max(10.0, api.connect_timeout_s),
                    max_transaction_retry_time=api.backend_retry_s,
                )
            return self._driver

    def close(self) -> None:
        with self._driver_lock:
            if self._driver is not None:
                self._driver.close()

    def __enter__(self) -> GraphClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def verify(self) -> None:
        """Neo4j answers, and is a version donto supports (else UnsupportedNeo4j says which it needs)."""
        try:
            self.driver.verify_connectivity()
        except AuthError as exc:
            raise Neo4jLoginRefused(f"Neo4j refused the login (NEO4J_USER, NEO4J_PASSWORD): {exc}") from exc
        except (ServiceUnavailable, OSError) as exc:
            raise BackendUnavailable(f"Neo4j is not reachable: {exc}") from exc
        problem = unsupported_neo4j(self.read_query("server_version")[0]["version"])
        if problem:
            raise UnsupportedNeo4j(problem)

    # -- transactions -------------------------------------------------------------------------

    def read(self, work: Callable[..., T], *args: Any, name: str = "read", timeout_s: float | None = None) -> T:
        return self._session_call("execute_read", work, args, name, timeout_s)

    def write(self, work: Callable[..., T], *args: Any, name: str = "write", timeout_s: float | None = None) -> T:
        return self._session_call("execute_write", work, args, name, timeout_s)

    def _session_call(
        self, method: str, work: Callable[..., T], args: tuple, name: str, timeout_s: float | None = None
    ) -> T:
        tagged = unit_of_work(timeout=timeout_s or self.timeout, metadata=self._metadata(name))(work)
        return self._in_session(lambda session: getattr(session, method)(tagged, *args), name, timeout_s)

    def read_once(self, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        """A named read tried once, without the driver's retries: /health must answer within about
        connect_timeout_s whatever Neo4j is doing (with retries it took 3-7 s to say Neo4j was down)."""
        query = Query(self._text(query_name, params), metadata=self._metadata(query_name), timeout=self.timeout)
        return self._in_session(lambda session: [r.data() for r in session.run(query, params)], query_name, access=READ)

    def _in_session(
        self, call: Callable[[Session], T], name: str, timeout_s: float | None = None, access: str = WRITE
    ) -> T:
        # A request that just saw Neo4j down fails at once for a moment rather than each waiting
        # out its own connection attempts and retries (an outage otherwise held clients for a minute).
        if time.monotonic() < self._down_until:
            raise BackendUnavailable("Neo4j is not reachable; try again shortly", self.retry_after_s)
        try:
            with self.driver.session(
                database=self.database, bookmark_manager=self.bookmarks, default_access_mode=access
            ) as session:
                return call(session)
        except TransientError as exc:
            # The driver's retries ran out. Deadlocks that kept coming back among writers of one
            # workspace are this request's alone: its own 503, and the next request runs as usual.
            if exc.code in BUSY:
                log.warning("%s gave up after the driver's retries: %s", name, exc)
                raise BackendBusy(BUSY[exc.code], self.retry_after_s) from exc
            self._outage(name, exc)
        except (ServiceUnavailable, SessionExpired) as exc:
            self._outage(name, exc)
        except ClientError as exc:
            if exc.code in (TIMED_OUT, LOCK_WAIT_STOPPED):
                log.warning("query %s stopped at its timeout (%s s)", name, timeout_s or self.timeout)
                raise QueryTimedOut(timeout_s or self.timeout) from exc
            for status in (INDEX_POPULATING, INDEX_MISSING):
                if (cause := exc.find_by_gql_status(status)) is not None:
                    named = re.search(r"[Ii]ndex [`']([^`']+)[`']", cause.message or "")
                    index = named.group(1) if named else "(unnamed)"
                    raise IndexUnavailable(index, missing=status == INDEX_MISSING) from exc
            if exc.code == PROCEDURE_FAILED and (named := NO_FULLTEXT_INDEX.search(exc.message or "")):
                raise IndexUnavailable(named.group(1), missing=True) from exc
            raise

    def _outage(self, name: str, exc: Exception) -> NoReturn:
        # The driver's message names the server's address: it goes to the log, not to clients.
        log.warning("Neo4j is not reachable (%s): %s", name, exc)
        self._down_until = time.monotonic() + self.retry_after_s
        raise BackendUnavailable("Neo4j is not reachable; try again shortly", self.retry_after_s) from exc

    def _metadata(self, name: str) -> dict[str, str]:
        return {"app": f"{APP_NAME}_v{APP_VERSION}", "query": name}

    # -- named queries ------------------------------------------------------------------------

    def run(self, tx: ManagedTransaction, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run the named query inside `tx`; rows come back as dicts of the RETURN columns."""
        return [record.data() for record in tx.run(self._text(query_name, params), params)]

    def _text(self, query_name: str, params: dict[str, Any]) -> str:
        query = self.queries[query_name]
        missing = query.parameters - params.keys()
        if missing:
            raise TypeError(f"query {query_name} needs parameters {sorted(missing)}")
        log.debug("cypher %s", query_name)
        return query.text

    def read_query(self, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        text = self._text(query_name, params)
        return self._read_statement(text, params, query_name, lambda result: [record.data() for record in result])

    def _read_statement(self, text: str, params: dict[str, Any], name: str, answer: Callable[[Result], T]) -> T:
        """One read statement as an auto-commit transaction of a read session (routed to a reader,
        after this process's bookmarks, like execute_read), retried on the errors and by the delays
        the driver retries a managed transaction with, for as long (backend_retry_s). A managed read
        costs a second round trip for its COMMIT: a bare `RETURN [1]` took 5.0 ms managed and 2.3 ms
        auto-commit (p50, 2 cores, a slow day), and recall (three reads) 54.4 against 49.4-51.7 ms
        through REST. `answer` reads the result inside the session."""
        query = Query(text, metadata=self._metadata(name), timeout=self.timeout)

        def call(session: Session) -> T:
            first_failure: float | None = None
            delay = RETRY_DELAY_S
            while True:
                try:
                    return answer(session.run(query, params))
                except (DriverError, Neo4jError) as exc:
                    now = time.monotonic()
                    first_failure = first_failure or now
                    if not exc.is_retryable() or now - first_failure > self.retry_s:
                        raise
                    log.warning("read %s failed and will be retried in %.1f s (%s)", name, delay, exc)
                    time.sleep(delay * random.uniform(1 - RETRY_JITTER, 1 + RETRY_JITTER))
                    delay *= RETRY_MULTIPLIER

        return self._in_session(call, name, access=READ)

    def read_list(self, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        """The `rows` list of a named query that returns its results as one row (`RETURN collect({...})
        AS rows`). Recall's queries answer this way because the driver reads every record as its own
        Bolt message, tens of µs each in Python: recall's turn arm took 5.7 ms as 60 records and 2.9 ms
        as one list (p50, local server)."""
        text = self._text(query_name, params)
        # Maps, lists and scalars come back as Python values already; Record.data()'s walk over
        # every value (for nodes and relationships) is skipped.
        return self._read_statement(text, params, query_name, lambda result: list(result.single(strict=True)["rows"]))

    def read_row(self, query_name: str, /, **params: Any) -> dict[str, Any]:
        """The one row of a named query whose columns are maps, lists and scalars, as a dict: the
        values as the driver read them, without Record.data()'s walk over each (which looks for
        nodes and relationships to convert: about 1 ms for recall's 30 turns)."""
        text = self._text(query_name, params)
        return self._read_statement(text, params, query_name, lambda result: dict(result.single(strict=True)))

    def read_lists(self, query_names: Sequence[str], /, **params: Any) -> dict[str, list[dict[str, Any]]]:
        """read_list of several queries, by name, in one statement (QueryLibrary.joined): one
        transaction and one round trip. Each costs about a millisecond of driver and Bolt work,
        and recall's five arms in one statement took 10.0 ms where five concurrent transactions
        took 15.3 (p50, 2 cores: the concurrent ones only queued for the CPU)."""
        if len(query_names) == 1:
            return {query_names[0]: self.read_list(query_names[0], **params)}
        if not query_names:
            return {}
        query = self.queries.joined(query_names)
        missing = query.parameters - params.keys()
        if missing:
            raise TypeError(f"queries {list(query_names)} need parameters {sorted(missing)}")

        def answer(result: Result) -> dict[str, list[dict[str, Any]]]:
            record = result.single(strict=True)
            return {name: list(record[name]) for name in query_names}

        return self._read_statement(query.text, params, query.name, answer)

    def write_query(self, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.write(lambda tx: self.run(tx, query_name, **params), name=query_name)

    # -- schema -------------------------------------------------------------------------------

    def apply_schema(self, embedding_model: str, embedding_dimensions: int, replacing_vectors: bool = False) -> int:
        """Apply cypher/schema.cypher (idempotent: every statement is IF NOT EXISTS / MERGE) and
        check the vector indexes fit the embedding model. A store whose vectors another model made
        is refused before anything changes (`donto reembed`, which replaces them, says
        `replacing_vectors`): two models of one dimension would otherwise mix in one index, and
        recall would compare questions of one with turns of the other without a word."""
        [held_by] = self.read_query("schema_embedding_model")
        if not replacing_vectors and held_by["embedded"] and not same_model(held_by["model"], embedding_model):
            raise SchemaMismatch(
                f"this store's vectors come from {held_by['model']}, and the configured model is "
                f"{embedding_model}: run `donto reembed` to encode them again with it, or set "
                f"DONTO_EMBEDDING_MODEL={held_by['model']} to keep the old one"
            )
        schema = schema_text()
        statements = schema_statements(schema)
        params = {"embedding_dimensions": embedding_dimensions}
        # Version 7: a vector index made before it lacks its filter properties, and CREATE ... IF NOT
        # EXISTS would leave it so; dropped here, schema.cypher makes it again (the vectors stay on the nodes).
        for row in self.read_query("vector_index_dimensions", names=list(VECTOR_INDEXES)):
            if not set(VECTOR_INDEXES[row["name"]]) <= set(row["properties"]):
                log.warning("vector index %s is rebuilt with its filter properties (schema version 7)", row["name"])
                self.write_query("index_drop", name=row["name"])
        # Versions 8 and 9, the same for the full-text indexes: one made before lacks `workspace`, or
        # (recall_search) takes claims by :Claim rather than :Searchable.
        fulltext = self.read_query("fulltext_index_properties", names=list(FULLTEXT_INDEXES))
        for row in fulltext:
            labels, properties = FULLTEXT_INDEXES[row["name"]]
            if set(row["labels"]) != set(labels) or tuple(row["properties"]) != properties:
                log.warning("full-text index %s is rebuilt as schema version 9 makes it", row["name"])
                self.write_query("index_drop", name=row["name"])
        if not any(row["name"] == "recall_search" and "Searchable" in row["labels"] for row in fulltext):
            # Version 9's migration, before the index is made: every claim the old one held keeps its
            # place (a page per transaction; run again while the index is missing, so a cut-off start ends it).
            after: str | None = ""
            while after is not None:
                after = self.write_query("schema_searchable_migrate", after=after, batch=MIGRATION_BATCH)[0]["last"]
        for statement in statements:
            # One managed transaction each, so the driver retries a deadlock: an API and a `donto
            # worker` started together both apply the schema (found starting two processes at once).
            self.write(
                lambda tx, text=statement: tx.run(text, params).consume(), name="schema", timeout_s=SCHEMA_TIMEOUT_S
            )
        # Version 6's migration, a batch per transaction until none is left (see the query's header).
        while self.write_query("schema_understands_migrate", batch=MIGRATION_BATCH)[0]["migrated"]:
            pass
        held = {
            r["name"]: r["dimensions"] for r in self.read_query("vector_index_dimensions", names=list(VECTOR_INDEXES))
        }
        wrong = sorted(name for name, dims in held.items() if dims != embedding_dimensions)
        if wrong:
            raise SchemaMismatch(
                f"vector indexes {', '.join(wrong)} were built for another embedding model "
                f"({held[wrong[0]]} dimensions, {embedding_model} has {embedding_dimensions}): run `donto reembed`"
            )
        for row in self.await_indexes(INDEX_WAIT_S, schema):
            log.warning(
                "index %s (%s) is %s (%.0f%%): recall runs without the arms it serves, other reads of it answer 503",
                row["name"], row["type"], row["state"], row["percent"],
            )  # fmt: skip
        version = schema_version(schema)
        self.write_query(
            "schema_version_record",
            version=version,
            embedding_model=embedding_model,
            embedding_dimensions=embedding_dimensions,
        )
        return version

    def indexes_not_online(self, schema: str | None = None) -> list[dict[str, Any]]:
        """schema.cypher's indexes that are not online (name, type, state, percent): POPULATING,
        FAILED, or MISSING (dropped, as `donto reembed` does with the vector indexes while it works)."""
        held = {row["name"]: row for row in self.read_once("index_states")}
        declared = schema_indexes(schema or schema_text())
        missing = [{"name": n, "type": t, "state": "MISSING", "percent": 0.0} for n, t in declared if n not in held]
        return sorted(
            [row for name, _ in declared if (row := held.get(name)) and row["state"] != "ONLINE"] + missing,
            key=lambda row: row["name"],
        )

    def await_indexes(self, seconds: float, schema: str | None = None) -> list[dict[str, Any]]:
        """Wait up to `seconds` while any of schema.cypher's indexes populates; those not online then.
        Not db.awaitIndexes: it fails when time runs out, and a large graph's rebuilt vector index
        outlasts any wait an API start can afford. A failed or missing index is not waited for."""
        deadline = time.monotonic() + seconds
        while True:
            not_online = self.indexes_not_online(schema)
            if time.monotonic() >= deadline or not any(row["state"] == "POPULATING" for row in not_online):
                return not_online
            time.sleep(0.2)


def next_transaction_time(graph: GraphClient, tx: ManagedTransaction, workspace: str) -> datetime:
    """Lock the workspace's transaction clock and take this write's transaction time (see the
    query's header): strictly increasing within the workspace, and writers of one workspace
    serialise here while other workspaces' go on. Every write transaction calls this first."""
    return to_native(graph.run(tx, "transaction_time_next", workspace=workspace)[0]["recorded_at"])
