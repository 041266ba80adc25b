// A workspace's memory event log, newest first, optionally for one session.
// Parameters: $workspace, $session (string or null: all), $limit
// Returns: at, sessionId, operation, detail (JSON text)
MATCH (e:MemoryEvent)
WHERE e.workspace = $workspace AND e.at IS NOT NULL AND ($session IS NULL OR e.sessionId = $session)
RETURN e.at AS at, e.sessionId AS sessionId, e.operation AS operation, e.detail AS detail
ORDER BY e.at DESC
LIMIT $limit
