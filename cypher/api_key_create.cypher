// Stores an API key bound to a workspace (only its sha256 and its first characters are kept).
// Parameters: $key_hash, $prefix (the key's first characters, shown by `donto keys list`), $workspace, $id,
//             $created_at (datetime)
// Returns: id, workspace
CREATE (k:ApiKey {id: $id, keyHash: $key_hash, prefix: $prefix, workspace: $workspace, createdAt: $created_at})
RETURN k.id AS id, k.workspace AS workspace
