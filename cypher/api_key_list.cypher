// Every API key, or one workspace's, oldest first: never the key itself, only its first characters
// (or, for a key made before they were kept, the first 8 hex digits of its sha256).
// Parameters: $workspace (null: every workspace)
// Returns: id, workspace, fingerprint, createdAt, lastUsedAt, revokedAt, replacedBy, replaces
MATCH (k:ApiKey)
WHERE k.createdAt IS NOT NULL AND ($workspace IS NULL OR k.workspace = $workspace)
RETURN k.id AS id, k.workspace AS workspace, coalesce(k.prefix, 'sha256:' + substring(k.keyHash, 0, 8)) AS fingerprint,
       k.createdAt AS createdAt, k.lastUsedAt AS lastUsedAt, k.revokedAt AS revokedAt,
       k.replacedBy AS replacedBy, k.replaces AS replaces
ORDER BY createdAt, id
