// Retracts a document revision: closes the transaction time of the revision and of its passages at
// $recorded_at, so that no read or recall as known then or later finds them, while reads as known
// before still do. Nothing is deleted (purge erases). A revision no longer live (retracted, or
// replaced by a later revision) is left as it is: wasLive = false says so.
// Parameters: $workspace, $id (a revision's id), $recorded_at (datetime), $reason (string or null)
// Returns: id, externalId, wasLive (boolean), retractedAt (datetime: this retraction's, else when it stopped
//          being live) — no row when the workspace holds no such revision
MATCH (d:Document {id: $id})
WHERE d.workspace = $workspace
WITH d, d.txTo IS NULL AS wasLive
SET d.txTo = CASE WHEN wasLive THEN $recorded_at ELSE d.txTo END,
    d.retractedAt = CASE WHEN wasLive THEN $recorded_at ELSE d.retractedAt END,
    d.retractionReason = CASE WHEN wasLive THEN $reason ELSE d.retractionReason END
WITH d, wasLive
CALL (d, wasLive) {
  MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
  WHERE wasLive AND p.txTo IS NULL
  SET p.txTo = $recorded_at
}
RETURN d.id AS id, d.externalId AS externalId, wasLive, d.txTo AS retractedAt
