// Stores an API key bound to a workspace (only its sha256 is kept).
// Parameters: $key_hash, $workspace, $id, $created_at (datetime)
// Returns: id, workspace
CREATE (k:ApiKey {id: $id, keyHash: $key_hash, workspace: $workspace, createdAt: $created_at})
RETURN k.id AS id, k.workspace AS workspace
