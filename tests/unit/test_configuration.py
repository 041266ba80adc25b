"""A setting donto cannot use is named by its environment variable, in one line, before anything runs."""

from __future__ import annotations

import pytest

from donto.cli import main
from donto.embedding.encoder import Encoder, check_device, locate_model
from donto.embedding.fetch import ModelNotLoaded
from donto.errors import InvalidInput
from donto.recall.service import check_arm_weights
from donto.settings import ConfigurationError, EmbeddingSettings, load_settings


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("DONTO_RECALL_RERANK_DEPTH", "0", "DONTO_RECALL_RERANK_DEPTH: Input should be greater than or equal to 1"),
        ("DONTO_RECALL_ARM_WEIGHTS", "{fulltext: 0.5", "DONTO_RECALL_ARM_WEIGHTS: not valid JSON"),
        ("DONTO_RECALL_ARM_WEIGHTS", "[1, 2]", "DONTO_RECALL_ARM_WEIGHTS: Input should be a valid dictionary"),
        ("DONTO_EMBEDDING_MODEL", "", "DONTO_EMBEDDING_MODEL: String should have at least 1 character"),
        ("DONTO_EMBEDDING_BATCH_SIZE", "0", "DONTO_EMBEDDING_BATCH_SIZE: Input should be greater than or equal to 1"),
        ("DONTO_PORT", "eighty", "DONTO_PORT: Input should be a valid integer"),
    ],
)
def test_a_setting_donto_cannot_use_is_named_by_its_variable(monkeypatch, variable, value, says):
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError) as refused:
        load_settings()
    assert str(refused.value).startswith(says)


def test_a_refused_setting_is_never_echoed(monkeypatch):
    # The value may be a secret pasted into the wrong variable.
    monkeypatch.setenv("DONTO_RATE_LIMIT_BURST", "sk-not-for-logs")
    with pytest.raises(ConfigurationError) as refused:
        load_settings()
    assert "DONTO_RATE_LIMIT_BURST" in str(refused.value) and "sk-not-for-logs" not in str(refused.value)


def test_the_command_line_prints_the_refused_setting_not_a_traceback(monkeypatch, capsys):
    monkeypatch.setenv("DONTO_RECALL_RERANK_DEPTH", "0")
    assert main(["models"]) == 2
    assert capsys.readouterr().err.startswith("donto: DONTO_RECALL_RERANK_DEPTH: ")


@pytest.mark.parametrize("weight", [float("inf"), float("nan"), -0.5])
def test_an_arm_weight_is_a_finite_number_zero_or_more(weight):
    with pytest.raises(InvalidInput) as refused:
        check_arm_weights({"fulltext": weight})
    assert refused.value.field == "arm_weights.fulltext"
    assert check_arm_weights({"fulltext": 0.0, "turn_vector": 2.5}) == {"fulltext": 0.0, "turn_vector": 2.5}


def test_a_model_named_by_a_path_that_does_not_exist_says_so(tmp_path):
    for name in (str(tmp_path / "no-model-here"), "./no-model-here", "~/no-model-here"):
        with pytest.raises(ModelNotLoaded, match="no such folder"):
            locate_model(name)


@pytest.mark.parametrize(("device", "says"), [("tpu", "is not a device torch knows"), ("cuda:0", "no CUDA device")])
def test_a_device_torch_does_not_know_or_have_is_named(device, says):
    pytest.importorskip("torch")
    import torch

    if device.startswith("cuda") and torch.cuda.is_available():
        pytest.skip("this machine has a CUDA device")
    with pytest.raises(ModelNotLoaded, match=f"DONTO_EMBEDDING_DEVICE='{device}'.*{says}"):
        check_device(device)
    with pytest.raises(ModelNotLoaded, match="DONTO_EMBEDDING_DEVICE"):
        _ = Encoder(EmbeddingSettings(device=device)).model
    check_device("cpu")


@pytest.mark.parametrize("command", [["jobs"], ["keys", "list"], ["export"], ["purge"], ["memorize", "notes.txt"]])
def test_a_workspace_no_workspace_can_have_is_refused_before_anything_runs(command, capsys):
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--workspace", "../../etc"])
    assert stopped.value.code == 2
    assert "argument --workspace: a workspace name is 1-64 letters" in capsys.readouterr().err


def test_memorize_reads_every_file_before_it_keeps_any(tmp_path, capsys):
    # Nothing opens Neo4j here: the missing file stops the command before the first is kept.
    kept = tmp_path / "kept.txt"
    kept.write_text("Ann moved to Lisbon.", encoding="utf-8")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("caf\xe9".encode("latin-1"))
    assert main(["memorize", str(kept), str(tmp_path / "missing.txt")]) == 1
    assert capsys.readouterr().err == f"donto: {tmp_path / 'missing.txt'}: No such file or directory\n"
    assert main(["memorize", str(kept), str(latin1)]) == 1
    assert capsys.readouterr().err == (
        f"donto: {latin1}: neither PDF nor UTF-8 text; donto reads PDF, HTML, Markdown, plain text (UTF-8) "
        "and images (PNG, JPEG, WebP, GIF, BMP)\n"
    )


def test_a_file_the_command_cannot_read_or_write_is_one_line_naming_it(tmp_path, capsys):
    missing = tmp_path / "missing.jsonl"
    assert main(["import", "--workspace", "restored", str(missing)]) == 1
    assert capsys.readouterr().err == f"donto: {missing}: No such file or directory\n"


@pytest.mark.parametrize(
    ("uri", "says"),
    [
        ("http://db.example:7474", "NEO4J_URI: the scheme is one of neo4j, neo4j+s, neo4j+ssc, bolt, bolt+s, bolt+ssc"),
        ("bolt://[::1", "NEO4J_URI: not a URI the driver can read"),
        ("bolt://db.example:port", "NEO4J_URI: not a URI the driver can read"),
        ("neo4j+s://", "NEO4J_URI: names no host"),
        ("neo4j+s://admin:hunter2@db.example", "NEO4J_URI: holds a user or password"),
    ],
)
def test_a_neo4j_uri_the_driver_cannot_use_is_refused_without_repeating_it(monkeypatch, uri, says):
    monkeypatch.setenv("NEO4J_URI", uri)
    with pytest.raises(ConfigurationError) as refused:
        load_settings()
    assert str(refused.value).startswith(says)
    assert "hunter2" not in str(refused.value) and "db.example" not in str(refused.value)


@pytest.mark.parametrize("uri", ["neo4j://db.example:7687", "neo4j+s://abc.databases.neo4j.io", "bolt://[::1]:7687"])
def test_routing_direct_and_tls_uris_are_taken(monkeypatch, uri):
    monkeypatch.setenv("NEO4J_URI", uri)
    assert load_settings().neo4j.uri == uri


def test_the_home_is_the_nearest_dot_donto_upwards_or_the_one_donto_home_names(tmp_path, monkeypatch):
    from donto.settings import LocalNeo4jSettings, Settings, find_home

    monkeypatch.delenv("DONTO_HOME", raising=False)
    monkeypatch.delenv("DONTO_NEO4J_HOME", raising=False)
    project, deep, elsewhere = tmp_path / "project", tmp_path / "project" / "a" / "b", tmp_path / "elsewhere"
    (project / ".donto").mkdir(parents=True)
    deep.mkdir(parents=True)
    elsewhere.mkdir()
    monkeypatch.chdir(deep)
    assert find_home() == find_home(deep) and find_home().path == project / ".donto" and find_home().found
    assert LocalNeo4jSettings().home == project / ".donto" / "neo4j"
    assert Settings().admin_key_file == project / ".donto" / "api-key"
    monkeypatch.setenv("DONTO_HOME", str(project / ".donto"))
    assert find_home(elsewhere).path == project / ".donto"
    monkeypatch.setenv("DONTO_HOME", str(elsewhere / "missing"))
    assert not find_home().found and "DONTO_HOME=" in find_home().not_found()


def test_a_command_that_finds_no_home_says_where_it_looked_and_makes_nothing(tmp_path, monkeypatch, capsys):
    for variable in ("DONTO_HOME", "DONTO_NEO4J_HOME", "NEO4J_URI", "DONTO_NEO4J_PASSWORD"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["keys", "list"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"donto: no donto home: DONTO_HOME is unset and there is no .donto/ in {tmp_path}")
    assert said.count("\n") == 1 and not (tmp_path / ".donto").exists()
