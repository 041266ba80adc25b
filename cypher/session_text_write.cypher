// Derives each session's text for the session full-text index: its live turns that say something,
// as "speaker: text" lines in order, with when that text was last changed (a turn recorded or
// retracted) and when its last turn was said, so that an as-of recall can tell whether it may use
// that text. Run after every episode write and turn retraction, and by `donto reembed`.
// Parameters: $session_ids (list of session ids)
// Returns: sessions (how many were written)
UNWIND $session_ids AS sessionId
MATCH (s:Session {id: sessionId})
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH t ORDER BY t.seq
  WITH [t IN collect(t) WHERE t.txTo IS NULL AND trim(t.text) <> ''] AS ordered,
       max(coalesce(t.txTo, t.txFrom)) AS textRecordedAt,
       max(CASE WHEN t.txTo IS NULL THEN t.occurredAt END) AS lastSaidAt
  SET s.text = reduce(lines = '', t IN ordered |
                      lines + CASE WHEN lines = '' THEN '' ELSE '\n' END + coalesce(t.speaker + ': ', '') + t.text),
      s.textRecordedAt = textRecordedAt, s.lastSaidAt = lastSaidAt
}
RETURN count(s) AS sessions
