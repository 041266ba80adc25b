// Corrections, in the write transaction of claims_write: each new claim that names one it corrects
// becomes that claim's new version. The old claim's transaction time closes at this write's
// (it stays readable as known before; the CORRECTS relation is written by claims_link). A claim
// that was retracted or corrected before keeps its first end (wasLive = false tells the caller,
// which then refuses the whole write).
// Parameters: $workspace, $recorded_at (datetime: the transaction time of this write),
//             $corrections: list of {index (the new claim's place in the request), new, old (claim ids)}
// Returns: index, old, wasLive (boolean), endedAt (the old claim's transaction end), one row per correction
UNWIND $corrections AS correction
MATCH (old:Claim {id: correction.old})
WHERE old.workspace = $workspace
WITH correction, old, old.txTo IS NULL AS wasLive
SET old.txTo = CASE WHEN wasLive THEN $recorded_at ELSE old.txTo END,
    old.retractionReason = CASE WHEN wasLive THEN 'corrected by ' + correction.new ELSE old.retractionReason END
RETURN correction.index AS index, old.id AS old, wasLive, old.txTo AS endedAt
