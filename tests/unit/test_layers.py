"""The arrows point one way: shells -> Memory -> services -> graph access -> settings/errors.
Read from the source with ast, so a wrong import fails here before it works by accident."""

from __future__ import annotations

import ast
from pathlib import Path

from support import REPO

SHELLS = ("donto.api", "donto.cli", "donto.mcp")
SERVICES = (
    "donto.analyst",
    "donto.auth",
    "donto.claims",
    "donto.documents",
    "donto.embedding",
    "donto.episodes",
    "donto.explore",
    "donto.identity",
    "donto.jobs",
    "donto.memorize",
    "donto.predicates",
    "donto.recall",
    "donto.subjects",
    "donto.walk",
    "donto.workspaces",
)
# Classes that only the composition root (app/memory.py) constructs.
ASSEMBLED = {
    "AnalystService",
    "GraphClient",
    "Encoder",
    "Workers",
    "JobStore",
    "MemorizeService",
    "ExtractionJobs",
    "WorkspaceService",
    "PortabilityService",
    "PurgeService",
    "ClaimEmbeddings",
    "KeyService",
    "ClaimService",
    "PredicateService",
    "DocumentService",
    "WalkService",
    "ExploreService",
    "IdentityService",
    "EpisodeService",
    "RecallService",
    "SubjectService",
}


# Where each folder of the repository installs (pyproject's package-dir).
INSTALLED_AS = {"app": "donto", "extraction": "donto.extraction", "bench": "bench"}


def module_name(path: Path) -> str:
    folder, *parts = path.relative_to(REPO).with_suffix("").parts
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([INSTALLED_AS[folder], *parts])


def modules(*folders: str) -> dict[str, ast.Module]:
    return {
        module_name(p): ast.parse(p.read_text(), str(p))
        for folder in folders
        for p in sorted((REPO / folder).rglob("*.py"))
    }


def imports(tree: ast.Module) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def reaches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def offending(importers: dict[str, ast.Module], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    bad = {m: sorted(i for i in imports(tree) if reaches(i, forbidden)) for m, tree in importers.items()}
    return {m: found for m, found in bad.items() if found}


def test_extraction_is_a_library_that_imports_nothing_from_app():
    outside = {
        m: sorted(i for i in imports(t) if reaches(i, ("donto",)) and not reaches(i, ("donto.extraction",)))
        for m, t in modules("extraction").items()
    }
    assert {m: found for m, found in outside.items() if found} == {}


def test_the_product_never_imports_the_benchmarks():
    assert offending(modules("app", "extraction"), ("bench",)) == {}


def test_services_know_nothing_of_shells_or_the_root():
    services = {m: t for m, t in modules("app").items() if reaches(m, SERVICES)}
    assert offending(services, (*SHELLS, "donto.memory")) == {}


def test_graph_access_and_the_foundations_import_no_service():
    lower = {
        m: t
        for m, t in modules("app").items()
        if reaches(m, ("donto.graph", "donto.temporal", "donto.settings", "donto.errors", "donto.ids"))
    }
    assert offending(lower, (*SERVICES, *SHELLS, "donto.memory")) == {}


def test_the_framework_adapters_reach_donto_only_through_its_client():
    adapters = {m: t for m, t in modules("app").items() if reaches(m, ("donto.integrations",))}
    assert adapters
    server = ("donto.api.routers", "donto.memory", "donto.graph", *SHELLS[1:], *SERVICES)
    assert offending(adapters, server) == {}


def test_only_the_composition_root_assembles_services():
    builders: dict[str, list[str]] = {}
    for name, tree in modules("app", "bench").items():
        if name == "donto.memory":
            continue
        built = sorted(
            {
                node.func.id
                for node in ast.walk(tree)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ASSEMBLED
            }
        )
        if built:
            builders[name] = built
    assert builders == {}
