"""Episodes: what an agent heard, kept whole. A session of turns; each turn split into sentence
passages with character offsets and the dates their time expressions resolve to; turns and
passages embedded for recall. Re-posting the same session and turn external ids writes nothing new."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto import metadata as turn_metadata
from donto.embedding.encoder import Encoder
from donto.embedding.turns import embed_turns, exchange_text, says_nothing
from donto.episodes.corrections import write_corrections
from donto.episodes.passages import dated_passages, split_passages
from donto.errors import InvalidInput
from donto.graph.client import GraphClient, next_transaction_time
from donto.ids import uuid7
from donto.recall.english import ENGLISH
from donto.recall.language import Language
from donto.temporal.instants import to_native, utc_now


@dataclass(frozen=True)
class NewTurn:
    external_id: str
    speaker: str
    text: str
    occurred_at: datetime | None = None
    metadata: dict[str, Any] | None = None  # kept as JSON beside the turn, never searched


@dataclass(frozen=True)
class TurnOutcome:
    external_id: str
    id: str
    created: bool


@dataclass(frozen=True)
class _AppendPlan:
    known: dict[str, dict]  # turns the session already held, by external id
    last_turn_id: str | None  # the turn the new ones follow
    rows: list[dict]  # the new turns, numbered and embedded


class _SessionMoved(Exception):
    """Another append landed between planning and writing."""


@dataclass(frozen=True)
class EpisodeResult:
    recorded_at: datetime
    session_id: str
    turns: list[TurnOutcome]


OPTIMISTIC_ATTEMPTS = 3  # appends planned outside the transaction before one re-plans inside it


class EpisodeService:
    def __init__(self, graph: GraphClient, encoder: Encoder, language: Language = ENGLISH):
        self.graph = graph
        self.encoder = encoder
        self.language = language  # whose words say that a turn corrects an earlier one (corrections.py)

    def write(
        self, workspace: str, session_external_id: str, started_at: datetime | None, turns: Sequence[NewTurn]
    ) -> EpisodeResult:
        seen: dict[str, int] = {}
        for i, turn in enumerate(turns):
            if turn.external_id in seen:
                raise InvalidInput(
                    f"turn external_id {turn.external_id!r} appears twice in this request",
                    field=f"turns[{i}].external_id",
                )
            seen[turn.external_id] = i
        for attempt in range(OPTIMISTIC_ATTEMPTS + 1):
            held = self.graph.read_query(
                "episode_existing_turns", workspace=workspace, session_external_id=session_external_id
            )
            planned = self._plan(held[0] if held else None, started_at, turns)
            try:
                # The last attempt re-plans inside the transaction, so an append always lands: a
                # client that kept losing the race to faster ones would otherwise never get in.
                work = self._write_work(
                    workspace, session_external_id, started_at, planned, attempt == OPTIMISTIC_ATTEMPTS
                )
                recorded_at, session_id, written = self.graph.write(work, name="episode_write")
                break
            except _SessionMoved:
                continue  # another client appended in between: plan again from what it left
        known = planned.known
        outcomes = []
        for turn in turns:
            if turn.external_id in written:
                w = written[turn.external_id]
                outcomes.append(TurnOutcome(turn.external_id, w["id"], w["created"]))
            else:
                outcomes.append(TurnOutcome(turn.external_id, known[turn.external_id]["id"], False))
        return EpisodeResult(recorded_at, session_id, outcomes)

    def _plan(self, held: dict | None, started_at: datetime | None, turns: Sequence[NewTurn]) -> _AppendPlan:
        """The new turns' rows: sequence numbers after the session's last turn, each embedded with
        the turn before it (outside any transaction: encoding is the slow part)."""
        known = {t["externalId"]: t for t in held["turns"]} if held else {}
        last = held["lastTurn"] if held else None
        session_start = started_at or (to_native(held["startedAt"]) if held else None)
        next_seq = last["seq"] + 1 if last else 0
        request_time = utc_now()
        rows, before = [], []
        previous = context(last)
        for turn in turns:
            if turn.external_id in known:
                continue
            row = self._turn_row(turn, turn.occurred_at or session_start, next_seq, request_time)
            rows.append(row)
            before.append(previous)
            previous = row
            next_seq += 1
        embed_turns(self.encoder, rows, before)
        return _AppendPlan(known, last["id"] if last else None, rows)

    def _write_work(
        self,
        workspace: str,
        session_external_id: str,
        started_at: datetime | None,
        plan: _AppendPlan,
        replan_inside: bool,
    ) -> Callable[[ManagedTransaction], tuple[datetime, str, dict[str, dict]]]:
        def work(tx: ManagedTransaction) -> tuple[datetime, str, dict[str, dict]]:
            # The clock lock (next_transaction_time) serialises writers, so the session read here
            # is the one this write extends: if its last turn moved since the plan, plan again.
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            now = self.graph.run(
                tx, "episode_existing_turns", workspace=workspace, session_external_id=session_external_id
            )
            last = now[0]["lastTurn"] if now else None
            rows, already = plan.rows, {}
            if (last["id"] if last else None) != plan.last_turn_id:
                if not replan_inside:
                    raise _SessionMoved()
                # Renumber after the turn that is last now, and embed the first new turn with it
                # (one short text, encoded while this transaction holds the clock).
                already = {t["externalId"]: {"id": t["id"], "created": False} for t in (now[0]["turns"] if now else [])}
                rows = [dict(r) for r in plan.rows if r["externalId"] not in already]
                base = last["seq"] + 1 if last else 0
                for i, row in enumerate(rows):
                    row["seq"] = base + i
                if rows and not says_nothing(rows[0]):
                    rows[0]["contextEmbedding"] = self.encoder.encode_one(exchange_text(context(last), rows[0]))
            result = self.graph.run(
                tx,
                "episode_write",
                workspace=workspace,
                recorded_at=recorded_at,
                session={"id": uuid7(), "externalId": session_external_id, "startedAt": started_at},
                turns=rows,
            )[0]
            self.graph.run(tx, "session_text_write", session_ids=[result["sessionId"]])
            created = {w["externalId"] for w in result["written"] if w["created"]}
            new = [r for r in rows if r["externalId"] in created]
            write_corrections(self.graph, tx, workspace, session_external_id, new, recorded_at, self.language)
            return recorded_at, result["sessionId"], {**already, **{w["externalId"]: w for w in result["written"]}}

        return work

    def _turn_row(self, turn: NewTurn, occurred_at: datetime | None, seq: int, request_time: datetime) -> dict:
        reference = occurred_at or request_time  # relative dates resolve against when it was said
        passages = [row | {"embedding": None} for row in dated_passages(split_passages(turn.text), reference)]
        return {
            "id": uuid7(),
            "externalId": turn.external_id,
            "speaker": turn.speaker,
            "text": turn.text,
            "occurredAt": occurred_at,
            "seq": seq,
            "embedding": None,
            "contextEmbedding": None,
            "sha256": hashlib.sha256(turn.text.encode("utf-8")).hexdigest(),
            "metadata": turn_metadata.serialise(turn.metadata) if turn.metadata is not None else None,
            "passages": passages,
        }


def context(last: dict | None) -> dict | None:
    """What the next turn is embedded with: the session's last turn, unless it was retracted (a turn
    taken back leaves nothing of itself in what is written after it)."""
    return None if last is None or last.get("retracted") else last
