// Full-text search (English analyzer) over a workspace's observations and understandings (text
// and summary), best first; Lucene syntax in $text is escaped by the service.
// Parameters: $workspace, $text (Lucene query), $limit
// Returns: id, score
CALL db.index.fulltext.queryNodes('memory_text', $text, {limit: $limit * 20}) YIELD node, score
WHERE node.workspace = $workspace AND NOT (node)-[:SUPERSEDED_BY]->()
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $limit
