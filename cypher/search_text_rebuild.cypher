// Re-derives what the full-text indexes read besides each node's own text: every session's text
// (its turns as "speaker: text" lines, in order, with when the last was recorded and said) and
// every passage's speaker. For graphs written before those existed; run by `donto reembed`.
// Parameters: none
// Returns: sessions (how many were rewritten)
MATCH (s:Session)
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  OPTIONAL MATCH (t)-[:HAS_PASSAGE]->(p:Passage)
  SET p.speaker = t.speaker
  WITH DISTINCT s, t ORDER BY t.seq
  WITH s, collect(t) AS ordered, max(t.txFrom) AS textRecordedAt, max(t.occurredAt) AS lastSaidAt
  SET s.text = reduce(lines = '', t IN ordered |
                      lines + CASE WHEN lines = '' THEN '' ELSE '\n' END + coalesce(t.speaker + ': ', '') + t.text),
      s.textRecordedAt = textRecordedAt, s.lastSaidAt = lastSaidAt
}
RETURN count(s) AS sessions
