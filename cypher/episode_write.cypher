// Writes a session and its new turns, each turn with its sentence passages (offsets into the
// turn text, resolved dates, embeddings), then links the session's turns in order with NEXT.
// (session_text_write then derives the session's text, in the same transaction.)
// A turn already held (same session and turn external id) is left as it was, a retracted one too.
// An empty turn has no passages and no embeddings (null): recall never finds it.
// Parameters: $workspace, $recorded_at (datetime),
//   $session: {id, externalId, startedAt},
//   $turns: list of {id, externalId, speaker, text, occurredAt, seq, sha256, embedding,
//                    contextEmbedding (the turn embedded with the one before it),
//                    metadata (the caller's JSON object as a string, or null),
//                    passages: [{id, text, start, end, dateFrom, dateTo, dateGranularity,
//                                dateTag, dateResolved, datePhrase, dateRecurring, embedding}]}
//   (dateRecurring: a recurring time the passage names, "every second Thursday", else null; no date)
// Returns: sessionId, written (list of {externalId, id, created}, one per turn) — one row
MERGE (s:Session {workspace: $workspace, externalId: $session.externalId})
  ON CREATE SET s.id = $session.id, s.startedAt = $session.startedAt, s.txFrom = $recorded_at
WITH s
CALL (s) {
  UNWIND $turns AS row
  MERGE (t:Turn {workspace: $workspace, sessionExternalId: s.externalId, externalId: row.externalId})
    ON CREATE SET t.id = row.id, t.sessionId = s.id, t.speaker = row.speaker, t.text = row.text,
                  t.occurredAt = row.occurredAt, t.seq = row.seq, t.sha256 = row.sha256,
                  t.embedding = row.embedding, t.contextEmbedding = row.contextEmbedding,
                  t.metadata = row.metadata, t.txFrom = $recorded_at
  WITH s, t, row, t.id = row.id AS created
  CALL (s, t, row, created) {
    WITH s, t, row WHERE created
    CREATE (s)-[:HAS_TURN]->(t)
    WITH t, row
    UNWIND row.passages AS ps
    CREATE (t)-[:HAS_PASSAGE]->(:Passage {
      id: ps.id, workspace: $workspace, turnId: t.id, speaker: t.speaker, text: ps.text, start: ps.start, end: ps.end,
      dateFrom: ps.dateFrom, dateTo: ps.dateTo, dateGranularity: ps.dateGranularity,
      dateTag: ps.dateTag, dateResolved: ps.dateResolved, datePhrase: ps.datePhrase, dateRecurring: ps.dateRecurring,
      embedding: ps.embedding,
      occurredAt: t.occurredAt, txFrom: $recorded_at
    })
  }
  RETURN collect({externalId: row.externalId, id: t.id, created: created}) AS written
}
CALL (s) {
  MATCH (s)-[:HAS_TURN]->(t:Turn)
  WITH t ORDER BY t.seq
  WITH collect(t) AS ordered
  UNWIND range(0, size(ordered) - 2) AS i
  WITH ordered[i] AS earlier, ordered[i + 1] AS later
  MERGE (earlier)-[:NEXT]->(later)
}
RETURN s.id AS sessionId, written
