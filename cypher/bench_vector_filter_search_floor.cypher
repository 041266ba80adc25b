// Bench floor on 2026.x: the SEARCH clause for $k neighbours without a filter.
// Parameters: $vector (list of floats), $k
// Returns: id, score
CYPHER 25
MATCH (n:BenchVector)
  SEARCH n IN (VECTOR INDEX bench_vector FOR $vector LIMIT $k) SCORE AS score
RETURN n.id AS id, score
