"""What the model is asked: seed 003's abundance in the exhaustive and deep prompts (single stays
lean), and a prompt file (DONTO_EXTRACTION_PROMPTS) over the built-in prompts: merged part by part,
checked key by key, named by its content in each job's record, refused before anything starts."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from scripted_llm import KM, RACE, TEXT, ScriptedLLM, lines, scripted_llm

from donto.cli import main
from donto.extraction.engine import Extractor
from donto.extraction.llm import ChatClient, LLMConfig
from donto.extraction.prompts import (
    ABUNDANCE,
    BUILTIN,
    DEFAULT_LENSES,
    PROMPTS_VERSION,
    SYSTEM,
    PromptsFileError,
    load_prompts,
    messages,
)
from donto.memory import extraction_prompts
from donto.settings import ConfigurationError, ExtractionSettings, Settings

# Phrases of the abundance instructions (seed 003), each one of its asks.
ABUNDANT = ("no upper limit", '"p": "is_a"', "both ways", "who said, reported or recorded", "Contradictions are wanted")

FILE = '''# prompts for a genealogy corpus
system = """You read parish registers."""
lens_focus = "Look only at {lens}, nothing else."
default_lenses = ["kinship", "vital events"]

[modes]
deep = "Every baptism, marriage and burial is an event."

[apertures]
surface = "Every name and date as written."
'''


@pytest.fixture
def llm() -> Iterator[ScriptedLLM]:
    with scripted_llm() as server:
        yield server


def engine(llm: ScriptedLLM, **overrides) -> Extractor:
    config = LLMConfig(base_url=llm.base_url, model="scripted", structured_output="never", timeout_s=5.0)
    return Extractor(ChatClient(config), **overrides)


def prompt_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prompts.toml"
    path.write_text(text)
    return path


def test_exhaustive_and_deep_prompts_ask_for_abundance_and_single_stays_lean():
    for mode in ("exhaustive", "deep"):
        asked = messages(TEXT, structured=False, mode=mode)[0]["content"]
        assert all(phrase in asked for phrase in ABUNDANT), mode
    single = messages(TEXT, structured=False, mode="single")[0]["content"]
    assert not any(phrase in single for phrase in ABUNDANT) and ABUNDANCE not in single
    assert BUILTIN.version == PROMPTS_VERSION and PROMPTS_VERSION.startswith("builtin-")


def test_every_pass_of_a_deep_or_exhaustive_run_is_given_the_abundance_and_a_single_run_none(llm):
    llm.queue(lines(RACE), lines(KM))
    engine(llm, dry_streak=1).extract(TEXT, "deep", passes=2)
    llm.default.content = lines(RACE)
    engine(llm).extract(TEXT, "exhaustive")
    asked = [r["messages"][0]["content"] for r in llm.requests]
    assert len(asked) == 7 and all(ABUNDANCE in a for a in asked)
    llm.requests.clear()
    engine(llm).extract(TEXT, "single", lenses=["quantities"])
    assert [ABUNDANCE in r["messages"][0]["content"] for r in llm.requests] == [False, False]


def test_a_prompt_file_replaces_the_parts_it_names_and_the_rest_stay(tmp_path):
    path = prompt_file(tmp_path, FILE)
    prompts = load_prompts(path)
    assert prompts.system == "You read parish registers." and prompts.lens_focus == "Look only at {lens}, nothing else."
    assert prompts.default_lenses == ("kinship", "vital events")
    assert prompts.modes == {**BUILTIN.modes, "deep": "Every baptism, marriage and burial is an event."}
    assert prompts.apertures == {**BUILTIN.apertures, "surface": "Every name and date as written."}
    assert prompts.already_found == BUILTIN.already_found
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    assert prompts.version == f"file:{digest}+{PROMPTS_VERSION}"  # sha256sum of the file tells which it was
    assert load_prompts(prompt_file(tmp_path, FILE + "\n# a comment\n")).version != prompts.version
    empty = load_prompts(prompt_file(tmp_path, "# nothing of its own\n"))
    assert (empty.system, empty.modes, empty.default_lenses) == (SYSTEM, BUILTIN.modes, DEFAULT_LENSES)


def test_the_engine_asks_with_the_files_prompts(llm, tmp_path):
    prompts = load_prompts(prompt_file(tmp_path, FILE))
    llm.queue(lines(RACE), lines(KM), lines(RACE))
    result = engine(llm, prompts=prompts, dry_streak=1).extract(TEXT, "deep", passes=2, lenses=["kinship"])
    asked = [r["messages"][0]["content"] for r in llm.requests]
    assert [p.label for p in result.passes] == ["pass_1", "pass_2", "lens:kinship"]
    assert all(a.startswith("You read parish registers.") and "Every baptism, marriage" in a for a in asked)
    assert SYSTEM not in asked[0] and ABUNDANCE not in asked[0]
    assert "Look only at kinship, nothing else." in asked[2]


@pytest.mark.parametrize(
    ("text", "key", "says"),
    [
        ("sytem = 'x'", "sytem", "unknown; the keys are system, modes"),
        ("system = 3", "system", "a string, not int"),
        ("system = '  '", "system", "empty"),
        ("[modes]\ntelepathic = 'x'", "modes.telepathic", "unknown; the keys are single, exhaustive, deep"),
        ("modes = 'x'", "modes", "a table of single, exhaustive, deep"),
        ("[apertures]\nsufrace = 'x'", "apertures.sufrace", "unknown; the keys are surface, linguistic"),
        ("[apertures]\nsurface = ''", "apertures.surface", "empty"),
        ("lens_focus = 'Focus on it.'", "lens_focus", "holds no {lens}"),
        ("default_lenses = []", "default_lenses", "a list of 1 to 10 strings"),
        ("default_lenses = 'kinship'", "default_lenses", "a list of 1 to 10 strings"),
        ("default_lenses = ['kinship', '']", "default_lenses[1]", "a string of 1 to 200 characters"),
    ],
)
def test_a_bad_prompt_file_is_refused_naming_the_file_and_the_key(tmp_path, text, key, says):
    path = prompt_file(tmp_path, text)
    with pytest.raises(PromptsFileError) as refused:
        load_prompts(path)
    assert str(refused.value).startswith(f"{path}: {key}: {says}"), str(refused.value)


@pytest.mark.parametrize(
    ("text", "says"), [("system = 'unclosed", "not valid TOML"), (None, "cannot be read"), (b"\xff\xfe", "not UTF-8")]
)
def test_a_prompt_file_that_is_not_toml_or_not_there_is_refused_naming_it(tmp_path, text, says):
    path = tmp_path / "prompts.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    with pytest.raises(PromptsFileError) as refused:
        load_prompts(path)
    assert str(refused.value).startswith(f"{path}: {says}"), str(refused.value)


def test_the_composition_root_reads_the_file_and_a_bad_one_stops_the_server_before_it_starts(tmp_path):
    from donto.api.main import create_app

    good = prompt_file(tmp_path, FILE)
    assert extraction_prompts(Settings()).version == PROMPTS_VERSION
    assert extraction_prompts(Settings(extraction=ExtractionSettings(prompts=good))).system.startswith("You read")
    bad = tmp_path / "bad.toml"
    bad.write_text("[modes]\ndeep = 7\n")
    with pytest.raises(ConfigurationError) as refused:
        create_app(Settings(extraction=ExtractionSettings(prompts=bad)))
    assert str(refused.value) == f"DONTO_EXTRACTION_PROMPTS: {bad}: modes.deep: a string, not int"


def test_a_worker_with_a_bad_prompt_file_says_so_in_one_line_and_does_not_start(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DONTO_EXTRACTION_PROMPTS", str(tmp_path / "missing.toml"))
    assert main(["worker"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"donto: DONTO_EXTRACTION_PROMPTS: {tmp_path / 'missing.toml'}: cannot be read")
    assert "Traceback" not in err
