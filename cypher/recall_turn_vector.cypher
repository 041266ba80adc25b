// Recall arm: turns nearest the query vector (cosine), in the workspace, said by $valid_at and
// known at $known_at. The vector index is global, so $candidates over-fetches before the
// workspace filter.
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes)
// Returns: turnId, score — best first
CALL db.index.vector.queryNodes('turn_embedding', $candidates, $vector) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace AND node.txFrom <= $known_at
  AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
RETURN node.id AS turnId, score
ORDER BY score DESC
LIMIT $limit
