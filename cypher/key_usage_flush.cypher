// Adds a batch of counted key use (made in memory by app/auth/usage.py) to the daily (:KeyUsage)
// nodes and sets each bound key's lastUsedAt. The admin key's use is counted under keyId 'admin'.
// The SETs read the properties they write, so Neo4j locks the node first: two processes' batches add up.
// Parameters: $rows (list of {keyId, workspace, day (date), requests, rejected, lastUsedAt (datetime or null)})
// Returns: written (rows written)
UNWIND $rows AS row
MERGE (u:KeyUsage {keyId: row.keyId, workspace: row.workspace, day: row.day})
SET u.requests = coalesce(u.requests, 0) + row.requests,
    u.rejected = coalesce(u.rejected, 0) + row.rejected,
    u.lastUsedAt = CASE WHEN row.lastUsedAt IS NULL OR u.lastUsedAt >= row.lastUsedAt THEN u.lastUsedAt
                        ELSE row.lastUsedAt END
WITH row
OPTIONAL MATCH (k:ApiKey {id: row.keyId})
SET k.lastUsedAt = CASE WHEN row.lastUsedAt IS NULL OR k.lastUsedAt >= row.lastUsedAt THEN k.lastUsedAt
                        ELSE row.lastUsedAt END
RETURN count(*) AS written
