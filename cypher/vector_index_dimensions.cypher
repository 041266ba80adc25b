// The dimensions and properties of donto's vector indexes: whether they fit the configured embedding
// model, and whether they carry their filter properties (schema version 7).
// Parameters: $names (list of index names)
// Returns: name, dimensions, properties (the vector's property first, then the filter properties)
SHOW VECTOR INDEXES YIELD name, options, properties
WHERE name IN $names
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions, properties
