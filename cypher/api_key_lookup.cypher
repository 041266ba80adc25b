// Which key is this, which workspace is it bound to, and is it revoked?
// Parameters: $key_hash (sha256 of the presented key)
// Returns: id, workspace, revokedAt (null while the key is live) — no row for an unknown key
MATCH (k:ApiKey {keyHash: $key_hash})
RETURN k.id AS id, k.workspace AS workspace, k.revokedAt AS revokedAt
