"""A sentence-transformers folder whose transformer is an ONNX graph (`onnx/model.onnx`, where
sentence-transformers' own ONNX backend looks too; `donto models fetch` puts the jar's graph there),
run with no torch and no sentence-transformers: tokenized by Hugging Face's Rust `tokenizers` as the
folder's tokenizer.json says, the graph run on ONNX Runtime, pooled as its 1_Pooling/config.json says,
normalised, in numpy. The same vectors as sentence-transformers gives for the same folder (cosine
1.0000, tests/test_embedding_runtime.py), without PyTorch's 5 GB install or its resident memory
(docs/benchmarks.md, "A lean server").

A folder with more than a Transformer, a Pooling and a Normalize module (a Dense projection, a
router), or a pooling mode not written here, is sentence-transformers' to run: `why_not` says why."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from donto.embedding.fetch import ONNX_GRAPH

# The modules this runs, by the last part of the type modules.json gives them.
MODULES = ("Transformer", "Pooling", "Normalize")
POOLING_MODES = ("cls", "max", "mean", "mean_sqrt_len_tokens", "lasttoken")
# sentence-transformers' older pooling config: one flag per mode, concatenated in this order.
LEGACY_POOLING = {
    "pooling_mode_cls_token": "cls",
    "pooling_mode_max_tokens": "max",
    "pooling_mode_mean_tokens": "mean",
    "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens": "weightedmean",
    "pooling_mode_lasttoken": "lasttoken",
}


def _json(path: Path) -> Any:
    return json.loads(path.read_text()) if path.is_file() else {}


def _modules(folder: Path) -> list[tuple[str, str]]:
    """modules.json in order as (kind, path), kind the last part of each module's type."""
    listed = json.loads((folder / "modules.json").read_text())
    return [(str(m["type"]).rsplit(".", 1)[-1], str(m.get("path", ""))) for m in listed]


def pooling_modes(config: dict[str, Any]) -> tuple[tuple[str, ...], int, bool]:
    """(modes, token embedding width, include_prompt) from a 1_Pooling/config.json of either spelling."""
    modes = config.get("pooling_mode")
    if modes is None:
        modes = tuple(mode for key, mode in LEGACY_POOLING.items() if config.get(key)) or ("mean",)
    modes = (modes,) if isinstance(modes, str) else tuple(modes)
    width = int(config.get("embedding_dimension") or config.get("word_embedding_dimension") or 0)
    return modes, width, bool(config.get("include_prompt", True))


def why_not(folder: Path) -> str | None:
    """Why this folder is not one OnnxModel runs (None: it is), from its files alone."""
    if not (folder / ONNX_GRAPH).is_file():
        return f"its folder holds no ONNX graph ({ONNX_GRAPH})"
    if not (folder / "tokenizer.json").is_file():
        return "its folder holds no tokenizer.json"
    try:
        kinds = [kind for kind, _ in _modules(folder)]
        if kinds not in (list(MODULES[:2]), list(MODULES)):
            return f"its modules ({', '.join(kinds)}) are more than a Transformer, a Pooling and a Normalize"
        modes, _, _ = pooling_modes(_json(folder / dict(_modules(folder))["Pooling"] / "config.json"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"its modules.json or pooling config could not be read ({exc})"
    if unknown := [m for m in modes if m not in POOLING_MODES]:
        return f"its pooling ({', '.join(unknown)}) is not one of {', '.join(POOLING_MODES)}"
    return None


class OnnxModel:
    """The parts of a SentenceTransformer that donto's Encoder uses (prompts, max_seq_length,
    get_embedding_dimension, preprocess, encode), for a folder `why_not` accepts."""

    def __init__(self, folder: Path) -> None:
        import onnxruntime
        from tokenizers import Tokenizer, normalizers

        modules = dict(_modules(folder))
        self.modes, width, self.include_prompt = pooling_modes(_json(folder / modules["Pooling"] / "config.json"))
        self.dimensions = len(self.modes) * width
        self.normalize = "Normalize" in modules
        self.prompts: dict[str, str] = _json(folder / "config_sentence_transformers.json").get("prompts") or {}
        bert = _json(folder / "sentence_bert_config.json")
        tokenizer_config = _json(folder / "tokenizer_config.json")
        # As sentence-transformers takes it: its own setting, else the tokenizer's capped by the positions.
        limits = [
            tokenizer_config.get("model_max_length"),
            _json(folder / "config.json").get("max_position_embeddings"),
        ]
        self.max_seq_length = int(bert.get("max_seq_length") or min((n for n in limits if n), default=512))

        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # padded here, per batch: the tokenizer's settings never change once set
        self.tokenizer.enable_truncation(max_length=self.max_seq_length)
        if bert.get("do_lower_case"):
            current = self.tokenizer.normalizer
            lowered: list[Any] = [normalizers.Lowercase(), *([current] if current is not None else [])]
            self.tokenizer.normalizer = normalizers.Sequence(lowered)
        padding = json.loads((folder / "tokenizer.json").read_text()).get("padding") or {}
        pad_token = tokenizer_config.get("pad_token")
        pad_token = pad_token.get("content") if isinstance(pad_token, dict) else pad_token
        self.pad_id = int(padding.get("pad_id") or (pad_token and self.tokenizer.token_to_id(pad_token)) or 0)
        self.special_ids = {i for i, t in self.tokenizer.get_added_tokens_decoder().items() if t.special}

        options = onnxruntime.SessionOptions()
        options.inter_op_num_threads = 1
        # Idle threads sleep instead of spinning: spinning saved 1.4 ms a question (8.1 against 9.5)
        # but kept 0.6 of a core busy between runs, on 2 cores that Neo4j and the API share.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: no warnings about unused initialisers in the logs
        self.session = onnxruntime.InferenceSession(
            str(folder / ONNX_GRAPH), options, providers=["CPUExecutionProvider"]
        )
        self.input_names = {i.name for i in self.session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= self.input_names <= {"input_ids", "attention_mask", "token_type_ids"}:
            raise ValueError(f"the graph's inputs are {sorted(self.input_names)}, not a BERT-like encoder's")
        outputs = self.session.get_outputs()
        named = [o.name for o in outputs if o.name == "last_hidden_state"]
        self.output = named[0] if named else next((o.name for o in outputs if len(o.shape or ()) == 3), None)
        if self.output is None:
            raise ValueError("the graph has no per-token output (last_hidden_state)")
        self._prompt_lengths: dict[str, int] = {}

    def get_embedding_dimension(self) -> int:
        return self.dimensions

    def _tokens(self, texts: Sequence[str], prompt: str | None) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The graph's inputs for `texts` (the prompt before each), padded on the right to the longest,
        and the attention mask."""
        encodings = self.tokenizer.encode_batch([f"{prompt or ''}{text}" for text in texts])
        longest = max(len(e.ids) for e in encodings)
        ids = np.full((len(encodings), longest), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), longest), dtype=np.int64)
        types = np.zeros((len(encodings), longest), dtype=np.int64)
        for i, e in enumerate(encodings):
            ids[i, : len(e.ids)], mask[i, : len(e.ids)], types[i, : len(e.ids)] = e.ids, 1, e.type_ids
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return {k: v for k, v in feed.items() if k in self.input_names}, mask

    def preprocess(self, texts: Sequence[str], prompt: str | None = None) -> dict[str, np.ndarray]:
        """The attention mask each text gets (the Encoder counts tokens with it)."""
        return {"attention_mask": self._tokens(texts, prompt)[1]} if texts else {}

    def _prompt_length(self, prompt: str) -> int:
        """The prompt's tokens, its trailing special token (SEP) left out, as sentence-transformers counts them."""
        if prompt not in self._prompt_lengths:
            ids = self.tokenizer.encode(prompt).ids
            self._prompt_lengths[prompt] = len(ids) - (1 if ids and ids[-1] in self.special_ids else 0)
        return self._prompt_lengths[prompt]

    def _pool(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        hidden = hidden.astype(np.float32, copy=False)
        weights = mask[..., None].astype(np.float32)
        pooled = []
        for mode in self.modes:
            if mode == "cls":
                pooled.append(hidden[np.arange(len(hidden)), mask.argmax(1)])
            elif mode == "max":
                pooled.append(np.where(weights > 0, hidden, -np.inf).max(1))
            elif mode == "lasttoken":
                pooled.append(hidden[np.arange(len(hidden)), mask.shape[1] - 1 - mask[:, ::-1].argmax(1)])
            else:  # mean, mean_sqrt_len_tokens
                counts = np.clip(weights.sum(1), 1e-9, None)
                pooled.append((hidden * weights).sum(1) / (counts if mode == "mean" else np.sqrt(counts)))
        return np.concatenate(pooled, axis=-1)

    def encode(
        self, texts: Sequence[str], prompt: str | None = None, batch_size: int = 32, normalize_embeddings: bool = True,
        **_: Any,
    ) -> np.ndarray:  # fmt: skip
        """One float32 row per text, `batch_size` texts a run."""
        out = []
        for start in range(0, len(texts), batch_size):
            feed, mask = self._tokens(texts[start : start + batch_size], prompt)
            (hidden,) = self.session.run([self.output], feed)
            if prompt and not self.include_prompt:
                mask = mask.copy()
                mask[:, : self._prompt_length(prompt)] = 0
            vectors = self._pool(hidden, mask)
            if self.normalize or normalize_embeddings:
                vectors = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
            out.append(vectors.astype(np.float32, copy=False))
        return np.concatenate(out) if out else np.zeros((0, self.dimensions), dtype=np.float32)
