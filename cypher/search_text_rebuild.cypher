// Re-derives what the full-text indexes read besides each node's own text: every session's text
// (its turns as "speaker: text" lines, in order) and every passage's speaker. For graphs written
// before those existed; run by `donto reembed`.
// Parameters: none
// Returns: sessions (how many were rewritten)
MATCH (s:Session)
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  OPTIONAL MATCH (t)-[:HAS_PASSAGE]->(p:Passage)
  SET p.speaker = t.speaker
  WITH DISTINCT t ORDER BY t.seq
  WITH collect(t) AS ordered
  SET s.text = reduce(lines = '', t IN ordered |
                      lines + CASE WHEN lines = '' THEN '' ELSE '\n' END + coalesce(t.speaker + ': ', '') + t.text)
}
RETURN count(s) AS sessions
