// Is the database answering, and which schema version does it carry?
// Parameters: none
// Returns: schemaVersion (null before the schema was applied)
OPTIONAL MATCH (s:DontoSchema {name: 'donto'})
RETURN s.version AS schemaVersion
