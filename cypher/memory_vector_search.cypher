// Semantic search over a workspace's observations and understandings, across all its perspectives:
// the nearest perspective vectors to the question, each item once with its best score and the
// perspective that gave it. The index spans every workspace, so it is asked for $fetch vectors and
// filtered here (the service widens $fetch when too few come back).
// Parameters: $workspace, $vector (list of floats), $fetch (integer), $model (embedding model name),
//   $exclude (ids to leave out: what the session was already shown), $limit
// Returns: id, score, perspective
CALL db.index.vector.queryNodes('perspective_embedding', $fetch, $vector) YIELD node, score
WHERE node.workspace = $workspace AND node.model = $model AND NOT node.targetId IN $exclude
WITH node.targetId AS id, node.perspective AS perspective, score
ORDER BY score DESC
WITH id, collect(perspective)[0] AS perspective, max(score) AS score
RETURN id, score, perspective
ORDER BY score DESC
LIMIT $limit
