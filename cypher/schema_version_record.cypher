// Records which version of schema.cypher this database has (read by GET /health).
// Parameters: $version (integer)
// Returns: version
MERGE (s:DontoSchema {name: 'donto'})
SET s.version = $version
RETURN s.version AS version
