"""Conversations read back: a session's turns, the workspace's sessions, retractions of turns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.episodes.conversations import Session, SessionClearing, SessionPage, Turn, TurnPage, TurnRetraction


class TurnOut(BaseModel):
    id: str = Field(description="donto's id of the turn (GET /v1/turns/{turn_id}, POST /v1/turns/{turn_id}/retract)")
    external_id: str = Field(description="the id the turn was posted with")
    session: str = Field(description="the external id of its session")
    seq: int = Field(description="its place in the session, from 0; pass it as `after` to read what followed it")
    speaker: str
    text: str = Field(description="as posted; may be empty")
    occurred_at: str | None = Field(description="when it was said: its own time, else its session's start")
    recorded_at: str = Field(description="when donto recorded it (transaction time)")
    retracted_at: str | None = Field(
        description="when it was retracted; null while it is live. A read as known before then still holds it"
    )
    retraction_reason: str | None = None
    metadata: dict[str, Any] | None = Field(description="the JSON object posted with the turn, as posted; null: none")
    corrected_by: str | None = Field(
        default=None,
        description="the external id of a later turn of its session, by the same speaker, that corrects it "
        '("sorry, it was July, not August"), as known at known_at; null: none (the same id as recall\'s '
        "corrected_by)",
    )
    corrected_by_id: str | None = Field(
        default=None, description="donto's id of that correcting turn (GET /v1/turns/{turn_id}); null: none"
    )

    @classmethod
    def of(cls, turn: Turn) -> TurnOut:
        return cls(
            id=turn.id,
            external_id=turn.external_id,
            session=turn.session_external_id,
            seq=turn.seq,
            speaker=turn.speaker,
            text=turn.text,
            occurred_at=iso(turn.occurred_at),
            recorded_at=iso(turn.recorded_at),
            retracted_at=iso(turn.retracted_at),
            retraction_reason=turn.retraction_reason,
            metadata=turn.metadata,
            corrected_by=turn.corrected_by,
            corrected_by_id=turn.corrected_by_id,
        )


class TurnPageOut(BaseModel):
    session_id: str = Field(description="donto's id of the session")
    turns: list[TurnOut] = Field(description="in the order they were said (by seq), whichever way the page runs")
    next_after: str | None = Field(
        description="pass as `after` for the turns after this page; null when none in scope follow"
    )
    next_before: str | None = Field(
        description="pass as `before` for the turns before this page; null when none in scope precede"
    )

    @classmethod
    def of(cls, page: TurnPage) -> TurnPageOut:
        return cls(
            session_id=page.session_id,
            turns=[TurnOut.of(t) for t in page.turns],
            next_after=page.next_after,
            next_before=page.next_before,
        )


class SessionOut(BaseModel):
    id: str = Field(description="donto's id of the session")
    external_id: str
    started_at: str | None
    recorded_at: str | None = Field(description="when donto recorded its first turns")
    turn_count: int = Field(description="its turns live at known_at")
    first_at: str | None = Field(description="when the first of those was said; null without any")
    last_at: str | None = Field(description="when the last of those was said; null without any")

    @classmethod
    def of(cls, session: Session) -> SessionOut:
        return cls(
            id=session.id,
            external_id=session.external_id,
            started_at=iso(session.started_at),
            recorded_at=iso(session.recorded_at),
            turn_count=session.turn_count,
            first_at=iso(session.first_at),
            last_at=iso(session.last_at),
        )


class SessionPageOut(BaseModel):
    sessions: list[SessionOut] = Field(description="in the order they began")
    next_cursor: str | None = Field(description="pass as `cursor` for the next page; null on the last")

    @classmethod
    def of(cls, page: SessionPage) -> SessionPageOut:
        return cls(sessions=[SessionOut.of(s) for s in page.sessions], next_cursor=page.next_cursor)


class TurnRetractOut(BaseModel):
    id: str
    retracted_at: str = Field(description="when it left every read as known from then on")
    was_live: bool = Field(description="false: it had been retracted before, and retracted_at is that first time")

    @classmethod
    def of(cls, retraction: TurnRetraction) -> TurnRetractOut:
        return cls(id=retraction.id, retracted_at=iso(retraction.retracted_at), was_live=retraction.was_live)


class SessionClearOut(BaseModel):
    session_id: str = Field(description="donto's id of the session")
    retracted: int = Field(description="how many live turns this retracted")
    retracted_at: str = Field(description="the transaction time of the clearing")

    @classmethod
    def of(cls, clearing: SessionClearing) -> SessionClearOut:
        return cls(
            session_id=clearing.session_id, retracted=clearing.retracted, retracted_at=iso(clearing.retracted_at)
        )
