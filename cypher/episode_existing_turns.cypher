// What donto already holds of a session: its start, its turns (to keep re-posts idempotent) and
// its last turn (the next one's seq follows it; it is the next one's context unless retracted).
// Parameters: $workspace, $session_external_id
// Returns: sessionId, startedAt, turns (list of {externalId, id, seq}), lastTurn ({id, seq, speaker,
//          text, retracted (boolean)} or null) — no row for a new session
MATCH (s:Session {workspace: $workspace, externalId: $session_external_id})
CALL (s) {
  OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH t ORDER BY t.seq DESC LIMIT 1
  RETURN CASE WHEN t IS NULL THEN null ELSE t {.id, .seq, .speaker, .text, retracted: t.txTo IS NOT NULL} END AS lastTurn
}
RETURN s.id AS sessionId, s.startedAt AS startedAt, lastTurn,
       [(s)-[:HAS_TURN]->(t:Turn) | {externalId: t.externalId, id: t.id, seq: t.seq}] AS turns
