// Recall arm for questions that name a time ("in May 2023", "on 8 May"): turns said within the
// window, or holding a passage whose resolved date overlaps it, ranked by cosine to the query.
// Parameters: $workspace, $vector (list of floats), $window_from, $window_to (datetimes, end
//             exclusive), $date_from, $date_to (dates, inclusive), $limit (integer),
//             $valid_at, $known_at (datetimes)
// Returns: one row, rows: a list of {turnId, place, score}, best first
//          place: the found turn's {sessionExternalId, speaker}, by which fusion weighs it
CALL () {
  MATCH (t:Turn)
  WHERE t.workspace = $workspace AND t.occurredAt >= $window_from AND t.occurredAt < $window_to
  RETURN t
  UNION
  MATCH (p:Passage)
  WHERE p.workspace = $workspace AND p.dateFrom <= $date_to AND p.dateTo >= $date_from AND p.dateResolved
  MATCH (t:Turn {id: p.turnId})
  RETURN t
}
WITH t
WHERE t.txFrom <= $known_at AND (t.occurredAt IS NULL OR t.occurredAt <= $valid_at)
WITH t.id AS turnId, t {.sessionExternalId, .speaker} AS place,
     vector.similarity.cosine(t.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: turnId, place: place, score: score}) AS rows
