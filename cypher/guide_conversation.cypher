// Browser guide: a conversation as it was said, turn by turn, with the dates donto resolved from
// its relative phrases ("last Saturday" said on 20 November: 14 November).
// Parameters: $workspace, $session (session external id, or null: the session recorded last)
// Returns: one row per turn: seq, speaker, text, occurredAt, dates (list of {phrase, from, to}
//          for passages that resolved a time expression), and the graph: session, hasTurn, turn
CALL () {
  MATCH (s:Session {workspace: $workspace, externalId: $session}) RETURN s
  UNION
  MATCH (s:Session {workspace: $workspace}) WHERE $session IS NULL AND s.externalId IS NOT NULL
  RETURN s ORDER BY s.startedAt DESC, s.externalId LIMIT 1
}
MATCH (s)-[hasTurn:HAS_TURN]->(t:Turn)
OPTIONAL MATCH (t)-[:HAS_PASSAGE]->(p:Passage) WHERE p.dateFrom IS NOT NULL
WITH s, hasTurn, t, collect({phrase: p.datePhrase, from: p.dateFrom, to: p.dateTo}) AS dates
RETURN t.seq AS seq, t.speaker AS speaker, t.text AS text, t.occurredAt AS occurredAt,
       [d IN dates WHERE d.from IS NOT NULL] AS dates, s AS session, hasTurn, t AS turn
ORDER BY seq
