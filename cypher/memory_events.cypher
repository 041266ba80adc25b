// A workspace's memory event log, newest first, optionally for one session; keyset-paginated by
// (at, id): the events of one write share its time, so the id orders them.
// Parameters: $workspace, $session (string or null: all), $before_at (datetime or null: from the
//             newest), $before_id (the id of the last event handed out, with $before_at), $limit
// Returns: at, id, sessionId, operation, detail (JSON text)
MATCH (e:MemoryEvent)
WHERE e.workspace = $workspace AND e.at IS NOT NULL AND ($session IS NULL OR e.sessionId = $session)
  AND ($before_at IS NULL OR e.at < $before_at OR (e.at = $before_at AND e.id < $before_id))
RETURN e.at AS at, e.id AS id, e.sessionId AS sessionId, e.operation AS operation, e.detail AS detail
ORDER BY e.at DESC, e.id DESC
LIMIT $limit
