// Drops one vector index by name (`donto reembed` rebuilds them for a new embedding model).
// Parameters: $name
// Returns: nothing
DROP INDEX $name IF EXISTS
