// Consolidation report: semantically dense intersections no relationship understanding covers yet —
// subject pairs that share at least $min_shared observations and whose embeddings are at least
// $min_similarity alike, by similarity weighted by how much they share.
// Parameters: $workspace, $min_shared, $min_similarity, $limit
// Returns: a, b (names), similarity, shared
MATCH (a:Subject)<-[:ABOUT]-(o:Observation)-[:ABOUT]->(b:Subject)
WHERE o.workspace = $workspace AND a.name < b.name
WITH a, b, count(o) AS shared
WHERE shared >= $min_shared
  AND NOT EXISTS { MATCH (a)<-[:UNDERSTANDS]-(u:Understanding {kind: 'relationship'})-[:UNDERSTANDS]->(b)
                   WHERE NOT (u)-[:SUPERSEDED_BY]->() }
  AND a.embedding IS NOT NULL AND b.embedding IS NOT NULL
WITH a, b, shared, 2 * vector.similarity.cosine(a.embedding, b.embedding) - 1 AS similarity  // a cosine
WHERE similarity >= $min_similarity
RETURN a.name AS a, b.name AS b, similarity, shared
ORDER BY similarity * log(1 + shared) DESC, a, b
LIMIT $limit
