// Recall arm: sessions ranked by full-text (Lucene BM25) over each session's whole text. It finds
// no turns itself: a turn the other arms found gains its session's share, so that a conversation
// matching the question as a whole lifts its turns.
// Parameters: $workspace, $lucene (a Lucene query string), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes)
// Returns: sessionExternalId, score — best first
CALL db.index.fulltext.queryNodes('session_text', $lucene, {limit: $candidates}) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace AND node.txFrom <= $known_at
  AND (node.startedAt IS NULL OR node.startedAt <= $valid_at)
RETURN node.externalId AS sessionExternalId, score
ORDER BY score DESC
LIMIT $limit
