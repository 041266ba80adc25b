"""The home remembers the addresses `donto up` started on (<home>/config.toml): every command, the
client and the tour run in that home find them; the environment overrides them, and they the defaults.
tests/test_two_homes.py runs two homes side by side on a real Neo4j."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import donto
from donto.cli import main as donto_cli
from donto.home import client_url, find_api, read_record, write_record
from donto.settings import ConfigurationError, LocalNeo4jSettings, load_settings
from support import REPO

ADDRESS_VARIABLES = ("DONTO_URL", "DONTO_HOST", "DONTO_PORT", "DONTO_API_KEY")
NEO4J_PORTS = ("DONTO_NEO4J_BOLT_PORT", "DONTO_NEO4J_HTTP_PORT")


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A project folder with a .donto/ home, the working directory a folder below it; no variable set."""
    for variable in (*ADDRESS_VARIABLES, *NEO4J_PORTS, "DONTO_HOME", "DONTO_NEO4J_HOME", "NEO4J_URI"):
        monkeypatch.delenv(variable, raising=False)
    (tmp_path / "project" / ".donto").mkdir(parents=True)
    (tmp_path / "project" / "notes").mkdir()
    monkeypatch.chdir(tmp_path / "project" / "notes")
    return tmp_path / "project" / ".donto"


def test_the_record_is_merged_written_whole_and_read_back(home):
    write_record(home, {"DONTO_URL": "http://127.0.0.1:8766", "DONTO_NEO4J_BOLT_PORT": 7688})
    write_record(home, {"DONTO_NEO4J_HTTP_PORT": 7475, "DONTO_HOST": None})
    assert read_record(home) == {
        "DONTO_URL": "http://127.0.0.1:8766",
        "DONTO_NEO4J_BOLT_PORT": 7688,
        "DONTO_NEO4J_HTTP_PORT": 7475,
    }
    text = (home / "config.toml").read_text()
    assert text.startswith("# Written by `donto up`") and 'DONTO_URL = "http://127.0.0.1:8766"' in text
    assert [p.name for p in home.iterdir()] == ["config.toml"]  # no temporary file left beside it


def test_every_command_finds_the_recorded_ports_and_the_environment_overrides_them(home, monkeypatch):
    assert (LocalNeo4jSettings().bolt_port, LocalNeo4jSettings().http_port) == (7687, 7474)  # nothing recorded
    assert load_settings().api_address().url == "http://127.0.0.1:8765"
    write_record(
        home, {"DONTO_URL": "http://127.0.0.1:8766", "DONTO_NEO4J_BOLT_PORT": 7688, "DONTO_NEO4J_HTTP_PORT": 7475}
    )
    settings = load_settings()
    assert settings.local_neo4j.bolt_uri == "bolt://127.0.0.1:7688" and settings.local_neo4j.http_port == 7475
    assert (settings.api_address().host, settings.api_address().port) == ("127.0.0.1", 8766)
    monkeypatch.setenv("DONTO_NEO4J_BOLT_PORT", "7699")
    assert load_settings().local_neo4j.bolt_port == 7699 and load_settings().local_neo4j.http_port == 7475


def test_the_apis_address_comes_whole_from_the_environment_or_whole_from_the_home(home, monkeypatch):
    write_record(home, {"DONTO_URL": "http://127.0.0.1:8766", "DONTO_HOST": "0.0.0.0"})
    assert load_settings().api_address() == find_api(None, None, None)
    assert (find_api(None, None, None).host, find_api(None, None, None).url) == ("0.0.0.0", "http://127.0.0.1:8766")
    monkeypatch.setenv("DONTO_PORT", "9001")  # the older name: listens there, and clients are sent there
    assert load_settings().api_address().url == "http://127.0.0.1:9001" == client_url()
    assert load_settings().api_address().host == "127.0.0.1"  # not the home's 0.0.0.0
    monkeypatch.delenv("DONTO_PORT")
    monkeypatch.setenv("DONTO_URL", "http://127.0.0.1:9002")
    assert (load_settings().api_address().port, client_url()) == (9002, "http://127.0.0.1:9002")
    assert load_settings().api_address(port=9003).url == "http://127.0.0.1:9002"  # --port: where it listens only


def test_a_proxied_url_keeps_its_own_address_and_the_listen_port_is_recorded_beside_it():
    behind = find_api("https://memory.example.com/", "0.0.0.0", 8765)
    assert (behind.host, behind.port, behind.url) == ("0.0.0.0", 8765, "https://memory.example.com")
    assert behind.variables == {"DONTO_URL": "https://memory.example.com", "DONTO_HOST": "0.0.0.0", "DONTO_PORT": 8765}
    plain = find_api(None, None, 8766)
    assert plain.variables == {"DONTO_URL": "http://127.0.0.1:8766", "DONTO_HOST": None, "DONTO_PORT": None}


def test_the_client_finds_the_address_and_key_of_its_home_or_of_the_home_donto_home_names(home, tmp_path, monkeypatch):
    with pytest.raises(donto.NoAddress, match=f"the home {home} records no address"):
        donto.Client()  # a home `donto up` never ran in: no guessed default port
    write_record(home, {"DONTO_URL": "http://127.0.0.1:8766"})
    (home / "api-key").write_text("donto_admin_kept\n")
    with donto.Client() as memory:
        assert memory.base_url == "http://127.0.0.1:8766"
        assert memory._http.headers["Authorization"] == "Bearer donto_admin_kept"
    other = tmp_path / "other" / ".donto"
    write_record(other, {"DONTO_URL": "http://127.0.0.1:8799"})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DONTO_HOME", str(other))
    assert donto.AsyncClient().base_url == "http://127.0.0.1:8799"
    monkeypatch.setenv("DONTO_URL", "http://127.0.0.1:8800/")
    assert donto.Client().base_url == "http://127.0.0.1:8800"


def test_a_record_donto_cannot_read_is_named_with_what_to_do(home, capsys):
    (home / "config.toml").write_text("DONTO_URL = \n")
    assert donto_cli(["keys", "list"]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"donto: {home / 'config.toml'}: cannot be read") and "fix or delete it" in said


@pytest.mark.parametrize("url", ["127.0.0.1:8765", "ftp://127.0.0.1:8765", "http://:8765", "http://h:port"])
def test_a_donto_url_that_is_no_http_url_is_named(monkeypatch, url):
    monkeypatch.setenv("DONTO_URL", url)
    with pytest.raises(ConfigurationError, match="^DONTO_URL: "):
        load_settings()


def test_up_refuses_a_taken_api_port_at_once_naming_it_and_records_nothing(home, monkeypatch, capsys):
    # NEO4J_URI: no local Neo4j to install or start, so the refusal is all there is to see (with the local
    # one, tests/test_two_homes.py shows no Neo4j is started either).
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        began = time.monotonic()
        assert donto_cli(["up", "--port", str(port)]) == 1
        assert donto_cli(["serve", "--port", str(port)]) == 1
    assert time.monotonic() - began < 5  # before the app, its model and Neo4j
    said = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 (the API) is already in use by another process" in said
    assert said.count("nothing was started") == 2
    assert not (home / "config.toml").exists()


def test_donto_env_prints_this_homes_address_and_key_for_a_shell_and_never_the_key(home, tmp_path, monkeypatch, capsys):
    assert donto_cli(["env"]) == 2  # `donto up` never ran here: nothing recorded
    assert f"{home} records no API address" in capsys.readouterr().err
    write_record(home, {"DONTO_URL": "http://127.0.0.1:8766"})
    (home / "api-key").write_text("donto_admin_kept\n")
    monkeypatch.setenv("DONTO_URL", "http://127.0.0.1:8765")  # left over from another copy: replaced, and said
    assert donto_cli(["env"]) == 0
    said = capsys.readouterr()
    assert "donto_admin_kept" not in said.out  # read by the line, not printed
    assert said.out.splitlines() == [
        f"# donto home {home}",
        "export DONTO_URL=http://127.0.0.1:8766",
        f'export DONTO_API_KEY="$(cat {home / "api-key"})"',
    ]
    assert "DONTO_URL was http://127.0.0.1:8765: these lines replace it" in said.err
    shell = subprocess.run(
        ["bash", "-c", 'eval "$1"; echo "$DONTO_URL $DONTO_API_KEY"', "-", said.out], capture_output=True, text=True
    )
    assert shell.stdout.split() == ["http://127.0.0.1:8766", "donto_admin_kept"]
    monkeypatch.chdir(tmp_path)  # outside any home: refused, naming where it looked
    assert donto_cli(["env"]) == 2
    assert capsys.readouterr().err.startswith("donto: no donto home: DONTO_HOME is unset")


def test_the_tour_outside_any_home_stops_before_sending_anything(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DONTO_")} | {"DONTO_API_KEY": "donto_admin_x"}
    run = subprocess.run(
        [sys.executable, str(REPO / "examples" / "tour.py")], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("no donto address: DONTO_URL is unset and there is no donto home"), run.stderr


@pytest.mark.parametrize("command", [["keys", "list"], ["mcp"]])
def test_outside_any_home_a_command_with_only_a_password_guesses_no_neo4j_port(
    home, tmp_path, monkeypatch, capsys, command
):
    """The CLI's and `donto mcp`'s address is Neo4j's: with DONTO_NEO4J_PASSWORD but no home and no port
    it went to 127.0.0.1:7687, whoever's Neo4j that is."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DONTO_NEO4J_PASSWORD", "secret")
    monkeypatch.setenv("DONTO_MCP_KEY", "k")
    assert donto_cli(command) == 2
    said = capsys.readouterr().err
    assert said.startswith("donto: no Neo4j address: NEO4J_URI and DONTO_NEO4J_BOLT_PORT are unset and no donto home")
    assert "nothing was contacted" in said
