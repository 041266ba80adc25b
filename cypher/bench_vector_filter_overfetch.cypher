// Bench: Neo4j 5.26's workspace-filtered vector search as donto's recall arms did it there (before
// SEARCH): $candidates nearest in the whole index, then the workspace filter.
// Parameters: $vector (list of floats), $workspace, $candidates, $k
// Returns: id, score — best first
CALL db.index.vector.queryNodes('bench_vector', $candidates, $vector) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
