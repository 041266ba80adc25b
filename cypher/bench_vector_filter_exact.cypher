// Bench: exact cosine over one workspace's vectors (range index on the workspace, no vector
// index): the ground truth for recall, and itself a filtered search that cannot miss.
// Parameters: $vector (list of floats), $workspace, $k
// Returns: id, score — best first
MATCH (n:BenchVector {workspace: $workspace})
WITH n, vector.similarity.cosine(n.embedding, $vector) AS score
RETURN n.id AS id, score
ORDER BY score DESC
LIMIT $k
