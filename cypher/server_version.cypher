// Which Neo4j version the server runs: donto refuses one older than the line it supports
// (GraphClient.verify, on connecting).
// Parameters: none
// Returns: version (e.g. "2026.08.1")
CALL dbms.components() YIELD name, versions
WHERE name = 'Neo4j Kernel'
RETURN versions[0] AS version
