"""What pip installed for the check extra (and the test extra, where it is installed) is what donto
needs, and what CI tested.

pip can leave a requirement unmet without failing: lxml 6.1 renamed its `html_clean` extra
`html-clean`, so `lxml[html_clean]` (asked for by trafilatura's justext) installed no cleaner and
every HTML page failed to read. These checks walk the requirements from donto's own, extras
included, through the installed distributions' metadata, and compare the versions with
constraints.txt (what `make install` installs with; `make lock` resolves it anew). `make check`
installs the check extra (no torch); `make test` the test extra over it."""

from __future__ import annotations

import importlib.metadata as metadata
import tomllib
from collections.abc import Iterator

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from support import REPO

ROOT = "donto-memory"


def installed_extras() -> tuple[str, ...]:
    """The check extra (`make check`'s: the server and the docs come with it), and the test extra when
    any requirement of its own is installed (`make test`'s): then all of them must be."""
    own = [Requirement(r) for r in declared()["optional-dependencies"]["test"]]
    own = [r for r in own if canonicalize_name(r.name) != ROOT]
    return ("check", "test") if any(installed(r.name) for r in own) else ("check",)


def installed(name: str) -> bool:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def declared() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def requirements_of(name: str, extras: tuple[str, ...]) -> Iterator[Requirement]:
    """The requirements of an installed distribution that apply here, with `extras` asked for; donto's
    own as this checkout's pyproject.toml declares them (the installed metadata can be an older link's)."""
    if canonicalize_name(name) == ROOT:
        project = declared()
        lines = [*project["dependencies"], *(r for e in extras for r in project["optional-dependencies"][e])]
        yield from (r for r in map(Requirement, lines) if r.marker is None or r.marker.evaluate())
        return
    for line in metadata.requires(name) or []:
        requirement = Requirement(line)
        marker = requirement.marker
        if marker is None or any(marker.evaluate({"extra": extra}) for extra in extras or ("",)):
            yield requirement


def unmet_requirements(extras: tuple[str, ...] | None = None) -> tuple[list[str], dict[str, str]]:
    """Every requirement reachable from donto's `extras` (those installed here, unless named) that is not
    installed, or installed at a version outside its range; and what was reached (name: version)."""
    unmet: list[str] = []
    reached: dict[str, str] = {}
    pending = [(ROOT, extras if extras is not None else installed_extras(), "donto")]
    seen: set[tuple[str, tuple[str, ...]]] = set()
    while pending:
        name, extras, asked_by = pending.pop()
        key = (canonicalize_name(name), extras)
        if key in seen:
            continue
        seen.add(key)
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            unmet.append(f"{name} (asked for by {asked_by}) is not installed")
            continue
        reached[canonicalize_name(name)] = version
        for requirement in requirements_of(name, extras):
            pending.append((requirement.name, tuple(sorted(requirement.extras)), f"{name}[{','.join(extras)}]"))
            try:
                installed = Version(metadata.version(requirement.name))
            except metadata.PackageNotFoundError:
                continue  # reported when popped
            if not requirement.specifier.contains(installed, prereleases=True):
                unmet.append(f"{requirement} (asked for by {name}) but {installed} is installed")
    return unmet, reached


def pinned() -> dict[str, str]:
    lines = (REPO / "constraints.txt").read_text().splitlines()
    pins = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {canonicalize_name(name): version for name, version in pins}


def test_every_requirement_reachable_from_the_installed_extras_is_installed_extras_included():
    unmet, _ = unmet_requirements()
    assert unmet == [], "pip left these unmet (run `make install` again, or declare the package):\n" + "\n".join(unmet)


def test_the_installed_versions_are_the_ones_constraints_txt_pins():
    _, reached = unmet_requirements()
    pins = pinned()
    reached.pop(ROOT)
    unpinned = sorted(set(reached) - set(pins))
    assert unpinned == [], f"installed but not in constraints.txt (run `make lock`): {unpinned}"
    differ = {name: (v, pins[name]) for name, v in reached.items() if Version(v) != Version(pins[name])}
    assert differ == {}, f"installed (left) is not what constraints.txt pins (right): {differ}"


def test_the_test_extra_is_walked_where_make_test_installed_it():
    if "test" not in installed_extras():
        pytest.skip("the test extra is not installed here (`make check` installs the check extra; `make test` both)")
    unmet, reached = unmet_requirements()
    assert unmet == [] and "sentence-transformers" in reached


def test_an_extra_spelled_differently_still_finds_its_requirements():
    """The case that broke a fresh install: the extra asked for and the one declared differ only in spelling."""
    requirement = Requirement('lxml_html_clean; extra == "html-clean"')
    assert requirement.marker is not None and requirement.marker.evaluate({"extra": "html_clean"})
