// Bench: Neo4j 2026.x's SEARCH clause filtering by workspace inside the vector index (needs the
// index made with WITH [n.workspace]; Cypher 25).
// Parameters: $vector (list of floats), $workspace, $k
// Returns: id, score — best first
CYPHER 25
MATCH (n:BenchVector)
  SEARCH n IN (VECTOR INDEX bench_vector FOR $vector WHERE n.workspace = $workspace LIMIT $k) SCORE AS score
RETURN n.id AS id, score
ORDER BY score DESC
