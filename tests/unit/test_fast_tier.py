"""The fast tier is fast: `make check` installs the check extra, which reaches no PyTorch, no CUDA
library and no model (the test extra's torch pulled about fifteen CUDA packages, several GB, before the
first unit test), and the unit tests run with torch not importable at all."""

from __future__ import annotations

import os
import subprocess
import sys

from packaging.utils import canonicalize_name
from test_installed_requirements import unmet_requirements
from test_lean_server import REFUSING, extras, our_extras

from support import REPO


def heavy(name: str) -> bool:
    """PyTorch, what runs on it, and NVIDIA's CUDA wheels."""
    name = canonicalize_name(name)
    return name in {"torch", "sentence-transformers", "transformers", "triton"} or name.startswith(("nvidia-", "cuda-"))


def test_the_check_extra_as_declared_names_no_torch():
    declared = extras()
    named = {canonicalize_name(r.name) for extra in our_extras("check") for r in declared[extra]}
    assert sorted(filter(heavy, named)) == []
    assert "torch" not in our_extras("check")


def test_nothing_reachable_from_the_check_extra_is_torch_or_cuda():
    """Walked through the installed distributions' metadata, every dependency of a dependency."""
    _, reached = unmet_requirements(("check",))
    assert "onnxruntime" in reached and "mypy" in reached  # the walk reached the server and the linters
    assert sorted(filter(heavy, reached)) == []


def test_every_unit_test_module_imports_with_torch_refused():
    """Collecting the unit tier imports each of its modules (and what they import of donto's); here in a
    Python where importing torch, sentence-transformers or transformers fails. A test that needs torch
    asks for it inside (pytest.importorskip) and is skipped in the fast tier; the graph tier runs it."""
    collect = "['-m', 'unit', '--collect-only', '-q', '-p', 'no:cacheprovider', 'tests/unit']"
    run = REFUSING + f"import pytest; sys.exit(pytest.main({collect}))"
    done = subprocess.run(
        [sys.executable, "-c", run], cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " tests collected" in done.stdout or "selected" in done.stdout, done.stdout[-1000:]
