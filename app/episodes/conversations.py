"""A conversation read back: a session's turns in order, on both time axes, paged either way; the
workspace's sessions; one turn by id; and the retraction of a turn or of a whole session's turns.

Nothing is deleted: a retraction closes the turn's (and its passages') transaction time, so reads
as known from then on leave it out and reads as known before still hold it. Re-posting a retracted
turn's external id writes nothing (`created: false`): a retraction stays one; purge erases."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto import cursors
from donto import metadata as turn_metadata
from donto.errors import InvalidInput, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.temporal.instants import to_native

MAX_TURNS_PAGE = 1000
MAX_SESSIONS_PAGE = 1000


@dataclass(frozen=True)
class Turn:
    id: str
    external_id: str
    session_external_id: str
    seq: int
    speaker: str
    text: str
    occurred_at: datetime | None
    recorded_at: datetime
    retracted_at: datetime | None
    retraction_reason: str | None
    metadata: dict[str, Any] | None
    # The later turn of its session that corrects it ("sorry, it was July, not August";
    # episodes/corrections.py), as the read's scope knows it: its external id and donto id.
    corrected_by: str | None = None
    corrected_by_id: str | None = None

    @classmethod
    def of(cls, row: dict[str, Any]) -> Turn:
        return cls(
            id=row["id"],
            external_id=row["externalId"],
            session_external_id=row["sessionExternalId"],
            seq=row["seq"],
            speaker=row["speaker"],
            text=row["text"],
            occurred_at=to_native(row["occurredAt"]),
            recorded_at=to_native(row["recordedAt"]),
            retracted_at=to_native(row["retractedAt"]),
            retraction_reason=row["retractionReason"],
            metadata=turn_metadata.read(row["metadata"]),
            corrected_by=(row.get("correctedBy") or {}).get("externalId"),
            corrected_by_id=(row.get("correctedBy") or {}).get("id"),
        )


@dataclass(frozen=True)
class TurnPage:
    session_id: str
    turns: list[Turn]
    next_after: str | None  # a cursor past the page's last turn, when later turns are in scope
    next_before: str | None  # a cursor before the page's first turn, when earlier turns are in scope


@dataclass(frozen=True)
class Session:
    id: str
    external_id: str
    started_at: datetime | None
    recorded_at: datetime | None
    turn_count: int
    first_at: datetime | None
    last_at: datetime | None


@dataclass(frozen=True)
class SessionPage:
    sessions: list[Session]
    next_cursor: str | None


@dataclass(frozen=True)
class TurnRetraction:
    id: str
    retracted_at: datetime
    was_live: bool  # False: it had been retracted before, at retracted_at


@dataclass(frozen=True)
class SessionClearing:
    session_id: str
    retracted: int  # turns this retracted (those retracted before are not counted)
    retracted_at: datetime


class ConversationService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def session_turns(
        self,
        workspace: str,
        session: str,
        *,
        limit: int = 50,
        after: str | None = None,
        before: str | None = None,
        latest: bool = False,
        valid_at: datetime | None = None,
        known_at: datetime,
    ) -> TurnPage:
        """The session's turns in order: the first `limit` (or, `latest`, the last) of those in scope;
        `after`/`before` (a cursor a page handed out, or a turn's seq) start past a turn, forwards or
        backwards. NotFound naming the session the workspace does not hold."""
        if not 1 <= limit <= MAX_TURNS_PAGE:
            raise InvalidInput(f"limit is from 1 to {MAX_TURNS_PAGE}", field="limit")
        if after is not None and before is not None:
            raise InvalidInput("give after or before, not both: a page runs one way from its cursor", field="before")
        if latest and (after is not None or before is not None):
            raise InvalidInput("latest reads the session's last turns: it takes no cursor", field="latest")
        after_seq = cursors.decode_turn(after, session, "after") if after is not None else None
        before_seq = cursors.decode_turn(before, session, "before") if before is not None else None
        rows = self.graph.read_query(
            "session_turns",
            workspace=workspace,
            session_external_id=session,
            after=after_seq,
            before=before_seq,
            latest=latest or before is not None,  # backwards from `before`: the turns nearest it
            limit=limit,
            valid_at=valid_at,
            known_at=known_at,
        )
        if not rows:
            raise NotFound(f"no session {session!r} in this workspace", field="session")
        row = rows[0]
        turns = [Turn.of(t) for t in row["turns"]]
        return TurnPage(
            session_id=row["sessionId"],
            turns=turns,
            next_after=cursors.encode_turn(session, turns[-1].seq) if row["later"] else None,
            next_before=cursors.encode_turn(session, turns[0].seq) if row["earlier"] else None,
        )

    def get_turn(self, workspace: str, turn_id: str) -> Turn:
        rows = self.graph.read_query("turn_get", workspace=workspace, id=turn_id)
        if not rows:
            raise NotFound(f"no turn {turn_id!r} in this workspace", field="turn_id")
        return Turn.of(rows[0]["turn"])

    def sessions(
        self,
        workspace: str,
        *,
        limit: int = 50,
        cursor: str | None = None,
        known_at: datetime,
        prefix: str = "",
    ) -> SessionPage:
        """The workspace's sessions recorded by `known_at`, in the order they began, a page at a time;
        with `prefix`, only those whose external id starts with it."""
        if not 1 <= limit <= MAX_SESSIONS_PAGE:
            raise InvalidInput(f"limit is from 1 to {MAX_SESSIONS_PAGE}", field="limit")
        after = cursors.decode_session(cursor) if cursor is not None else ""
        rows = self.graph.read_list(
            "sessions_list", workspace=workspace, after=after, limit=limit + 1, known_at=known_at, prefix=prefix
        )
        sessions = [
            Session(
                id=r["id"],
                external_id=r["externalId"],
                started_at=to_native(r["startedAt"]),
                recorded_at=to_native(r["recordedAt"]),
                turn_count=r["turnCount"],
                first_at=to_native(r["firstAt"]),
                last_at=to_native(r["lastAt"]),
            )
            for r in rows[:limit]
        ]
        more = len(rows) > limit
        return SessionPage(sessions, cursors.encode_session(sessions[-1].id) if more else None)

    def retract_turn(self, workspace: str, turn_id: str, reason: str | None = None) -> TurnRetraction:
        """Retract one turn (and its passages) at this write's transaction time. Idempotent: a turn
        retracted before answers with its first retraction, `was_live` False. NotFound for an id the
        workspace does not hold."""

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            rows = self.graph.run(
                tx, "turn_retract", workspace=workspace, id=turn_id, recorded_at=recorded_at, reason=reason
            )
            if rows and rows[0]["wasLive"]:  # what recall's session arm searches leaves the turn too
                self.graph.run(tx, "session_text_write", session_ids=[rows[0]["sessionId"]])
            return rows

        rows = self.graph.write(work, name="turn_retract")
        if not rows:
            raise NotFound(f"no turn {turn_id!r} in this workspace", field="turn_id")
        return TurnRetraction(turn_id, to_native(rows[0]["retractedAt"]), rows[0]["wasLive"])

    def clear_session(self, workspace: str, session: str, reason: str | None = None) -> SessionClearing:
        """Retract every live turn of the session, in one transaction. NotFound naming a session the
        workspace does not hold; a session with no live turn left is cleared of none."""

        def work(tx: ManagedTransaction) -> tuple[datetime, list[dict[str, Any]]]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            rows = self.graph.run(
                tx,
                "session_turns_retract",
                workspace=workspace,
                session_external_id=session,
                recorded_at=recorded_at,
                reason=reason,
            )
            if rows and rows[0]["retracted"]:
                self.graph.run(tx, "session_text_write", session_ids=[rows[0]["sessionId"]])
            return recorded_at, rows

        recorded_at, rows = self.graph.write(work, name="session_turns_retract")
        if not rows:
            raise NotFound(f"no session {session!r} in this workspace", field="session")
        return SessionClearing(rows[0]["sessionId"], rows[0]["retracted"], recorded_at)
