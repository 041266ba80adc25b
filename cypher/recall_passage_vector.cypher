// Recall arm: sentence passages nearest the query vector (cosine), mapped to their turns; in the
// workspace, said by $valid_at and known at $known_at. $candidates over-fetches before filtering.
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes)
// Returns: turnId, passageId, dated (the passage resolved a time expression), score — best first
CALL db.index.vector.queryNodes('passage_embedding', $candidates, $vector) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace AND node.txFrom <= $known_at
  AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
RETURN node.turnId AS turnId, node.id AS passageId, node.dateResolved AS dated, score
ORDER BY score DESC
LIMIT $limit
