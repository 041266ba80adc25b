// Undoes a merge: removes the ABOUT and UNDERSTANDS edges it added, takes the duplicate's names back from the
// primary, and makes the duplicate a (:Subject) again (the service has checked its name is free).
// Parameters: $workspace, $merge_id, $recorded_at (datetime)
// Returns: removed (edges), primary, duplicate (names)
MATCH (d:MergedSubject {mergeId: $merge_id})-[m:MERGED_INTO]->(p:Subject)
WHERE d.workspace = $workspace
CALL (p) {
  MATCH (:Observation|Understanding)-[e:ABOUT|UNDERSTANDS {mergeId: $merge_id}]->(p)
  DELETE e
  RETURN count(e) AS removed
}
SET p.aliases = [a IN p.aliases WHERE NOT a IN d.mergedAliases],
    p.aliasKeys = [k IN p.aliasKeys WHERE NOT k IN d.mergedAliasKeys],
    p.version = p.version + 1, p.updatedAt = $recorded_at
DELETE m
REMOVE d:MergedSubject, d.mergeId, d.mergedAliases, d.mergedAliasKeys, d.mergedAt
SET d:Subject, d.updatedAt = $recorded_at, d.version = d.version + 1
RETURN removed, p.name AS primary, d.name AS duplicate
