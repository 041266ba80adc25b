"""The README is the front door and docs/ the rooms behind it: every relative link in README.md and in
docs/ (a page, a picture, cypher/README.md) names a file that exists, and every file a page includes
with pymdownx.snippets (`--8<-- "path"`, from the repository root) exists too. `mkdocs build --strict`
checks docs/ again with anchors; this test needs no mkdocs and also covers the README, which the site
does not build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support import REPO

pytestmark = pytest.mark.unit

DOCS = REPO / "docs"
PAGES = [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]
FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SNIPPET = re.compile(r"^--8<--\s+\"([^\"]+)\"", re.MULTILINE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
# Files that docs/hooks.py adds to the site when it is built, from the code (the live OpenAPI schema).
GENERATED = {DOCS / "openapi.json"}


def prose(text: str) -> str:
    """The text outside code: a link-like run inside a code block or span is not a link."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def relative_targets(page: Path) -> list[str]:
    targets = []
    for target in LINK.findall(prose(page.read_text())):
        if SCHEME.match(target) or target.startswith(("#", "/")):
            continue  # a URL, an anchor on the same page, or a site-absolute path
        targets.append(target.split("#", 1)[0].split("?", 1)[0])
    return [t for t in targets if t]


def test_the_pages_are_found() -> None:
    assert (REPO / "README.md").is_file()
    assert len(PAGES) > 10, "docs/ holds the documentation pages"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_names_an_existing_file(page: Path) -> None:
    targets = [(t, (page.parent / t).resolve()) for t in relative_targets(page)]
    missing = [t for t, path in targets if not path.exists() and path not in GENERATED]
    assert not missing, f"{page.relative_to(REPO)} links to files that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_included_snippet_exists(page: Path) -> None:
    missing = [s for s in SNIPPET.findall(page.read_text()) if not (REPO / s).is_file()]
    assert not missing, f"{page.relative_to(REPO)} includes files that do not exist: {missing}"


def test_the_readme_links_into_the_docs_and_stays_short() -> None:
    readme = REPO / "README.md"
    targets = relative_targets(readme)
    assert any(t.startswith("docs/") and t.endswith(".md") for t in targets)
    assert "cypher/README.md" in targets
    assert len(readme.read_text().splitlines()) <= 400, "the README is the front door: the rest goes in docs/"


def test_a_broken_link_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](page.md) [gone](nothing-here.md#anchor) ![pic](missing.png) [web](https://example.org/x.md)\n"
        "`[code](not-a-link.md)`\n```\n[fenced](not-a-link-either.md)\n```\n"
    )
    assert relative_targets(page) == ["page.md", "nothing-here.md", "missing.png"]
