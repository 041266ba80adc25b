// What donto already holds of a session: its start and its turns (to keep re-posts idempotent).
// Parameters: $workspace, $session_external_id
// Returns: sessionId, startedAt, turns (list of {externalId, id, seq}) — no row for a new session
MATCH (s:Session {workspace: $workspace, externalId: $session_external_id})
RETURN s.id AS sessionId, s.startedAt AS startedAt,
       [(s)-[:HAS_TURN]->(t:Turn) | {externalId: t.externalId, id: t.id, seq: t.seq}] AS turns
