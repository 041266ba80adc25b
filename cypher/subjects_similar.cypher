// Pairs of subjects whose embeddings (name and summary) are close but which share few observations:
// candidates for merging or for tagging across. Each subject asks the vector index for its $fetch
// nearest subjects of the workspace (filtered inside the index: SEARCH, Cypher 25).
// Parameters: $workspace, $subject_ids (the subjects to start from), $fetch, $min_similarity, $max_shared, $limit
// Returns: a, b (names), similarity (cosine), shared (observations about both)
CYPHER 25
UNWIND $subject_ids AS sid
MATCH (s:Subject {id: sid}) WHERE s.workspace = $workspace AND s.embedding IS NOT NULL
MATCH (other:Subject)
  SEARCH other IN (VECTOR INDEX subject_embedding FOR s.embedding WHERE other.workspace = $workspace LIMIT $fetch)
  SCORE AS score
WITH s, other, 2 * score - 1 AS cosine  // the index scores (1 + cos) / 2
WHERE other <> s AND cosine >= $min_similarity
WITH CASE WHEN s.name < other.name THEN s ELSE other END AS a,
     CASE WHEN s.name < other.name THEN other ELSE s END AS b, max(cosine) AS similarity
WITH a, b, similarity, COUNT { (a)<-[:ABOUT]-(:Observation)-[:ABOUT]->(b) } AS shared
WHERE shared <= $max_shared
RETURN a.name AS a, b.name AS b, similarity, shared
ORDER BY similarity DESC, a, b
LIMIT $limit
