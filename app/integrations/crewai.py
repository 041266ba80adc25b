"""DontoMemory: CrewAI's `Memory` (its unified memory, crewai >= 1.15) kept in donto, over donto's client
alone, so that what a crew remembers is recalled by meaning and words by donto's own embedding model,
and reads as it was known at any time, with no embedder or LLM of CrewAI's own.

    from crewai import Agent, Crew, Task
    from donto.integrations.crewai import DontoMemory

    memory = DontoMemory(workspace="research")  # DONTO_URL / DONTO_API_KEY, or the home's
    crew = Crew(agents=[...], tasks=[...], memory=memory)

Each memory record is one registered document (crewai_records.py says how): its content the text,
its fields (scope, categories, importance, source, private, ...) the metadata, its external id
`crewai:/<scope path>/#<record id>`. recall is donto's recall kept to the documents under the scope's
prefix, each match scored by recall's relevance (0 to 1); forget, reset and update retract or revise
the documents, so what was forgotten leaves current reads and is still read as known before
(`list_records(..., known_at=...)`, `get_record(..., known_at=...)`).

CrewAI's `StorageBackend.search` is handed an embedding, never the text, so DontoMemory subclasses
`Memory` instead: remember, remember_many, recall, update and extract_memories are its own (no LLM
call, no embedder); forget, reset, list_records, list_scopes, list_categories, info and tree are
Memory's, over `DontoStorage`, a StorageBackend over the client for everything but search.

Needs the `crewai` extra: `pip install "donto-memory[crewai]"`."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal, cast

try:
    from crewai.events.event_bus import crewai_event_bus
    from crewai.events.types.memory_events import (
        MemoryQueryCompletedEvent,
        MemoryQueryFailedEvent,
        MemoryQueryStartedEvent,
        MemorySaveCompletedEvent,
        MemorySaveFailedEvent,
        MemorySaveStartedEvent,
    )
    from crewai.memory.types import MemoryMatch, MemoryRecord, ScopeInfo
    from crewai.memory.unified_memory import Memory
    from crewai.memory.utils import join_scope_paths
    from pydantic import Field
except ImportError as exc:  # CrewAI is an extra: say which, not just "no module named crewai"
    raise ImportError('donto.integrations.crewai needs CrewAI: pip install "donto-memory[crewai]"') from exc

from donto.client import Client, ConflictError
from donto.integrations import crewai_records as mapping
from donto.integrations.recall_items import best_by_document, recall_k

__all__ = ["DontoMemory", "DontoStorage"]

PAGE = 1000  # documents a listing page asks for (the server's most)
MAX_QUERY_CHARS = 4000  # recall's question (RecallIn.query): a longer one is asked by its start
SOURCE_TYPE = "unified_memory"  # what CrewAI's memory events name as their source


class DontoStorage:
    """CrewAI's StorageBackend over donto's documents, for everything but `search` (donto recalls by
    text: DontoMemory.recall asks it). Records are read back from the documents' metadata."""

    def __init__(self, client: Client, *, owned: bool = False):
        self.client = client
        self._owned = owned

    def __deepcopy__(self, memo: dict[int, Any]) -> DontoStorage:
        return self  # Memory's deepcopy shares it: one client, one donto

    def close(self) -> None:
        if self._owned:
            self.client.close()

    # -- reads ------------------------------------------------------------------------------------

    def documents(self, scope: str | None = None, known_at: datetime | str | None = None) -> Iterator[tuple[Any, Any]]:
        """(document, record) for each record in the scope or below it, as known at `known_at`."""
        for document in self.client.iter_documents(
            prefix=mapping.scope_prefix(scope), known_at=known_at, page_size=PAGE
        ):
            if (record := self.record(document)) is not None:
                yield document, record

    def record(self, document: Any) -> MemoryRecord | None:
        fields = mapping.record_of_document(document.metadata)
        if fields is None:
            return None
        if fields["content"] is None:  # too long for the metadata: the document's text
            fields["content"] = self.client.get_document_text(document.id)
        return MemoryRecord.model_validate(fields)

    def records(
        self,
        scope: str | None = None,
        *,
        categories: list[str] | None = None,
        metadata_filter: dict[str, Any] | None = None,
        older_than: datetime | None = None,
        known_at: datetime | str | None = None,
    ) -> list[tuple[Any, MemoryRecord]]:
        return [
            (document, record)
            for document, record in self.documents(scope, known_at)
            if mapping.matches(
                record.model_dump(), categories=categories, metadata_filter=metadata_filter, older_than=older_than
            )
        ]

    def get_record(self, record_id: str, known_at: datetime | str | None = None) -> MemoryRecord | None:
        """The record by its id in any scope (a listing of all of CrewAI's documents), or None."""
        found = self._find(record_id, known_at)
        return found[1] if found is not None else None

    def _find(self, record_id: str, known_at: datetime | str | None = None) -> tuple[Any, MemoryRecord] | None:
        end = "#" + mapping.escape(record_id)
        for document in self.client.iter_documents(prefix=mapping.PREFIX, known_at=known_at, page_size=PAGE):
            if document.external_id.endswith(end) and (record := self.record(document)) is not None:
                return document, record
        return None

    def list_records(
        self, scope_prefix: str | None = None, limit: int = 200, offset: int = 0, known_at: datetime | str | None = None
    ) -> list[MemoryRecord]:
        """Newest first (by created_at)."""
        found = [record for _, record in self.documents(scope_prefix, known_at)]
        found.sort(key=lambda r: mapping.utc(r.created_at), reverse=True)
        return found[offset : offset + limit]

    def get_scope_info(self, scope: str) -> ScopeInfo:
        found = [record for _, record in self.documents(scope)]
        created = [mapping.utc(r.created_at).replace(tzinfo=None) for r in found]
        return ScopeInfo(
            path=mapping.normalize_scope(scope),
            record_count=len(found),
            categories=sorted({c for r in found for c in r.categories}),
            oldest_record=min(created, default=None),
            newest_record=max(created, default=None),
            child_scopes=mapping.child_scopes((r.scope for r in found), scope),
        )

    def list_scopes(self, parent: str = "/") -> list[str]:
        return mapping.child_scopes((r.scope for _, r in self.documents(parent)), parent)

    def list_categories(self, scope_prefix: str | None = None) -> dict[str, int]:
        return dict(Counter(c for _, r in self.documents(scope_prefix) for c in r.categories))

    def count(self, scope_prefix: str | None = None) -> int:
        return sum(1 for _ in self.documents(scope_prefix))

    def search(self, query_embedding: list[float], *args: Any, **kwargs: Any) -> list[tuple[MemoryRecord, float]]:
        raise NotImplementedError(
            "donto recalls by text, and a StorageBackend's search is given an embedding: recall through "
            "donto.integrations.crewai.DontoMemory. A plain crewai Memory over DontoStorage is what an agent's "
            "DontoMemory becomes when Agent.copy() rebuilds it (Crew.kickoff_for_each, train and test copy "
            "agents): give the DontoMemory to the Crew (memory=...), which keeps it through copies"
        )

    # -- writes -----------------------------------------------------------------------------------

    def save(self, records: list[MemoryRecord]) -> None:
        documents = [mapping.document_of_record(r.model_dump(mode="json")) for r in records]  # all checked first
        for document in documents:
            self.client.register_document(**document)

    def update(self, record: MemoryRecord) -> None:
        """A new revision of the record's document (a correction: the revision before is replaced as
        known from now on); a record moved to another scope is retracted under the old one."""
        found = self._find(record.id)
        document = mapping.document_of_record(record.model_dump(mode="json"))
        if found is not None and found[0].external_id != document["external_id"]:
            self._retract(found[0], "moved to another scope")
        self.client.register_document(**document)

    def delete(
        self,
        scope_prefix: str | None = None,
        categories: list[str] | None = None,
        record_ids: list[str] | None = None,
        older_than: datetime | None = None,
        metadata_filter: dict[str, Any] | None = None,
    ) -> int:
        """Retract the records that match: gone from recall and listings from now on, still read as
        known before. The number retracted."""
        wanted = set(record_ids) if record_ids is not None else None
        retracted = 0
        for document, record in self.records(
            scope_prefix, categories=categories, metadata_filter=metadata_filter, older_than=older_than
        ):
            if wanted is None or record.id in wanted:
                retracted += self._retract(document, "forgotten by CrewAI memory")
        return retracted

    def reset(self, scope_prefix: str | None = None) -> None:
        self.delete(scope_prefix=scope_prefix)

    def _retract(self, document: Any, reason: str) -> int:
        try:
            self.client.retract_document(document.id, reason=reason)
        except ConflictError:  # retracted or revised since it was listed: another writer's change stands
            return 0
        return 1

    # -- async, as CrewAI's protocol has them -----------------------------------------------------

    async def asave(self, records: list[MemoryRecord]) -> None:
        await asyncio.to_thread(self.save, records)

    async def asearch(
        self, query_embedding: list[float], *args: Any, **kwargs: Any
    ) -> list[tuple[MemoryRecord, float]]:
        return self.search(query_embedding, *args, **kwargs)

    async def adelete(self, *args: Any, **kwargs: Any) -> int:
        return await asyncio.to_thread(self.delete, *args, **kwargs)


class DontoMemory(Memory):
    """CrewAI's Memory over donto (see the module's docstring).

    base_url, api_key, workspace, timeout: as donto.Client takes them (from the environment or the donto
    home when not given); or `client`, a donto.Client of your own (then closing it is yours). The rest
    are Memory's own keywords (root_scope, read_only, default_importance, llm, ...). llm is asked only
    with `llm_extraction=True`: then a task's result is cut into memories by CrewAI's extraction, as
    Memory does; by default it is kept whole, one record, and donto cuts it into passages itself."""

    llm_extraction: bool = Field(
        default=False,
        description="cut a task's result into memories with the llm (CrewAI's extract_memories); "
        "default: keep it whole, as one record",
    )

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: Client | None = None,
        timeout: float = 120.0,
        **memory: Any,
    ):
        if client is not None and (base_url, api_key, workspace) != (None, None, None):
            raise TypeError("pass a client, or base_url / api_key / workspace to make one, not both")
        if client is not None and not isinstance(client, Client):
            raise TypeError(f"client is a donto.Client (CrewAI's memory is synchronous), not a {type(client).__name__}")
        if "storage" in memory:
            raise TypeError("DontoMemory keeps its records in donto: it takes no storage")
        owned = client is None
        made = client or Client(base_url, api_key=api_key, workspace=workspace, timeout=timeout)
        super().__init__(storage=DontoStorage(made, owned=owned), **memory)

    @property
    def client(self) -> Client:
        return self.storage_backend.client

    @property
    def storage_backend(self) -> DontoStorage:
        return cast(DontoStorage, self._storage)  # set from storage= in __init__

    def _root(self, scope: str | None, root_scope: str | None = None) -> str | None:
        """Memory's rule: a scope nests under the root scope; none means the root scope (or all)."""
        root = root_scope if root_scope is not None else self.root_scope
        if scope is None:
            return root
        return join_scope_paths(root, scope) if root else scope

    # -- writes -----------------------------------------------------------------------------------

    def remember(
        self,
        content: str,
        scope: str | None = None,
        categories: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        importance: float | None = None,
        source: str | None = None,
        private: bool = False,
        agent_role: str | None = None,
        root_scope: str | None = None,
    ) -> MemoryRecord | None:
        """Keep one record, as given (no LLM infers its scope, categories or importance: a scope not
        given is the root scope, importance the default_importance). None when read_only."""
        if self.read_only:
            return None
        records = self._save(
            [content], scope, categories, metadata, importance, source, private, agent_role, root_scope
        )
        return records[0] if records else None

    def remember_many(
        self,
        contents: list[str],
        scope: str | None = None,
        categories: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        importance: float | None = None,
        source: str | None = None,
        private: bool = False,
        agent_role: str | None = None,
        root_scope: str | None = None,
    ) -> list[MemoryRecord]:
        """Keep each content as a record, at once (Memory saves in the background and returns []:
        here the records kept are returned). Empty contents are skipped."""
        if self.read_only:
            return []
        contents = [c for c in contents if c and c.strip()]
        if not contents:
            return []
        return self._save(contents, scope, categories, metadata, importance, source, private, agent_role, root_scope)

    def _save(
        self,
        contents: list[str],
        scope: str | None,
        categories: list[str] | None,
        metadata: dict[str, Any] | None,
        importance: float | None,
        source: str | None,
        private: bool,
        agent_role: str | None,
        root_scope: str | None,
    ) -> list[MemoryRecord]:
        value = contents[0] if len(contents) == 1 else f"{len(contents)} memories"
        crewai_event_bus.emit(self, MemorySaveStartedEvent(value=value, metadata=metadata, source_type=SOURCE_TYPE))
        start = time.perf_counter()
        try:
            records = [
                MemoryRecord(
                    content=content,
                    scope=mapping.normalize_scope(self._root(scope, root_scope)),
                    categories=list(categories or []),
                    metadata=dict(metadata or {}),
                    importance=self.default_importance if importance is None else importance,
                    source=source,
                    private=private,
                )
                for content in contents
            ]
            self.storage_backend.save(records)
        except Exception as exc:
            crewai_event_bus.emit(
                self,
                MemorySaveFailedEvent(value=value, metadata=metadata, error=str(exc), source_type=SOURCE_TYPE),
            )
            raise
        crewai_event_bus.emit(
            self,
            MemorySaveCompletedEvent(
                value=value,
                metadata=metadata or {},
                agent_role=agent_role,
                save_time_ms=(time.perf_counter() - start) * 1000,
                source_type=SOURCE_TYPE,
            ),
        )
        return records

    def extract_memories(self, content: str) -> list[str]:
        """What a task's result is kept as: with llm_extraction, CrewAI's LLM extraction; otherwise the
        whole text, one memory (donto cuts it into passages and recalls each)."""
        if self.llm_extraction:
            return super().extract_memories(content)
        return [content] if content.strip() else []

    def update(
        self,
        record_id: str,
        content: str | None = None,
        scope: str | None = None,
        categories: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        importance: float | None = None,
    ) -> MemoryRecord:
        """A new revision of the record (Memory's update, without re-embedding: donto embeds the new text)."""
        existing = self.storage_backend.get_record(record_id)
        if existing is None:
            raise ValueError(f"Record not found: {record_id}")
        if self.read_only:
            return existing
        changes: dict[str, Any] = {"last_accessed": datetime.utcnow()}
        given = {"content": content, "scope": scope, "categories": categories, "metadata": metadata}
        changes |= {name: value for name, value in given.items() if value is not None}
        if importance is not None:
            changes["importance"] = importance
        updated = existing.model_copy(update=changes)
        self.storage_backend.update(updated)
        return updated

    # -- reads ------------------------------------------------------------------------------------

    def recall(
        self,
        query: str,
        scope: str | None = None,
        categories: list[str] | None = None,
        limit: int = 10,
        depth: Literal["shallow", "deep"] = "deep",
        source: str | None = None,
        include_private: bool = False,
    ) -> list[MemoryMatch]:
        """donto's recall kept to the scope (and below it): at most `limit` records, best first, each
        scored by recall's relevance (0 to 1). `depth` is not read: donto's recall is one call either way."""
        del depth
        effective = self._root(scope)
        crewai_event_bus.emit(
            self, MemoryQueryStartedEvent(query=query, limit=limit, score_threshold=None, source_type=SOURCE_TYPE)
        )
        start = time.perf_counter()
        try:
            results = self._recall(query, effective, categories, limit, source, include_private)
        except Exception as exc:
            crewai_event_bus.emit(
                self,
                MemoryQueryFailedEvent(
                    query=query, limit=limit, score_threshold=None, error=str(exc), source_type=SOURCE_TYPE
                ),
            )
            raise
        crewai_event_bus.emit(
            self,
            MemoryQueryCompletedEvent(
                query=query,
                results=results,
                limit=limit,
                score_threshold=None,
                query_time_ms=(time.perf_counter() - start) * 1000,
                source_type=SOURCE_TYPE,
            ),
        )
        return results

    def _recall(
        self,
        query: str,
        scope: str | None,
        categories: list[str] | None,
        limit: int,
        source: str | None,
        include_private: bool,
    ) -> list[MemoryMatch]:
        if not query.strip() or limit < 1:
            return []
        prefix = mapping.scope_prefix(scope)
        k = recall_k(limit)
        bundle = self.client.recall(query[:MAX_QUERY_CHARS], k=k, documents=[prefix], include_provenance=True)
        scores = best_by_document(bundle.items, prefix)
        if not scores:
            return []
        page = self.client.list_documents(external_id=list(scores), limit=PAGE)
        matches = []
        for document in page.documents:
            record = self.storage_backend.record(document)
            if record is None or not mapping.in_scope(record.scope, scope):
                continue
            fields = record.model_dump()
            if mapping.matches(fields, categories=categories) and mapping.visible(fields, source, include_private):
                matches.append(MemoryMatch(record=record, score=scores[document.external_id], match_reasons=["donto"]))
        matches.sort(key=lambda m: -m.score)
        return matches[:limit]

    def list_records(
        self, scope: str | None = None, limit: int = 200, offset: int = 0, known_at: datetime | str | None = None
    ) -> list[MemoryRecord]:
        """Records in the scope and below it, newest first, as known now or at `known_at` (a record
        forgotten since is listed as it was then)."""
        return self.storage_backend.list_records(self._root(scope), limit=limit, offset=offset, known_at=known_at)

    def get_record(self, record_id: str, known_at: datetime | str | None = None) -> MemoryRecord | None:
        """The record with this id, as known now or at `known_at`; None if there was none."""
        return self.storage_backend.get_record(record_id, known_at=known_at)
