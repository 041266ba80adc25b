// One turn by its donto id, whatever its state: live, or retracted (with when and why); with the
// latest live turn that CORRECTS it, or null.
// Parameters: $workspace, $id (the turn's id)
// Returns: turn ({id, externalId, sessionExternalId, seq, speaker, text, occurredAt, recordedAt,
//          retractedAt, retractionReason, metadata (JSON text), correctedBy ({id, externalId} or null)})
//          — no row when the workspace holds no such turn
MATCH (t:Turn {id: $id})
WHERE t.workspace = $workspace
RETURN t {.id, .externalId, .sessionExternalId, .seq, .speaker, .text, .occurredAt,
          recordedAt: t.txFrom, retractedAt: t.txTo, .retractionReason, .metadata,
          correctedBy: head(COLLECT {
            MATCH (later:Turn)-[:CORRECTS]->(t) WHERE later.txTo IS NULL
            RETURN later {.id, .externalId} ORDER BY later.seq DESC LIMIT 1
          })} AS turn
