"""What `make up` installs on a fresh clone: a new virtualenv, the server's dependencies at the pinned
versions and the checkout linked into it, through the Makefile's own targets. A link step that the
virtualenv's bundled setuptools could not build broke `make up` while `make test` (whose extra pulls a
newer setuptools) passed. Packages come from pip's cache where the suite's own install filled it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout_copy(into: Path) -> Path:
    """The working tree's tracked files as they are now (a clone would miss uncommitted changes)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        source, target = ROOT / name, into / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    return into


def test_make_ups_install_on_a_fresh_clone_gives_a_server_that_starts_its_cli_without_pytorch(tmp_path: Path):
    clone = checkout_copy(tmp_path / "donto")
    # A new user's shell: no virtualenv, no donto settings, and no make of ours around it (`make test`
    # runs this test: its MAKELEVEL would have the inner make print "Entering directory").
    ours = ("VIRTUAL_ENV", "DONTO_", "PYTHONPATH", "MAKE", "MFLAGS")
    env = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    python = getattr(sys, "_base_executable", sys.executable)  # the interpreter a new user's python3 is
    made = subprocess.run(
        ["make", "link", f"PYTHON={python}"], cwd=clone, env=env, capture_output=True, text=True, timeout=900
    )
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    # An unchanged checkout relinks nothing: no pip, no setuptools "Please be careful" box (`make up`
    # printed it twice each time); a new module is linked, once.
    again = subprocess.run(["make", "link", f"PYTHON={python}"], cwd=clone, env=env, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout + again.stderr == "", again.stdout + again.stderr
    (clone / "app" / "new_module.py").write_text("ANSWER = 42\n")
    relinked = subprocess.run(["make", "link", f"PYTHON={python}"], cwd=clone, env=env, capture_output=True, text=True)
    assert relinked.returncode == 0 and "pip install" in relinked.stdout, relinked.stdout + relinked.stderr
    new = subprocess.run([clone / ".venv" / "bin" / "python", "-c", "import donto.new_module"], cwd=tmp_path, env=env)
    assert new.returncode == 0

    venv = clone / ".venv" / "bin"
    cli = subprocess.run([venv / "donto", "--help"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert cli.returncode == 0 and "memorize" in cli.stdout, cli.stderr
    imports = "import donto.api.main, donto.mcp.stdio, donto.embedding.onnx_runtime"
    assert subprocess.run([venv / "python", "-c", imports], cwd=tmp_path, env=env).returncode == 0
    no_torch = subprocess.run([venv / "python", "-c", "import torch"], cwd=tmp_path, env=env, capture_output=True)
    assert no_torch.returncode != 0  # the lean server: the default model runs on ONNX Runtime
