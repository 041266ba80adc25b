// Retracts a turn: closes the transaction time of the turn and of its passages at $recorded_at, so
// that no read as of then or later finds it, while reads as of before still do. Nothing is deleted
// (purge erases). A turn already retracted keeps its first retraction (wasLive = false says so).
// (session_text_write then derives its session's text again, in the same transaction.)
// Parameters: $workspace, $id (the turn's id), $recorded_at (datetime), $reason (string or null)
// Returns: id, sessionId, wasLive (boolean), retractedAt (datetime) — no row when the workspace holds no such turn
MATCH (t:Turn {id: $id})
WHERE t.workspace = $workspace
WITH t, t.txTo IS NULL AS wasLive
SET t.txTo = CASE WHEN wasLive THEN $recorded_at ELSE t.txTo END,
    t.retractionReason = CASE WHEN wasLive THEN $reason ELSE t.retractionReason END
WITH t, wasLive
CALL (t, wasLive) {
  MATCH (t)-[:HAS_PASSAGE]->(p:Passage)
  WHERE wasLive AND p.txTo IS NULL
  SET p.txTo = $recorded_at
}
RETURN t.id AS id, t.sessionId AS sessionId, wasLive, t.txTo AS retractedAt
