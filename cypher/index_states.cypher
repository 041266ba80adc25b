// Every index and how far it is built: ONLINE, POPULATING (after a schema upgrade, `donto reembed`
// or a restore; a query that needs it fails until it is online) or FAILED. Read by GET /health and by
// schema apply, which also name schema.cypher's indexes that are missing.
// Parameters: none
// Returns: name, type (RANGE, VECTOR, FULLTEXT, ...), state, percent (0-100)
SHOW INDEXES YIELD name, type, state, populationPercent
RETURN name, type, state, populationPercent AS percent
ORDER BY name
