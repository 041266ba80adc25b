// Recall arm for questions that name a time ("in May 2023", "on 8 May"): turns said within the
// window, or holding a passage whose resolved date overlaps it, and passages of registered documents
// written within the window or whose resolved date overlaps it; ranked by cosine to the query. With
// $sessions, only those sessions' turns (no document's passages); with $documents, only the passages of
// documents whose external id starts with one of its prefixes (no turns). A document version's passages
// only within its valid interval: from validFrom (before versions, occurredAt), until the validTo a later
// version gave it where that is known at $known_at (validToRecordedAt).
// Parameters: $workspace, $vector (list of floats), $window_from, $window_to (datetimes, end
//             exclusive), $date_from, $date_to (dates, inclusive), $limit (integer),
//             $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session),
//             $documents (list of document external id prefixes, or null: every document)
// Returns: one row, rows: a list of {turnId, place, score} (a turn) or {passageId, place, score} (a
//          document's passage), best first
//          place: where fusion weighs the hit: the turn's {sessionExternalId, speaker}, or {documentId, speaker}
CALL () {
  MATCH (t:Turn)
  WHERE t.workspace = $workspace AND t.occurredAt >= $window_from AND t.occurredAt < $window_to
  RETURN t AS node
  UNION
  MATCH (p:Passage)
  WHERE p.workspace = $workspace AND p.dateFrom <= $date_to AND p.dateTo >= $date_from AND p.dateResolved
  OPTIONAL MATCH (t:Turn {id: p.turnId})
  RETURN coalesce(t, p) AS node
  UNION
  MATCH (d:Document)
  WHERE d.workspace = $workspace AND d.occurredAt >= $window_from AND d.occurredAt < $window_to
  MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
  RETURN p AS node
}
WITH node
WHERE node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND coalesce(node.validFrom, node.occurredAt, $valid_at) <= $valid_at
  AND (node.validTo IS NULL OR node.validTo > $valid_at OR node.validToRecordedAt > $known_at)
  AND node.embedding IS NOT NULL
  AND ($sessions IS NULL OR (node:Turn AND node.sessionExternalId IN $sessions))
  AND ($documents IS NULL OR (node:Passage AND node.documentId IS NOT NULL AND EXISTS { MATCH (d:Document {id: node.documentId}) WHERE any(prefix IN $documents WHERE d.externalId STARTS WITH prefix) }))
WITH node, vector.similarity.cosine(node.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $limit
RETURN collect(CASE WHEN node:Turn THEN {turnId: node.id, place: node {.sessionExternalId, .speaker}, score: score}
                    ELSE {passageId: node.id, place: {documentId: node.documentId, speaker: node.speaker}, score: score} END) AS rows
