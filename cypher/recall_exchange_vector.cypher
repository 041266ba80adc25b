// Recall arm: turns whose exchange (the turn with the one before it) is nearest the query vector
// (cosine). An answer often only makes sense with the question it replies to.
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes)
// Returns: turnId, score — best first
CALL db.index.vector.queryNodes('turn_context_embedding', $candidates, $vector) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace AND node.txFrom <= $known_at
  AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
RETURN node.id AS turnId, score
ORDER BY score DESC
LIMIT $limit
