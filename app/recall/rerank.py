"""The optional reranking stage (DONTO_RECALL_RERANK_MODEL): the fused top turns re-scored against
the question by a second model. A cross-encoder (its config names a sequence-classification head)
reads each (question, turn) pair; any other sentence-transformers model scores as a bi-encoder, by
the cosine of its query and document encodings. Turns change rarely and a conversation's questions
share candidates, so a bi-encoder's document vectors are kept (bounded) between queries."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from donto.embedding.encoder import Encoder, TorchNotInstalled, torch_installed
from donto.embedding.turns import embedding_text
from donto.recall.fusion import Candidate

CACHED_VECTORS = 50_000  # a bi-encoder's document vectors kept between queries (~150 MB at 768 dimensions)


def is_cross_encoder(config: Path) -> bool:
    """A model whose transformers config (its config.json) declares a sequence-classification head."""
    if not config.is_file():
        return False
    architectures = json.loads(config.read_text()).get("architectures") or []
    return any(a.endswith("ForSequenceClassification") for a in architectures)


def reorder(ranking: list[Candidate], depth: int, scores: Mapping[str, float]) -> list[Candidate]:
    """The scored turns among the top `depth` take the places turns held there, best score first;
    claims, and everything past `depth`, keep their places."""
    top = ranking[:depth]
    scored = sorted((c for c in top if c.kind == "turn" and c.id in scores), key=lambda c: -scores[c.id])
    slots = iter(scored)
    reordered = [next(slots) if c.kind == "turn" and c.id in scores else c for c in top]
    return reordered + ranking[depth:]


class Reranker:
    """`encoder` is the scoring model as a bi-encoder (app/memory.py builds it from the setting);
    it is only loaded as such when the model turns out not to be a cross-encoder."""

    def __init__(self, encoder: Encoder, depth: int):
        self.encoder = encoder
        self.name = encoder.name
        self.depth = depth
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @cached_property
    def cross_encoder(self) -> Any | None:
        path, source = self.encoder.locate()
        config = Path(path) / "config.json"
        if source == "cache":
            from huggingface_hub import try_to_load_from_cache  # the cache only: never the network

            cached = try_to_load_from_cache(self.name, "config.json")
            config = Path(cached) if isinstance(cached, str) else config
        if not is_cross_encoder(config):
            return None
        if not torch_installed():
            raise TorchNotInstalled(f"DONTO_RECALL_RERANK_MODEL={self.name}", "it is a cross-encoder")
        from sentence_transformers import CrossEncoder

        return CrossEncoder(path, device=self.encoder.device, trust_remote_code=self.encoder.trust_remote_code)

    def score(self, question: str, texts: Sequence[str]) -> list[float]:
        """One score per text, higher is better."""
        if not texts:
            return []
        if self.cross_encoder is not None:
            return [
                float(s) for s in self.cross_encoder.predict([(question, t) for t in texts], show_progress_bar=False)
            ]
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            vectors = self.encoder.encode(missing)
            with self._lock:
                if len(self._vectors) + len(missing) > CACHED_VECTORS:
                    self._vectors.clear()
                self._vectors.update(zip(missing, np.asarray(vectors, dtype=np.float32)))
        query = np.asarray(self.encoder.encode_query(question), dtype=np.float32)
        return [float(self._vectors[t] @ query) if t in self._vectors else 0.0 for t in texts]

    def rerank(
        self, question: str, ranking: list[Candidate], turns: Mapping[str, Mapping[str, Any]]
    ) -> list[Candidate]:
        """The top `depth` turns whose details are in `turns`, re-scored and reordered."""
        ids = [c.id for c in ranking[: self.depth] if c.kind == "turn" and c.id in turns]
        texts = [embedding_text(turns[i]["speaker"], turns[i]["text"]) for i in ids]
        return reorder(ranking, self.depth, dict(zip(ids, self.score(question, texts))))
