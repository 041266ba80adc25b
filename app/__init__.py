"""donto: graph-database-native memory for AI agents, on Neo4j."""

__version__ = "0.1.0"  # the one place the version is written; pyproject.toml reads it from here
