"""donto.Client: every REST verb of donto, typed with the API's own pydantic models.

Generated from `_async.py` by `_unasync.py` (`python -m donto.client._unasync`): edit that file,
not this one; a unit test fails when the two differ.

A method that sends a body takes either the API's request model or its fields as keywords
(`recall(RecallIn(query="…"))` or `recall(query="…")`), and the commonest verbs take their main
field first (`recall("…")`, `memorize("…")`, `remember("…", subjects=[…])`); the fields are checked against that
model before anything is sent, so a wrong field is an InvalidRequest naming it, as the server would."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import to_json

from donto import __version__
from donto.api.schemas.claims import ClaimOut, ClaimPage, ClaimsWriteIn, ClaimsWriteOut, RetractIn, RetractOut
from donto.api.schemas.conversations import (
    SessionClearOut,
    SessionOut,
    SessionPageOut,
    TurnOut,
    TurnPageOut,
    TurnRetractOut,
)
from donto.api.schemas.documents import DocumentDetailOut, DocumentIn, DocumentOut, DocumentPageOut, ListedDocumentOut
from donto.api.schemas.episodes import EpisodeIn, EpisodeOut
from donto.api.schemas.explore import EntityPathsOut, EntityProfileOut, NeighbourhoodOut
from donto.api.schemas.health import HealthOut
from donto.api.schemas.identity import IdentityOut, SameAsIn, SameAsOut
from donto.api.schemas.jobs import JobCancelOut, JobFactOut, JobFactsOut, JobOut, JobPageOut, JobRawOut
from donto.api.schemas.memorize import MemorizeBatchIn, MemorizeBatchOut, MemorizeIn, MemorizeOut
from donto.api.schemas.predicates import PredicateIn, PredicateOut
from donto.api.schemas.recall import RecallIn, RecallOut
from donto.api.schemas.subjects import (
    AppendedListOut,
    AppendedOut,
    AroundIn,
    AroundOut,
    BringIn,
    BringOut,
    DeletedOut,
    DeleteObservationsIn,
    EventOut,
    EventsOut,
    GenerationOut,
    HistoryOut,
    IntersectionIn,
    IntersectionOut,
    MemoryRecallIn,
    MemoryRecallOut,
    MergeIn,
    MergeOut,
    ObservationsIn,
    OrientOut,
    PerspectiveIn,
    PerspectiveOut,
    PerspectivesOut,
    RememberIn,
    ReportOut,
    ResetOut,
    SearchIn,
    SearchOut,
    SignalIn,
    SignalOut,
    SimilarIn,
    SimilarOut,
    StatsOut,
    StructureIn,
    SubjectIn,
    SubjectListOut,
    SubjectOut,
    SubjectPatchIn,
    SubjectsGetIn,
    SubjectsGetOut,
    UnderstandingIn,
    UnderstandingListOut,
    UnderstandingOut,
    UnderstandingsAboutIn,
    UnderstandingUpdatedOut,
    UnderstandingUpdateIn,
    UnmergeIn,
)
from donto.api.schemas.walk import StatusBatchOut, StatusIn, StatusOut
from donto.api.schemas.workspaces import WorkspaceSettingsIn, WorkspaceSettingsOut
from donto.client.errors import ConnectionFailed, NoAddress, from_response, from_validation, retry_after_s
from donto.home import NoApiAddress, admin_key, client_url, find_home

RETRIED = (429, 503)  # donto answers these before doing any work, so any request may be sent again
FINISHED = ("succeeded", "failed", "cancelled")

In = TypeVar("In", bound=BaseModel)
Out = TypeVar("Out", bound=BaseModel)


def find_key() -> str | None:
    """DONTO_API_KEY, else the admin key `donto up` kept in its home (DONTO_HOME, else the nearest .donto/
    upwards, as git finds .git)."""
    return admin_key()


def body_of(
    model: type[In], body: In | str | None, fields: Mapping[str, Any], main: str | None = None
) -> dict[str, Any]:
    """The JSON to send: the model given, or the fields checked against the model as the server
    checks them (JSON in, strict), with the fields left out that the caller did not set. A field may
    go by its Python name where the API's is a keyword (`run_async=` for `async`). `main`: the field
    a str given first stands for (`recall("…")` is `recall(query="…")`)."""
    if isinstance(body, str) and main is not None:
        if main in fields:
            raise TypeError(f"{main} given twice: first as the positional argument, then as {main}=")
        body, fields = None, {main: body, **fields}
    elif body is not None and not isinstance(body, model):
        keywords = ", ".join(f"{name}=…" for name in list(model.model_fields)[:3])
        first = f"the {main} as a str, " if main else ""
        raise TypeError(
            f"pass {first}a {model.__name__}, or its fields as keywords ({keywords}), not a {type(body).__name__}"
        )
    if body is not None and fields:
        raise TypeError(f"pass a {model.__name__} or its fields as keywords, not both")
    if body is None:
        try:
            body = model.model_validate_json(to_json(dict(fields)), by_alias=True, by_name=True)
        except ValidationError as exc:
            raise from_validation(exc) from None
    return body.model_dump(mode="json", by_alias=True, exclude_unset=True)


def query(**params: Any) -> dict[str, str | list[str]]:
    """Query parameters as the API reads them: None left out, booleans lower-case, instants ISO 8601,
    a list as the parameter repeated."""
    out: dict[str, str | list[str]] = {}
    for name, value in params.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            out[name] = [str(v) for v in value]
        elif isinstance(value, bool):
            out[name] = "true" if value else "false"
        elif isinstance(value, datetime):
            out[name] = value.isoformat()
        else:
            out[name] = str(value)
    return out


def segment(value: str) -> str:
    return quote(value, safe="")


class Client:
    """donto over HTTP. The base URL, key, workspace and session are set once:

        with donto.Client(workspace="acme") as memory:
            bundle = memory.recall("Where does Ada work?")

    base_url: DONTO_URL, else the address `donto up` recorded in its home (DONTO_HOME, else the nearest
    .donto/); neither: NoAddress, nothing sent (no default port is guessed: another donto may hold it).
    api_key: DONTO_API_KEY, else the key in that home's api-key. Every error names the URL it reached.
    workspace: DONTO_WORKSPACE, else the key's own (or `default`).
    session: the conversation agent-memory calls belong to (X-Donto-Session).
    A 429 or 503 is sent again after its Retry-After (at most `max_retries` times, each wait capped at
    `max_wait_s`), as is a request that could not connect; what is still refused raises."""

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        workspace: str | None = None,
        session: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 4,
        max_wait_s: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ):
        try:  # first: a client with nowhere to go reads no key and makes no connection
            self.base_url = (base_url or client_url()).rstrip("/")
        except NoApiAddress as exc:
            raise NoAddress(str(exc), code="no_address") from None
        headers = {"User-Agent": f"donto-client/{__version__}"}
        if key := api_key or find_key():
            headers["Authorization"] = f"Bearer {key}"
        # Said with a 401 when no key was found: where the client looked.
        self._no_key = (
            None if key else f"no key was sent: none given, DONTO_API_KEY unset, no {find_home().looked_for('api-key')}"
        )
        if workspace := workspace or os.environ.get("DONTO_WORKSPACE"):
            headers["X-Donto-Workspace"] = workspace
        if session:
            headers["X-Donto-Session"] = session
        self.workspace = workspace
        self.max_retries = max_retries
        self.max_wait_s = max_wait_s
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # -- the one way out -------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str | list[str]] | None = None,
        json: Any = None,
        retries: int | None = None,
        accept: tuple[int, ...] = (),
    ) -> httpx.Response:
        """Send one request; retry what donto refused for now (429, 503) or never reached; raise the
        rest, but for the statuses in `accept`, which are answers."""
        retries = self.max_retries if retries is None else retries
        attempt = 0
        while True:
            try:
                response = self._http.request(method, path, params=params, json=json)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # nothing was sent: safe to send again
                if attempt >= retries:
                    raise ConnectionFailed(
                        f"no answer: {exc}", code="connection_failed", method=method, url=self._url(path, params)
                    ) from exc
                time.sleep(self._backoff(attempt, None))
            except httpx.TransportError as exc:  # it may have been sent: never sent again
                raise ConnectionFailed(
                    f"the connection failed: {exc!r}",
                    code="connection_failed",
                    method=method,
                    url=self._url(path, params),
                ) from exc
            else:
                if response.status_code in accept:
                    return response
                if response.status_code not in RETRIED or attempt >= retries:
                    if response.is_error:
                        raise from_response(response, self._no_key if response.status_code == 401 else None)
                    return response
                time.sleep(self._backoff(attempt, retry_after_s(response)))
            attempt += 1

    def _url(self, path: str, params: Mapping[str, str | list[str]] | None) -> str:
        """The full URL of a request, as a message names it."""
        return str(self._http.build_request("GET", path, params=params).url)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_wait_s)
        return min(0.5 * 2**attempt, self.max_wait_s) * (0.5 + random.random() / 2)

    def _call(
        self,
        out: type[Out],
        method: str,
        path: str,
        *,
        params: Mapping[str, str | list[str]] | None = None,
        json: Any = None,
    ) -> Out:
        response = self.request(method, path, params=params, json=json)
        return out.model_validate(response.json())

    # -- health ----------------------------------------------------------------------------------

    def health(self) -> HealthOut:
        """Whether donto and its Neo4j answer, the schema version and the model's state (never retried:
        a 503 here is an answer, returned as it came)."""
        response = self.request("GET", "/health", retries=0, accept=(503,))
        return HealthOut.model_validate(response.json())

    # -- claims ----------------------------------------------------------------------------------

    def write_claims(self, body: ClaimsWriteIn | None = None, /, **fields: Any) -> ClaimsWriteOut:
        """Write claims (all or none): `claims=[{"subject": …, "predicate": …, "object": …}, …]`."""
        return self._call(ClaimsWriteOut, "POST", "/v1/claims", json=body_of(ClaimsWriteIn, body, fields))

    def get_claim(
        self, claim_id: str, *, valid_at: str | datetime | None = None, known_at: str | datetime | None = None
    ) -> ClaimOut:
        """One claim with both intervals, its evidence and every edge to and from it; its state and
        what replaced it as of `valid_at` and `known_at` (default: now)."""
        params = query(valid_at=valid_at, known_at=known_at)
        return self._call(ClaimOut, "GET", f"/v1/claims/{segment(claim_id)}", params=params)

    def list_claims(
        self,
        *,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        include_retracted: bool | None = None,
        identity: bool | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> ClaimPage:
        """One page of claims; pass `next_cursor` back as `cursor` (or use iter_claims)."""
        params = query(
            subject=subject,
            predicate=predicate,
            object=object,
            include_retracted=include_retracted,
            identity=identity,
            valid_at=valid_at,
            known_at=known_at,
            limit=limit,
            cursor=cursor,
        )
        return self._call(ClaimPage, "GET", "/v1/claims", params=params)

    def iter_claims(
        self,
        *,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        include_retracted: bool | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
        page_size: int | None = None,
    ) -> Iterator[ClaimOut]:
        """Every claim list_claims would page through, fetched a page at a time."""
        cursor = None
        while True:
            page = self.list_claims(
                subject=subject,
                predicate=predicate,
                object=object,
                include_retracted=include_retracted,
                valid_at=valid_at,
                known_at=known_at,
                limit=page_size,
                cursor=cursor,
            )
            yield from page.claims
            if not (cursor := page.next_cursor):
                return

    def retract_claim(self, claim_id: str, reason: str | None = None) -> RetractOut:
        """Close the claim's transaction time (nothing is deleted; as-of reads still see it)."""
        body = body_of(RetractIn, None, {"reason": reason}) if reason is not None else None
        return self._call(RetractOut, "POST", f"/v1/claims/{segment(claim_id)}/retract", json=body)

    def claim_status(
        self,
        claim_id: str,
        *,
        max_depth: int | None = None,
        fan_out: int | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
    ) -> StatusOut:
        """The premise walk: does the claim still rest on current premises, and if not, why."""
        params = query(max_depth=max_depth, fan_out=fan_out, valid_at=valid_at, known_at=known_at)
        return self._call(StatusOut, "GET", f"/v1/claims/{segment(claim_id)}/status", params=params)

    def claims_status(self, body: StatusIn | None = None, /, **fields: Any) -> StatusBatchOut:
        """The premise walk for many claims at once: `ids=[…]`."""
        return self._call(StatusBatchOut, "POST", "/v1/claims/status", json=body_of(StatusIn, body, fields))

    def claim_neighbourhood(self, claim_id: str, *, depth: int | None = None) -> NeighbourhoodOut:
        params = query(depth=depth)
        return self._call(NeighbourhoodOut, "GET", f"/v1/claims/{segment(claim_id)}/neighbourhood", params=params)

    # -- predicates ------------------------------------------------------------------------------

    def declare_predicate(self, name: str, body: PredicateIn | None = None, /, **fields: Any) -> PredicateOut:
        """Declare a predicate: `cardinality="one"` (a new value supersedes the old) or `"many"`, and its aliases."""
        json = body_of(PredicateIn, body, fields)
        return self._call(PredicateOut, "PUT", f"/v1/predicates/{segment(name)}", json=json)

    def list_predicates(self) -> list[PredicateOut]:
        """Every predicate in use or declared, with its cardinality, aliases and proposed aliases."""
        response = self.request("GET", "/v1/predicates")
        return TypeAdapter(list[PredicateOut]).validate_python(response.json())

    def reject_proposed_alias(self, name: str, alias: str) -> None:
        """Extraction proposed `alias` as an alias of `name`: never propose it again."""
        self.request("DELETE", f"/v1/predicates/{segment(name)}/proposed-aliases/{segment(alias)}")

    # -- documents and episodes ------------------------------------------------------------------

    def register_document(self, body: DocumentIn | str | None = None, /, **fields: Any) -> DocumentOut:
        """Register a document (a new revision when its text changed: a version or a correction,
        `revision_kind`): recallable at once, no LLM. `register_document("…text…", title=…)`."""
        json = body_of(DocumentIn, body, fields, main="text")
        return self._call(DocumentOut, "POST", "/v1/documents", json=json)

    def get_document(self, document_id: str) -> DocumentDetailOut:
        return self._call(DocumentDetailOut, "GET", f"/v1/documents/{segment(document_id)}")

    def list_documents(
        self,
        *,
        prefix: str | None = None,
        external_id: str | list[str] | None = None,
        known_at: str | datetime | None = None,
        valid_at: str | datetime | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> DocumentPageOut:
        """One page of the documents registered under an external id, in external id order, each by its
        revision live as known at `known_at` and valid at `valid_at` (both default now: of its versions,
        the one in force then), with its metadata: those whose external id starts with `prefix`, or
        exactly `external_id` (one or a list). Pass `next_cursor` back as `cursor`."""
        ids = [external_id] if isinstance(external_id, str) else external_id
        params = query(prefix=prefix, external_id=ids, known_at=known_at, valid_at=valid_at, limit=limit, cursor=cursor)
        return self._call(DocumentPageOut, "GET", "/v1/documents", params=params)

    def iter_documents(
        self,
        *,
        prefix: str | None = None,
        known_at: str | datetime | None = None,
        valid_at: str | datetime | None = None,
        page_size: int | None = None,
    ) -> Iterator[ListedDocumentOut]:
        """Every document list_documents would page through, fetched a page at a time."""
        cursor = None
        while True:
            page = self.list_documents(
                prefix=prefix, known_at=known_at, valid_at=valid_at, limit=page_size, cursor=cursor
            )
            yield from page.documents
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def retract_document(self, document_id: str, reason: str | None = None) -> RetractOut:
        """Close the document revision's transaction time and its passages' (nothing is deleted; as-of
        reads still see it); recall no longer finds it."""
        body = body_of(RetractIn, None, {"reason": reason}) if reason is not None else None
        return self._call(RetractOut, "POST", f"/v1/documents/{segment(document_id)}/retract", json=body)

    def get_document_text(self, document_id: str) -> str:
        """The text of the document's current revision: the text every offset indexes."""
        response = self.request("GET", f"/v1/documents/{segment(document_id)}/text")
        return response.text

    def add_turns(self, body: EpisodeIn | None = None, /, **fields: Any) -> EpisodeOut:
        """Keep what was said, verbatim: append turns to a conversation, in the shape POST
        /v1/episodes and the MCP tool take: `session={"external_id": "chat-1", "started_at": …}`,
        `turns=[{"external_id": …, "speaker": …, "text": …}, …]`."""
        return self._call(EpisodeOut, "POST", "/v1/episodes", json=body_of(EpisodeIn, body, fields))

    # -- conversations read back -----------------------------------------------------------------

    def session_turns(
        self,
        session: str,
        *,
        limit: int | None = None,
        after: str | int | None = None,
        before: str | int | None = None,
        latest: bool | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
    ) -> TurnPageOut:
        """A conversation's turns in order (`session`: its external id): the first `limit` (default 50),
        or with `latest=True` the last; `after` / `before` (a page's next_after / next_before, or a turn's
        seq) page on. As known at `known_at` (retracted turns left out); `valid_at`: only those said by then."""
        params = query(limit=limit, after=after, before=before, latest=latest, valid_at=valid_at, known_at=known_at)
        return self._call(TurnPageOut, "GET", f"/v1/sessions/{segment(session)}/turns", params=params)

    def iter_session_turns(
        self,
        session: str,
        *,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
        page_size: int | None = None,
    ) -> Iterator[TurnOut]:
        """Every turn of the conversation, in order, fetched a page at a time."""
        after: str | None = None
        while True:
            page = self.session_turns(session, limit=page_size, after=after, valid_at=valid_at, known_at=known_at)
            yield from page.turns
            if not (after := page.next_after):
                return

    def get_turn(self, turn_id: str) -> TurnOut:
        """One turn by its id, live or retracted (`retracted_at` says when)."""
        return self._call(TurnOut, "GET", f"/v1/turns/{segment(turn_id)}")

    def list_sessions(
        self,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        known_at: str | datetime | None = None,
        prefix: str | None = None,
    ) -> SessionPageOut:
        """One page of the workspace's conversations, in the order they began (with `prefix`, only those
        whose external id starts with it); pass `next_cursor` back as `cursor` (or use iter_sessions)."""
        params = query(limit=limit, cursor=cursor, known_at=known_at, prefix=prefix)
        return self._call(SessionPageOut, "GET", "/v1/sessions", params=params)

    def iter_sessions(
        self, *, known_at: str | datetime | None = None, page_size: int | None = None, prefix: str | None = None
    ) -> Iterator[SessionOut]:
        """Every conversation list_sessions would page through, fetched a page at a time."""
        cursor = None
        while True:
            page = self.list_sessions(limit=page_size, cursor=cursor, known_at=known_at, prefix=prefix)
            yield from page.sessions
            if not (cursor := page.next_cursor):
                return

    def retract_turn(self, turn_id: str, reason: str | None = None) -> TurnRetractOut:
        """Take back a turn (and its passages): gone from reads and recall as known from now on, still
        there as known before. Again: the first retraction, `was_live=False`."""
        body = body_of(RetractIn, None, {"reason": reason}) if reason is not None else None
        return self._call(TurnRetractOut, "POST", f"/v1/turns/{segment(turn_id)}/retract", json=body)

    def clear_session(self, session: str, reason: str | None = None) -> SessionClearOut:
        """Retract every live turn of the conversation at once (new turns may still follow)."""
        body = body_of(RetractIn, None, {"reason": reason}) if reason is not None else None
        return self._call(SessionClearOut, "POST", f"/v1/sessions/{segment(session)}/clear", json=body)

    # -- recall and exploration ------------------------------------------------------------------

    def recall(self, body: RecallIn | str | None = None, /, **fields: Any) -> RecallOut:
        """A memory bundle for a question: claims, passages and turns, each dated and anchored.
        `recall("Where does Ada work?", k=5)`."""
        return self._call(RecallOut, "POST", "/v1/recall", json=body_of(RecallIn, body, fields, main="query"))

    def entity_profile(
        self,
        key: str,
        *,
        limit: int | None = None,
        identity: bool | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
    ) -> EntityProfileOut:
        params = query(limit=limit, identity=identity, valid_at=valid_at, known_at=known_at)
        return self._call(EntityProfileOut, "GET", f"/v1/entities/{segment(key)}/profile", params=params)

    def entity_paths(
        self,
        key: str,
        to: str,
        *,
        max_hops: int | None = None,
        limit: int | None = None,
        identity: bool | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
    ) -> EntityPathsOut:
        """Paths of claims (up to two hops) from one entity to another."""
        params = query(to=to, max_hops=max_hops, limit=limit, identity=identity, valid_at=valid_at, known_at=known_at)
        return self._call(EntityPathsOut, "GET", f"/v1/entities/{segment(key)}/paths", params=params)

    # -- memorize and jobs -----------------------------------------------------------------------

    def memorize(self, body: MemorizeIn | str | None = None, /, **fields: Any) -> MemorizeOut:
        """Hand donto a text, a document or a session; with an LLM endpoint its facts become claims
        (`run_async=False` answers when they have; else a job to follow). `memorize("…text…", title=…)`."""
        json = body_of(MemorizeIn, body, fields, main="text")
        return self._call(MemorizeOut, "POST", "/v1/memorize", json=json)

    def memorize_batch(self, body: MemorizeBatchIn | None = None, /, **fields: Any) -> MemorizeBatchOut:
        """Many texts in one request (`items=[…]`), one job each, checked all or nothing."""
        json = body_of(MemorizeBatchIn, body, fields)
        return self._call(MemorizeBatchOut, "POST", "/v1/memorize/batch", json=json)

    def list_jobs(self, *, state: str | None = None, before: str | None = None, limit: int | None = None) -> JobPageOut:
        params = query(state=state, before=before, limit=limit)
        return self._call(JobPageOut, "GET", "/v1/jobs", params=params)

    def iter_jobs(self, *, state: str | None = None, page_size: int | None = None) -> Iterator[JobOut]:
        """Every job, newest first, fetched a page at a time."""
        before = None
        while True:
            page = self.list_jobs(state=state, before=before, limit=page_size)
            yield from page.jobs
            if not (before := page.next_before):
                return

    def get_job(self, job_id: str) -> JobOut:
        """A job's state, its passes and what it found (claims created and found again, tokens, time)."""
        return self._call(JobOut, "GET", f"/v1/jobs/{segment(job_id)}")

    def wait_for_job(self, job_id: str, *, timeout_s: float = 600.0, poll_s: float = 1.0) -> JobOut:
        """Poll a job until it has succeeded, failed or been cancelled; TimeoutError past timeout_s."""
        waited = 0.0
        while (job := self.get_job(job_id)).state not in FINISHED:
            if waited >= timeout_s:
                raise TimeoutError(f"job {job_id} is still {job.state} after {timeout_s:g} s")
            time.sleep(poll_s)
            waited += poll_s
        return job

    def get_job_raw(self, job_id: str) -> JobRawOut:
        """Each pass's raw reply from the model, as it came."""
        return self._call(JobRawOut, "GET", f"/v1/jobs/{segment(job_id)}/raw")

    def job_facts(self, job_id: str, *, after: int | None = None, limit: int | None = None) -> JobFactsOut:
        """Every fact the model stated, in order, with where it was anchored and what became of it."""
        params = query(after=after, limit=limit)
        return self._call(JobFactsOut, "GET", f"/v1/jobs/{segment(job_id)}/facts", params=params)

    def iter_job_facts(self, job_id: str, *, page_size: int | None = None) -> Iterator[JobFactOut]:
        after = None
        while True:
            page = self.job_facts(job_id, after=after, limit=page_size)
            yield from page.facts
            if (after := page.next_after) is None:
                return

    def cancel_job(self, job_id: str) -> JobCancelOut:
        """Cancel a queued job now, a running one after its current pass."""
        return self._call(JobCancelOut, "POST", f"/v1/jobs/{segment(job_id)}/cancel")

    # -- the workspace and identity --------------------------------------------------------------

    def get_workspace_settings(self) -> WorkspaceSettingsOut:
        return self._call(WorkspaceSettingsOut, "GET", "/v1/workspace")

    def put_workspace_settings(self, body: WorkspaceSettingsIn | None = None, /, **fields: Any) -> WorkspaceSettingsOut:
        json = body_of(WorkspaceSettingsIn, body, fields)
        return self._call(WorkspaceSettingsOut, "PUT", "/v1/workspace", json=json)

    def link_entities(self, body: SameAsIn | None = None, /, **fields: Any) -> SameAsOut:
        """Say two entity keys name the same thing (SAME_AS, with its own valid and transaction time)."""
        return self._call(SameAsOut, "POST", "/v1/identity/links", json=body_of(SameAsIn, body, fields))

    def retract_link(self, link_id: str, reason: str | None = None) -> RetractOut:
        body = body_of(RetractIn, None, {"reason": reason}) if reason is not None else None
        return self._call(RetractOut, "POST", f"/v1/identity/links/{segment(link_id)}/retract", json=body)

    def entity_identity(
        self, key: str, *, valid_at: str | datetime | None = None, known_at: str | datetime | None = None
    ) -> IdentityOut:
        params = query(valid_at=valid_at, known_at=known_at)
        return self._call(IdentityOut, "GET", f"/v1/entities/{segment(key)}/identity", params=params)

    # -- subjects and understandings -------------------------------------------------------------

    def create_subject(self, body: SubjectIn | str | None = None, /, **fields: Any) -> SubjectOut:
        """Name a subject on purpose: `create_subject("Ada Lovelace", summary=…, tags=[…], aliases=[…])`."""
        json = body_of(SubjectIn, body, fields, main="name")
        return self._call(SubjectOut, "POST", "/v1/subjects", json=json)

    def list_subjects(self, *, limit: int | None = None, cursor: str | None = None) -> SubjectListOut:
        return self._call(SubjectListOut, "GET", "/v1/subjects", params=query(limit=limit, cursor=cursor))

    def iter_subjects(self, *, page_size: int | None = None) -> Iterator[SubjectOut]:
        cursor = None
        while True:
            page = self.list_subjects(limit=page_size, cursor=cursor)
            yield from page.subjects
            if not (cursor := page.next_cursor):
                return

    def get_subject(self, ref: str) -> SubjectOut:
        return self._call(SubjectOut, "GET", f"/v1/subjects/{segment(ref)}")

    def get_subjects(self, body: SubjectsGetIn | None = None, /, **fields: Any) -> SubjectsGetOut:
        json = body_of(SubjectsGetIn, body, fields)
        return self._call(SubjectsGetOut, "POST", "/v1/subjects/get", json=json)

    def update_subject(self, ref: str, body: SubjectPatchIn | None = None, /, **fields: Any) -> SubjectOut:
        json = body_of(SubjectPatchIn, body, fields)
        return self._call(SubjectOut, "PATCH", f"/v1/subjects/{segment(ref)}", json=json)

    def set_structure(self, body: StructureIn | None = None, /, **fields: Any) -> UnderstandingOut:
        json = body_of(StructureIn, body, fields)
        return self._call(UnderstandingOut, "POST", "/v1/subjects/structure", json=json)

    def append_observations(self, body: ObservationsIn | None = None, /, **fields: Any) -> AppendedListOut:
        json = body_of(ObservationsIn, body, fields)
        return self._call(AppendedListOut, "POST", "/v1/subjects/observations", json=json)

    def delete_observations(self, body: DeleteObservationsIn | None = None, /, **fields: Any) -> DeletedOut:
        json = body_of(DeleteObservationsIn, body, fields)
        return self._call(DeletedOut, "POST", "/v1/subjects/observations/delete", json=json)

    def open_intersection(self, body: IntersectionIn | None = None, /, **fields: Any) -> IntersectionOut:
        json = body_of(IntersectionIn, body, fields)
        return self._call(IntersectionOut, "POST", "/v1/subjects/intersection", json=json)

    def open_around(self, body: AroundIn | None = None, /, **fields: Any) -> AroundOut:
        return self._call(AroundOut, "POST", "/v1/subjects/around", json=body_of(AroundIn, body, fields))

    def find_similar_subjects(self, body: SimilarIn | None = None, /, **fields: Any) -> SimilarOut:
        return self._call(SimilarOut, "POST", "/v1/subjects/similar", json=body_of(SimilarIn, body, fields))

    def merge_subjects(self, body: MergeIn | None = None, /, **fields: Any) -> MergeOut:
        return self._call(MergeOut, "POST", "/v1/subjects/merge", json=body_of(MergeIn, body, fields))

    def unmerge_subjects(self, body: UnmergeIn | None = None, /, **fields: Any) -> MergeOut:
        return self._call(MergeOut, "POST", "/v1/subjects/unmerge", json=body_of(UnmergeIn, body, fields))

    def create_understanding(self, body: UnderstandingIn | None = None, /, **fields: Any) -> UnderstandingOut:
        json = body_of(UnderstandingIn, body, fields)
        return self._call(UnderstandingOut, "POST", "/v1/understandings", json=json)

    def update_understanding(
        self, body: UnderstandingUpdateIn | None = None, /, **fields: Any
    ) -> UnderstandingUpdatedOut:
        json = body_of(UnderstandingUpdateIn, body, fields)
        return self._call(UnderstandingUpdatedOut, "POST", "/v1/understandings/update", json=json)

    def get_understandings(self, body: UnderstandingsAboutIn | None = None, /, **fields: Any) -> UnderstandingListOut:
        """The active understandings about ALL the given subjects: `subject_names=[…]`."""
        json = body_of(UnderstandingsAboutIn, body, fields)
        return self._call(UnderstandingListOut, "POST", "/v1/understandings/about", json=json)

    def get_understanding(self, understanding_id: str) -> UnderstandingOut:
        return self._call(UnderstandingOut, "GET", f"/v1/understandings/{segment(understanding_id)}")

    def understanding_history(self, understanding_id: str) -> HistoryOut:
        return self._call(HistoryOut, "GET", f"/v1/understandings/{segment(understanding_id)}/history")

    # -- agent memory ----------------------------------------------------------------------------

    def orient(self) -> OrientOut:
        """Where the agent stands: what it keeps, what is new since the session began."""
        return self._call(OrientOut, "POST", "/v1/memory/orient")

    def bring_to_mind(self, body: BringIn | str | None = None, /, **fields: Any) -> BringOut:
        """What the curated memory holds on the topic that this session was not shown yet:
        `bring_to_mind("…what the conversation is about…", last_token=…)`."""
        json = body_of(BringIn, body, fields, main="topic_or_context")
        return self._call(BringOut, "POST", "/v1/memory/bring-to-mind", json=json)

    def recall_memory(self, body: MemoryRecallIn | str | None = None, /, **fields: Any) -> MemoryRecallOut:
        """Directed recall over the curated memory: `recall_memory("a question")` or `recall_memory(subject=…)`."""
        json = body_of(MemoryRecallIn, body, fields, main="question")
        return self._call(MemoryRecallOut, "POST", "/v1/memory/recall", json=json)

    def reset_seen(self) -> ResetOut:
        return self._call(ResetOut, "POST", "/v1/memory/reset-seen")

    def remember(self, body: RememberIn | str | None = None, /, **fields: Any) -> AppendedOut:
        """Keep an observation about subjects (new names create them): `remember("…", subjects=[…])`."""
        json = body_of(RememberIn, body, fields, main="text")
        return self._call(AppendedOut, "POST", "/v1/memory/remember", json=json)

    def search_memory(self, body: SearchIn | str | None = None, /, **fields: Any) -> SearchOut:
        """Observations and understandings by meaning or by words: `search_memory("…", mode="text")`."""
        json = body_of(SearchIn, body, fields, main="query")
        return self._call(SearchOut, "POST", "/v1/memory/search", json=json)

    def mark_useful(self, body: SignalIn | None = None, /, **fields: Any) -> SignalOut:
        return self._call(SignalOut, "POST", "/v1/memory/useful", json=body_of(SignalIn, body, fields))

    def mark_questionable(self, body: SignalIn | None = None, /, **fields: Any) -> SignalOut:
        return self._call(SignalOut, "POST", "/v1/memory/questionable", json=body_of(SignalIn, body, fields))

    def consolidation_report(
        self, *, limit: int | None = None, min_similarity: float | None = None, min_shared: int | None = None
    ) -> ReportOut:
        params = query(limit=limit, min_similarity=min_similarity, min_shared=min_shared)
        return self._call(ReportOut, "GET", "/v1/memory/consolidation", params=params)

    def close_consolidation(self) -> GenerationOut:
        return self._call(GenerationOut, "POST", "/v1/memory/consolidation")

    def list_perspectives(self) -> PerspectivesOut:
        return self._call(PerspectivesOut, "GET", "/v1/memory/perspectives")

    def add_perspective(self, body: PerspectiveIn | None = None, /, **fields: Any) -> PerspectiveOut:
        json = body_of(PerspectiveIn, body, fields)
        return self._call(PerspectiveOut, "POST", "/v1/memory/perspectives", json=json)

    def memory_stats(self) -> StatsOut:
        """Both memories in numbers: conversations kept, and the curated memory's subjects, observations,
        understandings and sessions."""
        return self._call(StatsOut, "GET", "/v1/memory/stats")

    def memory_events(
        self, *, session_id: str | None = None, limit: int | None = None, before: str | None = None
    ) -> EventsOut:
        params = query(session_id=session_id, limit=limit, before=before)
        return self._call(EventsOut, "GET", "/v1/memory/events", params=params)

    def iter_memory_events(self, *, session_id: str | None = None, page_size: int | None = None) -> Iterator[EventOut]:
        before = None
        while True:
            page = self.memory_events(session_id=session_id, limit=page_size, before=before)
            yield from page.events
            if not (before := page.next_before):
                return
