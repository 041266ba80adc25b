// Is the database answering, and which schema version and embedding model does it carry?
// Parameters: none
// Returns: schemaVersion, embeddingModel (null before the schema was applied)
OPTIONAL MATCH (s:DontoSchema {name: 'donto'})
RETURN s.version AS schemaVersion, s.embeddingModel AS embeddingModel
