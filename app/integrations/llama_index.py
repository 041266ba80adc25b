"""DontoRetriever: LlamaIndex's `BaseRetriever` over donto's recall, through donto's client alone, so it
works against any donto server, local or remote.

    from donto.integrations.llama_index import DontoRetriever

    retriever = DontoRetriever(k=5)  # DONTO_URL / DONTO_API_KEY / DONTO_WORKSPACE, or the donto home's
    for hit in retriever.retrieve("Where does Ada work?"):
        print(hit.score, hit.node.text)

Each recalled item is a NodeWithScore: a TextNode of its dated text whose metadata is its relevance,
source, subject, predicate, object, provenance and the rest (donto.integrations.recall_items), scored by
its relevance, in donto's order. The metadata is kept out of what an LLM or an embedding model reads of
the node (its excluded keys): the text already says what donto means an agent to read, dates included.

Needs the `llama-index` extra: `pip install "donto-memory[llama-index]"`."""

from __future__ import annotations

from datetime import datetime

try:
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # an extra: say which, not just "no module named llama_index"
    raise ImportError(
        'donto.integrations.llama_index needs LlamaIndex: pip install "donto-memory[llama-index]"', name=exc.name
    ) from exc

from donto.api.schemas.recall import RecallOut
from donto.client import AsyncClient, Client
from donto.integrations.recall_clients import DEFAULT_K, RecallClients, recall_fields
from donto.integrations.recall_items import item_metadata

__all__ = ["DontoRetriever", "nodes_of"]


def nodes_of(
    bundle: RecallOut, *, valid_at: str | datetime | None = None, known_at: str | datetime | None = None
) -> list[NodeWithScore]:
    """A recall bundle's items as scored nodes, in the bundle's order, each scored by its relevance."""
    nodes = []
    for item in bundle.items:
        metadata = item_metadata(item, workspace=bundle.workspace, valid_at=valid_at, known_at=known_at)
        node = TextNode(
            text=item.text,
            metadata=metadata,
            excluded_llm_metadata_keys=list(metadata),
            excluded_embed_metadata_keys=list(metadata),
        )
        nodes.append(NodeWithScore(node=node, score=item.relevance))
    return nodes


class DontoRetriever(BaseRetriever):
    """donto's recall as a LlamaIndex retriever.

    k: how many items (donto's recall `k`); valid_at, known_at: the time scope to read as of (an ISO 8601
    instant or a datetime; default now); sessions: recall only within these sessions (their external ids).
    base_url, api_key, workspace: as donto.Client takes them, found as it finds them when not given;
    or `client`: a donto.Client (then retrieve and aretrieve both go through it) or a donto.AsyncClient
    (aretrieve only)."""

    def __init__(
        self,
        *,
        k: int = DEFAULT_K,
        valid_at: str | datetime | None = None,
        known_at: str | datetime | None = None,
        sessions: list[str] | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: Client | AsyncClient | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        self.k = k
        self.valid_at = valid_at
        self.known_at = known_at
        self.sessions = sessions
        self._clients = RecallClients(base_url=base_url, api_key=api_key, workspace=workspace, client=client)
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        bundle = self._clients.recall(query_bundle.query_str, **self._fields())
        return nodes_of(bundle, valid_at=self.valid_at, known_at=self.known_at)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        bundle = await self._clients.arecall(query_bundle.query_str, **self._fields())
        return nodes_of(bundle, valid_at=self.valid_at, known_at=self.known_at)

    def _fields(self) -> dict[str, object]:
        return recall_fields(k=self.k, valid_at=self.valid_at, known_at=self.known_at, sessions=self.sessions)
