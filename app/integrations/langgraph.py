"""LangGraph's long-term memory store on donto: `DontoStore`, a `langgraph.store.base.BaseStore`.

    from donto.integrations.langgraph import DontoStore
    store = DontoStore(workspace="agent")          # or DontoStore(donto.Client(...))
    graph = builder.compile(store=store)

Each item is a registered document (store_mapping.py says how): its value kept exactly in the
document's metadata, its searchable text (the value's string content, or the fields the store's
`index` or a put's `index` names; none with `index=False`) cut into passages that donto embeds and
recalls. Nothing is overwritten: a put registers a new revision, which replaces the one before in
transaction time, so `get(..., known_at=...)` reads an item as it was known then; a delete
retracts the document. A search with a query is donto's recall kept to the documents under the
namespace prefix, scored by recall's relevance (in [0, 1]); without one, the namespace's items in
key order. Everything goes through donto's client, so the store works against any donto server.

Batches run their operations in order, each seeing the writes before it. TTLs are not supported."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Literal

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        IndexConfig,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        get_text_at_path,
        validate_op_namespace,
    )
except ImportError as exc:  # pragma: no cover - what a user without the extra sees
    raise ImportError('donto.integrations.langgraph needs LangGraph: pip install "donto-memory[langgraph]"') from exc

from donto.client import AsyncClient, Client, ConflictError
from donto.integrations import store_mapping as mapping
from donto.integrations.client_steps import Call, Steps, adrive, drive
from donto.integrations.recall_items import best_by_document, recall_k

PAGE = 1000  # documents a listing page asks for (the server's most)
SOURCE = "langgraph"  # the registered documents' `source`


class DontoStore(BaseStore):
    """LangGraph's BaseStore over donto's documents (see the module's docstring).

    `client`: a `donto.Client` or `donto.AsyncClient` to use; otherwise one of each is made on first
    use from `client_kwargs` (`base_url`, `api_key`, `workspace`, … as `donto.Client` takes them,
    found from the environment or donto's home as the client finds them). Given only a Client, the
    async methods run it in a worker thread; given only an AsyncClient, the sync methods refuse.
    `index`: LangGraph's IndexConfig; only `fields` is read (donto embeds with its own model, so
    `dims` and `embed` are not needed and are ignored)."""

    supports_ttl = False

    def __init__(
        self, client: Client | AsyncClient | None = None, *, index: IndexConfig | None = None, **client_kwargs: Any
    ):
        if client is not None and client_kwargs:
            raise TypeError("give a client or the keywords to make one, not both")
        self._sync = client if isinstance(client, Client) else None
        self._async = client if isinstance(client, AsyncClient) else None
        self._given = client is not None
        self._client_kwargs = client_kwargs
        self.index_config = index
        self._fields: list[str] = list((index or {}).get("fields") or ["$"])

    # -- clients ----------------------------------------------------------------------------------

    def _sync_client(self) -> Client:
        if self._sync is None:
            if self._given:
                raise TypeError("this DontoStore was given a donto.AsyncClient: use its async methods (aget, aput, …)")
            self._sync = Client(**self._client_kwargs)
        return self._sync

    def _async_client(self) -> AsyncClient | None:
        """The AsyncClient to await, or None where the sync client runs in a thread instead."""
        if self._async is None and not self._given:
            self._async = AsyncClient(**self._client_kwargs)
        return self._async

    def close(self) -> None:
        """Close the sync client this store made (one given to it is the caller's to close)."""
        if self._sync is not None and not self._given:
            self._sync.close()

    async def aclose(self) -> None:
        if self._async is not None and not self._given:
            await self._async.aclose()
        self.close()

    # -- BaseStore --------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        client = self._sync_client()
        return [drive(self._steps(op), client) for op in _checked(ops)]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        checked = _checked(ops)
        client = self._async_client()
        if client is None:
            return await asyncio.to_thread(self.batch, checked)
        return [await adrive(self._steps(op), client) for op in checked]

    def get(
        self,
        namespace: tuple[str, ...],
        key: str,
        *,
        refresh_ttl: bool | None = None,
        known_at: datetime | str | None = None,
    ) -> Item | None:
        """The item as known now, or as known at `known_at` (its value then, even if since replaced
        or deleted)."""
        if known_at is None:
            return super().get(namespace, key, refresh_ttl=refresh_ttl)
        validate_op_namespace(GetOp(namespace, str(key)))
        return drive(self._get(namespace, str(key), known_at), self._sync_client())

    async def aget(
        self,
        namespace: tuple[str, ...],
        key: str,
        *,
        refresh_ttl: bool | None = None,
        known_at: datetime | str | None = None,
    ) -> Item | None:
        if known_at is None:
            return await super().aget(namespace, key, refresh_ttl=refresh_ttl)
        validate_op_namespace(GetOp(namespace, str(key)))
        client = self._async_client()
        if client is None:
            return await asyncio.to_thread(self.get, namespace, key, known_at=known_at)
        return await adrive(self._get(namespace, str(key), known_at), client)

    # -- operations, as the calls they make -------------------------------------------------------

    def _steps(self, op: Op) -> Steps:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key, None)
        if isinstance(op, PutOp):
            return self._delete(op) if op.value is None else self._put(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise ValueError(f"unknown store operation: {type(op).__name__}")

    def _get(self, namespace: tuple[str, ...], key: str, known_at: datetime | str | None) -> Steps:
        page = yield Call("list_documents", {"external_id": mapping.external_id(namespace, key), "known_at": known_at})
        items = _items(page.documents)
        return items[0] if items else None

    def _put(self, op: PutOp) -> Steps:
        assert op.value is not None
        if op.ttl is not None:
            raise NotImplementedError("DontoStore does not support TTLs")
        yield Call(
            "register_document",
            {
                "text": self._text(op.value, op.index),
                "external_id": mapping.external_id(op.namespace, op.key),
                "metadata": mapping.item_metadata(op.namespace, op.key, op.value),
                "source": SOURCE,
            },
        )
        return None

    def _delete(self, op: PutOp) -> Steps:
        page = yield Call("list_documents", {"external_id": mapping.external_id(op.namespace, op.key)})
        if page.documents:
            # Retracted or replaced since it was read: another writer's change stands.
            with contextlib.suppress(ConflictError):
                yield Call("retract_document", {"document_id": page.documents[0].id, "reason": "deleted"})
        return None

    def _search(self, op: SearchOp) -> Steps:
        prefix = mapping.namespace_prefix(op.namespace_prefix)
        if op.query is None or not op.query.strip():
            kept: list[SearchItem] = []
            cursor = None
            while len(kept) < op.offset + op.limit:
                page = yield Call("list_documents", {"prefix": prefix, "limit": PAGE, "cursor": cursor})
                kept += [i for i in _items(page.documents, SearchItem) if mapping.matches(i.value, op.filter)]
                if page.next_cursor is None:
                    break
                cursor = page.next_cursor
            return kept[op.offset : op.offset + op.limit]

        wanted = op.offset + op.limit
        k = recall_k(wanted)
        bundle = yield Call("recall", {"query": op.query, "k": k, "documents": [prefix], "include_provenance": True})
        scores = best_by_document(bundle.items, prefix)
        if not scores:
            return []
        page = yield Call("list_documents", {"external_id": list(scores)})
        found = [i for i in _items(page.documents, SearchItem, scores) if mapping.matches(i.value, op.filter)]
        found.sort(key=lambda i: -(i.score or 0.0))  # stable: recall's order among equal scores
        return found[op.offset : op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> Steps:
        conditions = [(c.match_type, c.path) for c in op.match_conditions or ()]
        prefix = mapping.namespace_prefix(mapping.listing_prefix(conditions))
        namespaces: set[tuple[str, ...]] = set()
        cursor = None
        while True:
            page = yield Call("list_documents", {"prefix": prefix, "limit": PAGE, "cursor": cursor})
            namespaces |= {i.namespace for i in _items(page.documents)}
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        return mapping.listed_namespaces(namespaces, conditions, op.max_depth, op.limit, op.offset)

    def _text(self, value: Mapping[str, Any], index: Literal[False] | list[str] | None) -> str:
        """What the item is searched by: nothing with index=False, else the fields named (the put's,
        else the store's), `$` for the whole value's string content."""
        if index is False:
            return ""
        lines: list[str] = []
        for path in index if index is not None else self._fields:
            if path == "$":
                lines += mapping.value_lines(value)
            else:
                lines += [" ".join(t.split()) for t in get_text_at_path(value, path)]
        return "\n".join(line for line in dict.fromkeys(lines) if line)


def _checked(ops: Iterable[Op]) -> list[Op]:
    ops = list(ops)
    for op in ops:
        validate_op_namespace(op)
    return ops


def _items(documents: Iterable[Any], kind: type[Item] = Item, scores: Mapping[str, float] | None = None) -> list[Any]:
    """The store items the listed documents are; a document under the store's prefix that no put made
    (its metadata holds no namespace, key and value) is none."""
    items = []
    for document in documents:
        metadata = document.metadata
        if not isinstance(metadata, dict) or not {"namespace", "key", "value"} <= metadata.keys():
            continue
        extra = {"score": scores[document.external_id]} if scores is not None else {}
        items.append(
            kind(
                namespace=tuple(metadata["namespace"]),
                key=metadata["key"],
                value=metadata["value"],
                created_at=datetime.fromisoformat(document.first_recorded_at),
                updated_at=datetime.fromisoformat(document.recorded_at),
                **extra,
            )
        )
    return items
