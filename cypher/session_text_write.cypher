// Derives each session's text for the session full-text index: its turns as "speaker: text"
// lines in order, with when the last of them was recorded and said, so that an as-of recall can
// tell whether it may use that text. Run after every episode write and by `donto reembed`.
// Parameters: $session_ids (list of session ids)
// Returns: sessions (how many were written)
UNWIND $session_ids AS sessionId
MATCH (s:Session {id: sessionId})
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH t ORDER BY t.seq
  WITH collect(t) AS ordered, max(t.txFrom) AS textRecordedAt, max(t.occurredAt) AS lastSaidAt
  SET s.text = reduce(lines = '', t IN ordered |
                      lines + CASE WHEN lines = '' THEN '' ELSE '\n' END + coalesce(t.speaker + ': ', '') + t.text),
      s.textRecordedAt = textRecordedAt, s.lastSaidAt = lastSaidAt
}
RETURN count(s) AS sessions
