// The properties each of donto's full-text indexes covers: since schema version 8 every one ends
// with the nodes' `workspace`, which every full-text query requires.
// Parameters: $names (list of index names)
// Returns: name, properties
SHOW FULLTEXT INDEXES YIELD name, properties
WHERE name IN $names
RETURN name, properties
