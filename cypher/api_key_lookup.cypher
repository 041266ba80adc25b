// Which workspace is this key bound to?
// Parameters: $key_hash (sha256 of the presented key)
// Returns: id, workspace — no row for an unknown key
MATCH (k:ApiKey {keyHash: $key_hash})
WHERE k.revokedAt IS NULL
RETURN k.id AS id, k.workspace AS workspace
