// Clears a session: retracts every turn of it that is live, closing the transaction time of each and
// of its passages at $recorded_at, as turn_retract does for one. The session itself stays (new turns
// may follow); turns retracted before keep their first retraction.
// (session_text_write then derives the session's text again, in the same transaction.)
// Parameters: $workspace, $session_external_id, $recorded_at (datetime), $reason (string or null)
// Returns: sessionId, retracted (how many turns this retracted) — no row for a session the workspace does not hold
MATCH (s:Session {workspace: $workspace, externalId: $session_external_id})
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WHERE t.txTo IS NULL
  SET t.txTo = $recorded_at, t.retractionReason = $reason
  WITH t
  CALL (t) {
    MATCH (t)-[:HAS_PASSAGE]->(p:Passage)
    WHERE p.txTo IS NULL
    SET p.txTo = $recorded_at
  }
  RETURN count(t) AS retracted
}
RETURN s.id AS sessionId, retracted
