// Retracts an identity link: closes its transaction time at $recorded_at. Nothing is deleted, so a
// read as known before now still sees the link; one already retracted keeps its first retraction
// (wasLive = false tells the caller).
// Parameters: $workspace, $id (the link's id), $recorded_at (datetime), $reason (string or null)
// Returns: id, a, b (the keys it links), wasLive (boolean), retractedAt (datetime) — no row when
//          the workspace has no such link
MATCH (a:Entity)-[r:SAME_AS {id: $id}]->(b:Entity)
WHERE a.workspace = $workspace
WITH a, b, r, r.txTo IS NULL AS wasLive
SET r.txTo = CASE WHEN wasLive THEN $recorded_at ELSE r.txTo END,
    r.retractionReason = CASE WHEN wasLive THEN $reason ELSE r.retractionReason END
RETURN r.id AS id, a.key AS a, b.key AS b, wasLive, r.txTo AS retractedAt
