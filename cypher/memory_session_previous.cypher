// The workspace's most recently active memory session other than this one: where a new session_id
// appears, the previous session ended (sessions are never closed explicitly).
// Parameters: $workspace, $session
// Returns: id, startedAt, lastSeenAt
MATCH (s:MemorySession)
WHERE s.workspace = $workspace AND s.id <> $session
RETURN s.id AS id, s.startedAt AS startedAt, s.lastSeenAt AS lastSeenAt
ORDER BY s.lastSeenAt DESC
LIMIT 1
