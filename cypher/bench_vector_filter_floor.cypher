// Bench floor: the bare vector-index query for $k neighbours, no filter (the procedure both
// 5.26 and 2026.x answer).
// Parameters: $vector (list of floats), $k
// Returns: id, score
CALL db.index.vector.queryNodes('bench_vector', $k, $vector) YIELD node, score
RETURN node.id AS id, score
