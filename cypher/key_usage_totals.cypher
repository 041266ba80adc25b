// What the counted use of some keys adds up to, in every workspace or in one.
// Parameters: $ids (key ids; 'admin' is the admin key), $workspace (null: every workspace)
// Returns: keyId, requests, rejected, lastUsedAt — no row for a key with no counted use
UNWIND $ids AS id
MATCH (u:KeyUsage {keyId: id})
WHERE $workspace IS NULL OR u.workspace = $workspace
RETURN id AS keyId, sum(u.requests) AS requests, sum(u.rejected) AS rejected, max(u.lastUsedAt) AS lastUsedAt
