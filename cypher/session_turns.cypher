// A session's turns in order, as said and as donto knew them: those recorded by $known_at and not
// retracted by then, said by $valid_at (a turn with no time of its own counts as said when its
// session started, else when it was recorded; $valid_at null: no cut), strictly between the seqs
// $after and $before (null: open). $latest: the last $limit of them, else the first; handed back
// in order either way. With whether any turn of the same scope lies before and after the page, so
// that a reader can page both ways. Each turn with the latest turn of the same scope that CORRECTS
// it (a correction recorded by $known_at, by a turn live then and said by $valid_at), or null.
// Parameters: $workspace, $session_external_id, $after, $before (integers or null), $latest (boolean),
//             $limit (integer), $valid_at (datetime or null), $known_at (datetime)
// Returns: sessionId, turns (list of {id, externalId, sessionExternalId, seq, speaker, text, occurredAt,
//          recordedAt, retractedAt, retractionReason, metadata (JSON text), correctedBy ({id, externalId}
//          or null)}), earlier, later (booleans)
//          — one row; none for a session the workspace does not hold
MATCH (s:Session {workspace: $workspace, externalId: $session_external_id})
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WHERE t.txFrom <= $known_at AND (t.txTo IS NULL OR t.txTo > $known_at)
    AND ($valid_at IS NULL OR coalesce(t.occurredAt, s.startedAt, t.txFrom) <= $valid_at)
    AND ($after IS NULL OR t.seq > $after) AND ($before IS NULL OR t.seq < $before)
  WITH t ORDER BY CASE WHEN $latest THEN -t.seq ELSE t.seq END
  LIMIT $limit
  WITH t ORDER BY t.seq
  WITH t, COLLECT {
    MATCH (later:Turn)-[c:CORRECTS]->(t)
    WHERE c.txFrom <= $known_at AND later.txFrom <= $known_at AND (later.txTo IS NULL OR later.txTo > $known_at)
      AND ($valid_at IS NULL OR coalesce(later.occurredAt, s.startedAt, later.txFrom) <= $valid_at)
    RETURN later {.id, .externalId} ORDER BY later.seq DESC LIMIT 1
  } AS correctors
  RETURN collect(t {.id, .externalId, .sessionExternalId, .seq, .speaker, .text, .occurredAt,
                    recordedAt: t.txFrom, retractedAt: t.txTo, .retractionReason, .metadata,
                    correctedBy: head(correctors)}) AS turns
}
WITH s, turns, [t IN turns | t.seq] AS seqs
RETURN s.id AS sessionId, turns,
       size(seqs) > 0 AND EXISTS {
         MATCH (s)-[:HAS_TURN]->(u:Turn)
         WHERE u.seq < seqs[0] AND u.txFrom <= $known_at AND (u.txTo IS NULL OR u.txTo > $known_at)
           AND ($valid_at IS NULL OR coalesce(u.occurredAt, s.startedAt, u.txFrom) <= $valid_at)
       } AS earlier,
       size(seqs) > 0 AND EXISTS {
         MATCH (s)-[:HAS_TURN]->(u:Turn)
         WHERE u.seq > seqs[-1] AND u.txFrom <= $known_at AND (u.txTo IS NULL OR u.txTo > $known_at)
           AND ($valid_at IS NULL OR coalesce(u.occurredAt, s.startedAt, u.txFrom) <= $valid_at)
       } AS later
