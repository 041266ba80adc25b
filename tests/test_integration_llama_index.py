"""donto.integrations.llama_index.DontoRetriever against the real stack: the API under uvicorn on a loopback
port over the suite's Neo4j, two chats and a document written through donto.Client first, and
llama-index-core itself (scored nodes, its postprocessors, a workflow)."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode
from llama_index.core.workflow import StartEvent, StopEvent, Workflow, step

import donto
from donto.integrations.llama_index import DontoRetriever
from support import ADMIN_KEY, MINUTES, workspace_with_chats_and_minutes


@pytest.fixture(scope="module")
def written(url) -> str:
    return workspace_with_chats_and_minutes(url, "llama-index")


@pytest.fixture
def retriever(url, written) -> DontoRetriever:
    return DontoRetriever(base_url=url, api_key=ADMIN_KEY, workspace=written, k=5)


def test_the_turn_that_answers_comes_first_scored_by_its_relevance(retriever, written):
    hits = retriever.retrieve("Who looks after Ann's cat?")
    assert all(isinstance(h, NodeWithScore) and isinstance(h.node, TextNode) for h in hits)
    first = hits[0]
    assert "Clara will look after Miso the cat" in first.node.get_content()
    assert first.node.get_content().startswith("[8 May 2023]")
    assert first.score == first.node.metadata["relevance"] and 0.5 <= first.score <= 1
    assert first.node.metadata["provenance"]["turn_ids"] == ["moving-2"]
    assert (first.node.metadata["subject"], first.node.metadata["workspace"]) == ("Ann", written)
    assert first.node.get_content(metadata_mode=MetadataMode.LLM) == first.node.get_content()  # no metadata noise


def test_a_document_s_passage_comes_with_its_revision_and_offsets(retriever):
    first = retriever.retrieve(QueryBundle("When does the Porto office open?"))[0]
    provenance = first.node.metadata["provenance"]
    assert provenance["title"] == "Board minutes"
    assert MINUTES[provenance["start"] : provenance["end"]] == "The Porto office opens in March 2025, led by Rui Costa."


def test_k_sessions_and_the_time_scope_are_the_retriever_s(url, written):
    def retriever(**fields) -> DontoRetriever:
        return DontoRetriever(base_url=url, api_key=ADMIN_KEY, workspace=written, **fields)

    assert len(retriever(k=2).retrieve("What did Ann and Bob talk about?")) == 2
    assert len(retriever(k=7).retrieve("What did Ann and Bob talk about?")) == 7
    club = retriever(sessions=["book-club"]).retrieve("Who is hosting?")
    assert club and {h.node.metadata["provenance"]["session_id"] for h in club} == {"book-club"}
    assert retriever(known_at="2001-01-01T00:00:00Z").retrieve("Who looks after Ann's cat?") == []


def test_aretrieve_answers_as_retrieve_does_and_runs_concurrently(retriever):
    async def both() -> list[list[NodeWithScore]]:
        return await asyncio.gather(
            retriever.aretrieve("Who looks after Ann's cat?"), retriever.aretrieve("Who hosts the book club?")
        )

    cat, club = asyncio.run(both())
    assert "Clara" in cat[0].node.get_content() and "host the book club" in club[0].node.get_content()
    assert [h.node.get_content() for h in retriever.retrieve("Who looks after Ann's cat?")] == [
        h.node.get_content() for h in cat
    ]


def test_a_client_of_your_own_serves_both_paths_and_an_async_one_the_async_path(url, written):
    with donto.Client(url, api_key=ADMIN_KEY, workspace=written) as memory:
        retriever = DontoRetriever(client=memory, k=2)
        assert "Clara" in retriever.retrieve("Who looks after Ann's cat?")[0].node.get_content()
        assert "Clara" in asyncio.run(retriever.aretrieve("Who looks after Ann's cat?"))[0].node.get_content()

    async def through_async_client() -> list[NodeWithScore]:
        async with donto.AsyncClient(url, api_key=ADMIN_KEY, workspace=written) as memory:
            return await DontoRetriever(client=memory, k=2).aretrieve("Who looks after Ann's cat?")

    assert "Clara" in asyncio.run(through_async_client())[0].node.get_content()


def test_the_connection_is_found_in_the_environment_as_donto_client_finds_it(url, written, monkeypatch):
    monkeypatch.setenv("DONTO_URL", url)
    monkeypatch.setenv("DONTO_API_KEY", ADMIN_KEY)
    monkeypatch.setenv("DONTO_WORKSPACE", written)
    assert "Clara" in DontoRetriever(k=1).retrieve("Who looks after Ann's cat?")[0].node.get_content()


class MemoryContext(Workflow):
    """Recall, keep what LlamaIndex's own SimilarityPostprocessor lets through at donto's relevance floor
    (0.5), and hand back the context an LLM would read: no LLM here."""

    def __init__(self, retriever: DontoRetriever):
        super().__init__(timeout=60)
        self.retriever = retriever

    @step
    async def recall(self, event: StartEvent) -> StopEvent:
        hits = await self.retriever.aretrieve(event.question)
        kept = SimilarityPostprocessor(similarity_cutoff=0.5).postprocess_nodes(hits)
        context = "\n".join(h.node.get_content(metadata_mode=MetadataMode.LLM) for h in kept)
        return StopEvent(result=context or "memory holds nothing on this")


def test_the_retriever_feeds_a_workflow_whose_postprocessor_reads_the_score_as_relevance(retriever):
    async def ask(question: str) -> str:
        return await MemoryContext(retriever).run(question=question)

    assert "Clara will look after Miso the cat" in asyncio.run(ask("Who looks after Ann's cat?"))
    assert asyncio.run(ask("What is the boiling point of mercury in kelvin?")) == "memory holds nothing on this"
