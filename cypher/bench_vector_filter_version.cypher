// Bench: which Neo4j version a server runs (the vector-filter bench compares two).
// Parameters: none
// Returns: version
CALL dbms.components() YIELD name, versions
WHERE name = 'Neo4j Kernel'
RETURN versions[0] AS version
