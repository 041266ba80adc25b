"""donto.integrations.langchain.DontoRetriever against the real stack: the API under uvicorn on a loopback
port over the suite's Neo4j, two chats and a document written through donto.Client first, and
langchain-core itself (Documents, LCEL). LangChain's own standard retriever tests (langchain-tests'
RetrieversIntegrationTests) run against the same server from their virtualenv (tests/standard/)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import uuid
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

import donto
from donto.integrations.langchain import DontoRetriever
from support import ADMIN_KEY, MINUTES, REPO, workspace_with_chats_and_minutes


@pytest.fixture(scope="module")
def written(url) -> str:
    return workspace_with_chats_and_minutes(url, "langchain")


@pytest.fixture
def retriever(url, written) -> DontoRetriever:
    return DontoRetriever(base_url=url, api_key=ADMIN_KEY, workspace=written, k=5)


def test_the_turn_that_answers_comes_first_with_its_dated_text_and_provenance(retriever):
    documents = retriever.invoke("Who looks after Ann's cat?")
    assert all(isinstance(d, Document) for d in documents)
    first = documents[0]
    assert "Clara will look after Miso the cat" in first.page_content
    assert first.page_content.startswith("[8 May 2023]")  # donto's dated text, as an agent reads it
    assert (first.metadata["subject"], first.metadata["predicate"], first.metadata["object"]) == ("Ann", "said", None)
    assert first.metadata["provenance"]["session_id"] == "moving"
    assert first.metadata["provenance"]["turn_ids"] == ["moving-2"]
    assert first.metadata["relevance"] >= 0.5 and first.metadata["source"]
    assert first.metadata["workspace"] == retriever.workspace


def test_a_document_s_passage_comes_with_its_revision_and_offsets(retriever):
    first = retriever.invoke("When does the Porto office open?")[0]
    provenance = first.metadata["provenance"]
    assert provenance["title"] == "Board minutes" and provenance["revision"] == 1
    assert MINUTES[provenance["start"] : provenance["end"]] == "The Porto office opens in March 2025, led by Rui Costa."
    assert "March 2025" in first.page_content


def test_k_is_honoured_as_a_field_and_per_call(url, written, retriever):
    question = "What did Ann and Bob talk about?"
    assert len(retriever.invoke(question)) == 5
    assert len(retriever.invoke(question, k=2)) == 2
    assert len(retriever.invoke(question, k=7)) == 7
    assert len(DontoRetriever(base_url=url, api_key=ADMIN_KEY, workspace=written, k=1).invoke(question)) == 1


def test_sessions_keep_recall_to_those_chats(url, written, retriever):
    book_club = DontoRetriever(base_url=url, api_key=ADMIN_KEY, workspace=written, sessions=["book-club"])
    documents = book_club.invoke("Who is hosting?")
    assert documents and {d.metadata["provenance"]["session_id"] for d in documents} == {"book-club"}
    assert "host the book club" in documents[0].page_content
    per_call = retriever.invoke("Who is hosting?", sessions=["moving"])
    assert per_call and {d.metadata["provenance"]["session_id"] for d in per_call} == {"moving"}


def test_a_read_as_known_before_anything_was_written_finds_nothing(retriever):
    assert retriever.invoke("Who looks after Ann's cat?", known_at="2001-01-01T00:00:00Z") == []
    as_of_now = retriever.invoke("Who looks after Ann's cat?", valid_at="2030-01-01T00:00:00Z")
    assert "Clara" in as_of_now[0].page_content and as_of_now[0].metadata["valid_at"] == "2030-01-01T00:00:00Z"


def test_ainvoke_answers_as_invoke_does_and_runs_concurrently(retriever):
    async def both() -> list[list[Document]]:
        return await asyncio.gather(
            retriever.ainvoke("Who looks after Ann's cat?"), retriever.ainvoke("Who hosts the book club?", k=2)
        )

    cat, club = asyncio.run(both())
    assert "Clara" in cat[0].page_content and len(club) == 2
    assert [d.page_content for d in asyncio.run(retriever.ainvoke("Who looks after Ann's cat?"))] == [
        d.page_content for d in cat
    ]  # a second event loop: the retriever opened a client for it


def test_a_client_of_your_own_serves_both_paths_and_an_async_one_the_async_path(url, written):
    with donto.Client(url, api_key=ADMIN_KEY, workspace=written) as memory:
        retriever = DontoRetriever(client=memory, k=2)
        assert "Clara" in retriever.invoke("Who looks after Ann's cat?")[0].page_content
        assert "Clara" in asyncio.run(retriever.ainvoke("Who looks after Ann's cat?"))[0].page_content

    async def through_async_client() -> list[Document]:
        async with donto.AsyncClient(url, api_key=ADMIN_KEY, workspace=written) as memory:
            return await DontoRetriever(client=memory, k=2).ainvoke("Who looks after Ann's cat?")

    assert "Clara" in asyncio.run(through_async_client())[0].page_content


def test_the_connection_is_found_in_the_environment_as_donto_client_finds_it(url, written, monkeypatch):
    monkeypatch.setenv("DONTO_URL", url)
    monkeypatch.setenv("DONTO_API_KEY", ADMIN_KEY)
    monkeypatch.setenv("DONTO_WORKSPACE", written)
    assert "Clara" in DontoRetriever(k=1).invoke("Who looks after Ann's cat?")[0].page_content


def test_a_wrong_call_is_refused_naming_what_is_wrong(retriever):
    with pytest.raises(donto.InvalidRequest) as refused:
        retriever.invoke("Who looks after Ann's cat?", k=0)
    assert refused.value.field == "k"
    with pytest.raises(TypeError, match="top_k"):
        retriever.invoke("Who looks after Ann's cat?", top_k=3)


def format_docs(documents: list[Document]) -> str:
    return "\n".join(d.page_content for d in documents)


def test_the_retriever_feeds_an_lcel_chain_with_no_llm(retriever):
    chain = retriever | RunnableLambda(format_docs)
    assert "Clara will look after Miso the cat" in chain.invoke("Who looks after Ann's cat?")

    prompt = ChatPromptTemplate.from_messages([("system", "Answer from memory:\n{context}"), ("human", "{question}")])
    rag = {"context": retriever | format_docs, "question": RunnablePassthrough()} | prompt
    messages = rag.invoke("When does the Porto office open?").to_messages()
    assert "March 2025" in messages[0].content and messages[1].content == "When does the Porto office open?"
    assert "March 2025" in asyncio.run(rag.ainvoke("When does the Porto office open?")).to_messages()[0].content


STANDARD_TESTS = {
    "test_k_constructor_param",
    "test_invoke_with_k_kwarg",
    "test_invoke_returns_documents",
    "test_ainvoke_returns_documents",
    "test_no_overrides_DO_NOT_OVERRIDE",  # langchain-tests' own: no standard test is overridden here
}


def standard_python() -> Path:
    """.venv-standard's python (`make standard-venv`; `make test` makes it and names it)."""
    named = os.environ.get("DONTO_TEST_STANDARD_PYTHON")
    python = Path(named) if named else REPO / ".venv-standard" / "bin" / "python"
    if not python.exists():
        if named:
            pytest.fail(f"DONTO_TEST_STANDARD_PYTHON={named}: no such file (`make standard-venv` makes it)")
        pytest.skip("LangChain's standard tests run in .venv-standard, not made here: `make standard-venv` makes it")
    return python


def test_langchain_s_standard_retriever_tests_pass_against_donto(url, tmp_path):
    """langchain-tests' RetrieversIntegrationTests (tests/standard/), in their own virtualenv so that their
    pytest plugins never load into this suite, against this suite's server; each must pass, none skip."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DONTO_") and k != "PYTHONPATH"}
    env |= {"DONTO_URL": url, "DONTO_API_KEY": ADMIN_KEY, "DONTO_WORKSPACE": f"lc-standard-{uuid.uuid4().hex[:10]}"}
    report = tmp_path / "standard.xml"
    run = subprocess.run(
        [str(standard_python()), "-m", "pytest", "-q", f"--junitxml={report}", "."],
        cwd=REPO / "tests" / "standard",
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    cases = ElementTree.parse(report).getroot().iter("testcase")
    outcomes = {case.get("name"): [child.tag for child in case] for case in cases}
    assert outcomes == {name: [] for name in STANDARD_TESTS}, run.stdout  # every one ran and passed
