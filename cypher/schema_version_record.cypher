// Records which version of schema.cypher this database has, and the embedding model its vectors
// come from (read by GET /health).
// Parameters: $version (integer), $embedding_model (string), $embedding_dimensions (integer)
// Returns: version
MERGE (s:DontoSchema {name: 'donto'})
SET s.version = $version, s.embeddingModel = $embedding_model, s.embeddingDimensions = $embedding_dimensions
RETURN s.version AS version
