"""donto installs as a package: the wheel carries every query, the schema and the Neo4j pom, and
finds them by importlib.resources from wherever it is installed (not from a checkout)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import donto
from donto.graph.queries import schema_text, schema_version
from support import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(out),
            str(REPO),
        ],
        check=True,
        capture_output=True,
    )
    [built] = out.glob("donto_memory-*.whl")
    return built


def test_pyproject_lists_every_package_in_the_tree():
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    installed_as = {"app": "donto", "extraction": "donto.extraction"}
    in_tree = {
        ".".join([installed_as[folder], *p.parent.relative_to(REPO / folder).parts])
        for folder in installed_as
        for p in (REPO / folder).rglob("__init__.py")
    }
    in_tree.add("donto.cypher")  # cypher/ installs as donto.cypher (package-dir)
    assert set(setuptools["packages"]) == in_tree
    assert setuptools["package-dir"] == {"donto": "app", "donto.extraction": "extraction", "donto.cypher": "cypher"}


def test_the_wheel_installs_one_top_level_package_donto(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"donto"}
    assert "donto/__main__.py" in names and "donto/extraction/engine.py" in names


def test_the_wheel_carries_every_query_the_schema_and_the_pom(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    queries = {f"donto/cypher/{p.name}" for p in (REPO / "cypher").glob("*.cypher")}
    assert "donto/cypher/schema.cypher" in queries and len(queries) > 30
    assert queries <= names, queries - names
    assert "donto/neo4j_local/pom.xml" in names
    assert not any(n.startswith(("bench/", "tests/")) for n in names)
    assert f"donto_memory-{donto.__version__}.dist-info/METADATA" in names


def test_an_installed_copy_finds_its_queries_without_the_checkout(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = (
        "import donto.graph.queries as q; lib = q.QueryLibrary();"
        f"print(len(lib.names()), q.schema_version(q.schema_text()), str(q.cypher_files()).startswith({str(site)!r}))"
    )
    # -S: no site-packages, so nothing but the unpacked wheel (and the stdlib) can be imported.
    done = subprocess.run(
        [sys.executable, "-S", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {probe}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    count, version, located = done.stdout.split()
    assert int(count) == len(list((REPO / "cypher").glob("*.cypher"))) - 1  # all but schema.cypher
    assert (int(version), located) == (schema_version(schema_text()), "True")


def test_a_folder_named_donto_beside_a_script_does_not_hide_the_installed_package(tmp_path):
    """A checkout cloned as `donto/`, with a script run from the folder that holds it: Python must
    still import the installed package, not take the folder for a namespace package."""
    (tmp_path / "donto").mkdir()
    (tmp_path / "donto" / "README.md").write_text("a checkout, or anything else named donto")
    done = subprocess.run(
        [sys.executable, "-c", "import donto; print(donto.__version__, donto.Client.__name__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [donto.__version__, "Client"]


def test_the_wheels_client_installs_into_a_fresh_virtualenv_and_imports(wheel, tmp_path):
    """The install line the README gives until donto is on PyPI: the wheel `make wheel` builds, installed
    with pip into a virtualenv of its own (its dependencies, httpx and pydantic, lent by this one)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    [site] = (venv / "lib").glob("python3*/site-packages")
    lent = {str(Path(module.__file__).parent.parent) for module in (__import__("httpx"), __import__("pydantic"))}
    lent |= {str(Path(__import__("pydantic_core").__file__).parent.parent)}
    (site / "lent.pth").write_text("\n".join(sorted(lent)) + "\n")  # after the venv's own: its donto comes first
    probe = "import donto; print(donto.Client.__name__, donto.AsyncClient.__name__, donto.__file__)"
    done = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    client, async_client, location = done.stdout.split()
    assert (client, async_client) == ("Client", "AsyncClient") and Path(location).is_relative_to(site)
    assert (venv / "bin" / "donto").is_file()
