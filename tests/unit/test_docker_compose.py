"""docker-compose.yml and the Dockerfile agree with app/settings.py: the variables the API container
gets are ones donto reads, and the Neo4j container is the version and size the local server is."""

from __future__ import annotations

import re
import tomllib

import pytest
import yaml
from pydantic_settings import BaseSettings

from donto.home import DEFAULT_PORT
from donto.neo4j_local import LocalNeo4j
from donto.settings import LocalNeo4jSettings, Settings
from support import REPO

COMPOSE = REPO / "docker-compose.yml"
DOCKERFILE = REPO / "Dockerfile"


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load(COMPOSE.read_text())["services"]


def default(settings_class: type[BaseSettings], field: str):
    """The code's default, not whatever DONTO_* variables this shell happens to set."""
    value = settings_class.model_fields[field].default
    return value.get_secret_value() if hasattr(value, "get_secret_value") else value


def variables_donto_reads() -> set[str]:
    names = set()
    for field in Settings.model_fields.values():
        group = field.annotation
        prefix = group.model_config.get("env_prefix", "")
        names |= {(prefix + name).upper() for name in group.model_fields}
    return names


def test_api_environment_is_what_settings_reads(services):
    environment = services["api"]["environment"]
    assert set(environment) <= variables_donto_reads(), set(environment) - variables_donto_reads()
    assert {"NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE", "DONTO_API_KEY"} <= set(environment)
    assert environment["NEO4J_URI"] == "bolt://neo4j:7687"  # the neo4j service on its Bolt port
    assert environment["NEO4J_DATABASE"] == default(Settings.model_fields["neo4j"].annotation, "database")
    assert "${DONTO_API_KEY" in environment["DONTO_API_KEY"]  # never a key written into the file


def test_neo4j_password_is_the_same_on_both_sides(services):
    api = services["api"]["environment"]
    user, _, password = services["neo4j"]["environment"]["NEO4J_AUTH"].partition("/")
    assert user == api["NEO4J_USER"] == "neo4j"
    assert password == api["NEO4J_PASSWORD"] == "${NEO4J_PASSWORD:?set NEO4J_PASSWORD}"  # no default secret


def test_neo4j_image_is_the_local_servers_version(services):
    assert services["neo4j"]["image"] == f"neo4j:{default(LocalNeo4jSettings, 'version')}-community"
    published = {port.rsplit(":", 1)[-1] for port in services["neo4j"]["ports"]}
    assert published == {"7474", "7687"}
    assert services["api"]["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert "healthcheck" in services["neo4j"]


def test_neo4j_memory_matches_the_local_server(services, tmp_path):
    # NEO4J_server_memory_heap_max__size -> server.memory.heap.max_size (the image's naming rule)
    environment = services["neo4j"]["environment"]
    settings = {
        name[len("NEO4J_") :].replace("__", "\0").replace("_", ".").replace("\0", "_"): str(value)
        for name, value in environment.items()
        if name.startswith(("NEO4J_server_memory_", "NEO4J_db_tx__log_"))
    }
    heap, pagecache = default(LocalNeo4jSettings, "heap"), default(LocalNeo4jSettings, "pagecache")
    tx_log = default(LocalNeo4jSettings, "tx_log_size")
    assert settings == {
        "server.memory.heap.initial_size": heap,
        "server.memory.heap.max_size": heap,
        "server.memory.pagecache.size": pagecache,
        "db.tx_log.rotation.size": tx_log,
    }
    # ...and they are the very keys the local server's neo4j.conf sets.
    local = LocalNeo4j(LocalNeo4jSettings(home=tmp_path, heap=heap, pagecache=pagecache, tx_log_size=tx_log))
    local._write_conf()
    conf = dict(line.split("=", 1) for line in (tmp_path / "conf" / "neo4j.conf").read_text().splitlines())
    assert {key: conf[key] for key in settings} == settings


def test_api_port_matches_settings(services):
    port = str(DEFAULT_PORT)  # where the API listens when neither the environment nor a home says
    api = services["api"]
    assert api["ports"] == [f"127.0.0.1:{port}:{port}"]  # published on loopback only
    assert api["command"] == ["donto", "serve", "--host", "0.0.0.0", "--port", port]
    assert f'"--port", "{port}"' in DOCKERFILE.read_text()


def test_dockerfile_copies_every_package_folder(services):
    """The image installs donto (not editable) from explicit COPY lines: every top-level folder a
    package is built from must be copied."""
    assert services["api"]["build"] == "."
    dockerfile = DOCKERFILE.read_text()
    assert dockerfile.startswith("#") and "FROM python:3.11-slim" in dockerfile
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = setuptools.get("package-dir", {})

    def folder(package: str) -> str:  # the repository folder a package is built from (longest mapped prefix)
        owner = max((m for m in mapped if package == m or package.startswith(m + ".")), key=len, default=package)
        return mapped.get(owner, owner).split("/")[0].split(".")[0]

    folders = {folder(package) for package in setuptools["packages"]}
    assert folders == {"app", "extraction", "cypher"}
    copied = set(re.findall(r"^COPY (\w+) ", dockerfile, re.MULTILINE))
    assert folders <= copied, folders - copied
    assert "pip install -e" not in dockerfile
