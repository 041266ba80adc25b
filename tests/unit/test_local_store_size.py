"""A local store's transaction log is sized for a local store: Neo4j preallocates each database's log
file whole, 256 MiB by default, so a nearly empty store (neo4j and system) reserved 516 MB up front.
The local server's neo4j.conf asks for 32m a database (about 66 MB in all); DONTO_NEO4J_TX_LOG_SIZE
overrides it."""

from __future__ import annotations

from pathlib import Path

from donto.neo4j_local.server import LocalNeo4j
from donto.settings import LocalNeo4jSettings


def written_conf(settings: LocalNeo4jSettings) -> dict[str, str]:
    LocalNeo4j(settings)._write_conf()
    lines = (settings.home / "conf" / "neo4j.conf").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines)


def test_the_local_servers_transaction_log_is_32m_a_database(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("DONTO_NEO4J_TX_LOG_SIZE", raising=False)
    assert written_conf(LocalNeo4jSettings(home=tmp_path))["db.tx_log.rotation.size"] == "32m"


def test_donto_neo4j_tx_log_size_overrides_it(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("DONTO_NEO4J_TX_LOG_SIZE", "256m")
    assert written_conf(LocalNeo4jSettings(home=tmp_path))["db.tx_log.rotation.size"] == "256m"
