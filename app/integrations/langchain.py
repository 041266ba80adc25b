"""DontoRetriever: LangChain's `BaseRetriever` over donto's recall, through donto's client alone, so it
works against any donto server, local or remote.

    from donto.integrations.langchain import DontoRetriever

    retriever = DontoRetriever(k=5)  # DONTO_URL / DONTO_API_KEY / DONTO_WORKSPACE, or the donto home's
    docs = retriever.invoke("Where does Ada work?")
    docs = retriever.invoke("Where did Ada work?", k=3, valid_at="2020-01-01")  # per call

Each recalled item is a Document: page_content its dated text, metadata its relevance, source, subject,
predicate, object, provenance and the rest (donto.integrations.recall_items), in donto's order.

Needs the `langchain` extra: `pip install "donto-memory[langchain]"`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # an extra: say which, not just "no module named langchain_core"
    raise ImportError(
        'donto.integrations.langchain needs LangChain: pip install "donto-memory[langchain]"', name=exc.name
    ) from exc

from pydantic import Field, PrivateAttr, SecretStr

from donto.api.schemas.recall import RecallOut
from donto.client import AsyncClient, Client
from donto.integrations.recall_clients import DEFAULT_K, RecallClients, either, recall_fields
from donto.integrations.recall_items import item_metadata

__all__ = ["DontoRetriever", "documents_of"]


def documents_of(
    bundle: RecallOut, *, valid_at: str | datetime | None = None, known_at: str | datetime | None = None
) -> list[Document]:
    """A recall bundle's items as Documents, in the bundle's order."""
    return [
        Document(
            page_content=item.text,
            metadata=item_metadata(item, workspace=bundle.workspace, valid_at=valid_at, known_at=known_at),
        )
        for item in bundle.items
    ]


class DontoRetriever(BaseRetriever):
    """donto's recall as a LangChain retriever.

    k: how many items (donto's recall `k`); valid_at, known_at: the time scope to read as of (an ISO 8601
    instant or a datetime; default now); sessions: recall only within these sessions (their external ids).
    Each may also be given per call, for that call: `invoke(query, k=3, valid_at=...)`.
    base_url, api_key, workspace: as donto.Client takes them, found as it finds them when not given;
    or `client`: a donto.Client (then invoke and ainvoke both go through it) or a donto.AsyncClient
    (ainvoke only)."""

    k: int = Field(default=DEFAULT_K, ge=1, le=200)
    valid_at: str | datetime | None = None
    known_at: str | datetime | None = None
    sessions: list[str] | None = None

    base_url: str | None = None
    api_key: SecretStr | None = None
    workspace: str | None = None
    client: Client | AsyncClient | None = Field(default=None, exclude=True)

    _clients: RecallClients = PrivateAttr()

    def model_post_init(self, context: Any, /) -> None:
        super().model_post_init(context)
        self._clients = RecallClients(
            base_url=self.base_url,
            api_key=self.api_key.get_secret_value() if self.api_key is not None else None,
            workspace=self.workspace,
            client=self.client,
        )

    def _request(
        self,
        k: int | None,
        valid_at: str | datetime | None,
        known_at: str | datetime | None,
        sessions: list[str] | None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The recall's fields, each the call's where it gave one, else the retriever's; and its time scope."""
        scope = {"valid_at": either(valid_at, self.valid_at), "known_at": either(known_at, self.known_at)}
        fields = recall_fields(k=either(k, self.k), sessions=either(sessions, self.sessions), **scope)
        return fields, scope

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
        sessions: list[str] | None = None,
    ) -> list[Document]:
        fields, scope = self._request(k, valid_at, known_at, sessions)
        return documents_of(self._clients.recall(query, **fields), **scope)

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
        sessions: list[str] | None = None,
    ) -> list[Document]:
        fields, scope = self._request(k, valid_at, known_at, sessions)
        return documents_of(await self._clients.arecall(query, **fields), **scope)
