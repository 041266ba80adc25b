// The dimensions of donto's vector indexes (to check they fit the configured embedding model).
// Parameters: $names (list of index names)
// Returns: name, dimensions
SHOW VECTOR INDEXES YIELD name, options
WHERE name IN $names
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions
