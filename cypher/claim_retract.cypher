// Retracts a claim: closes its transaction time at $recorded_at. Nothing is deleted; a claim
// already retracted keeps its first retraction (wasLive = false tells the caller).
// Parameters: $workspace, $id, $recorded_at (datetime), $reason (string or null)
// Returns: id, wasLive (boolean), retractedAt (datetime) — no row when the claim does not exist
MATCH (c:Claim {id: $id})
WHERE c.workspace = $workspace
WITH c, c.txTo IS NULL AS wasLive
SET c.txTo = CASE WHEN wasLive THEN $recorded_at ELSE c.txTo END,
    c.retractionReason = CASE WHEN wasLive THEN $reason ELSE c.retractionReason END
RETURN c.id AS id, wasLive, c.txTo AS retractedAt
