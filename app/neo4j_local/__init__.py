"""donto's local Neo4j Community server (jars from Maven Central, one JVM donto starts and stops)."""

from donto.neo4j_local.server import (
    LocalNeo4j,
    LocalNeo4jError,
    LocalNeo4jStatus,
    PortInUseError,
    throwaway_server,
)

__all__ = ["LocalNeo4j", "LocalNeo4jError", "LocalNeo4jStatus", "PortInUseError", "throwaway_server"]
