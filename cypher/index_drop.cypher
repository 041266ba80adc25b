// Drops one index by name: a vector index `donto reembed` rebuilds for a new embedding model, or an
// index GraphClient.apply_schema remakes with other labels or properties (schema versions 7, 8 and 9).
// Parameters: $name
// Returns: nothing
DROP INDEX $name IF EXISTS
