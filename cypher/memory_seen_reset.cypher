// Forgets what a session has been shown, so bring_to_mind surfaces it again (after a compaction,
// or on orient). `oriented` also records that the session oriented now.
// Parameters: $workspace, $session, $now (datetime), $oriented (boolean)
// Returns: cleared (count)
MERGE (s:MemorySession {workspace: $workspace, id: $session})
  ON CREATE SET s.startedAt = $now, s.lastSeenAt = $now
SET s.orientedAt = CASE WHEN $oriented THEN $now ELSE s.orientedAt END
WITH s
CALL (s) {
  OPTIONAL MATCH (s)-[m:SURFACED]->()
  DELETE m
  RETURN count(m) AS cleared
}
RETURN cleared
