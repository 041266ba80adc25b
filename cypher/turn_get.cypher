// One turn by its donto id, whatever its state: live, or retracted (with when and why).
// Parameters: $workspace, $id (the turn's id)
// Returns: turn ({id, externalId, sessionExternalId, seq, speaker, text, occurredAt, recordedAt,
//          retractedAt, retractionReason, metadata (JSON text)}) — no row when the workspace holds no such turn
MATCH (t:Turn {id: $id})
WHERE t.workspace = $workspace
RETURN t {.id, .externalId, .sessionExternalId, .seq, .speaker, .text, .occurredAt,
          recordedAt: t.txFrom, retractedAt: t.txTo, .retractionReason, .metadata} AS turn
