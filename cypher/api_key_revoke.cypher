// Revokes a key: from this commit on, a request with it is refused. Revoking it again changes nothing.
// Reading revokedAt inside SET takes the node's write lock first, so of two racing revocations one sets it.
// Parameters: $id, $now (datetime)
// Returns: id, workspace, revokedAt, revokedNow (false: it was revoked before) — no row for an unknown id
MATCH (k:ApiKey {id: $id})
SET k.revokedAt = coalesce(k.revokedAt, $now)
RETURN k.id AS id, k.workspace AS workspace, k.revokedAt AS revokedAt, k.revokedAt = $now AS revokedNow
