// Rotates a key in one transaction: the old key is revoked and a new one for the same workspace
// replaces it (old.replacedBy, new.replaces). A revoked key is not rotated: no new key is made.
// Reading old.revokedAt inside SET takes the node's write lock first, so two rotations cannot both win.
// Parameters: $id (the key to rotate), $new_id, $key_hash, $prefix (of the new key), $now (datetime)
// Returns: id, workspace, revokedAt, rotated (false: it was revoked before) — no row for an unknown id
MATCH (old:ApiKey {id: $id})
SET old.replacedBy = CASE WHEN old.revokedAt IS NULL THEN $new_id ELSE old.replacedBy END,
    old.revokedAt = coalesce(old.revokedAt, $now)
WITH old, old.replacedBy = $new_id AS rotated
FOREACH (_ IN CASE WHEN rotated THEN [1] ELSE [] END |
  CREATE (:ApiKey {id: $new_id, keyHash: $key_hash, prefix: $prefix, workspace: old.workspace, createdAt: $now,
                   replaces: old.id}))
RETURN old.id AS id, old.workspace AS workspace, old.revokedAt AS revokedAt, rotated
