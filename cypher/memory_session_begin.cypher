// The memory session a call belongs to (made on first use), as it was before this call, and this
// call's new heartbeat token and time. The service decides from the old state whether the
// client's context was compacted.
// Parameters: $workspace, $session, $token (integer), $now (datetime), $bring (boolean: a bring_to_mind call)
// Returns: created, previousToken, previousBringAt, lastSeenAt, orientedAt, surfaced (count)
MERGE (s:MemorySession {workspace: $workspace, id: $session})
  ON CREATE SET s.startedAt = $now
WITH s, s.startedAt = $now AS created, s.token AS previousToken, s.lastBringAt AS previousBringAt,
     s.lastSeenAt AS lastSeenAt, s.orientedAt AS orientedAt
SET s.lastSeenAt = $now,
    s.token = CASE WHEN $bring THEN $token ELSE s.token END,
    s.lastBringAt = CASE WHEN $bring THEN $now ELSE s.lastBringAt END
RETURN created, previousToken, previousBringAt, lastSeenAt, orientedAt, COUNT { (s)-[:SURFACED]->() } AS surfaced
