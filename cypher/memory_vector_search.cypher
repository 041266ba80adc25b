// Semantic search over a workspace's observations and understandings, across all its perspectives:
// the nearest perspective vectors to the question, each item once with its best score and the
// perspective that gave it. The workspace and the model are filtered inside the vector index (SEARCH,
// Cypher 25): $fetch is how many of this workspace's vectors to look at (the service widens it when
// the subjects asked for or $exclude leave too few items).
// Parameters: $workspace, $vector (list of floats), $fetch (integer), $model (embedding model name),
//   $exclude (ids to leave out: what the session was already shown), $limit
// Returns: id, score, perspective
CYPHER 25
MATCH (node:PerspectiveVector)
  SEARCH node IN (
    VECTOR INDEX perspective_embedding FOR $vector WHERE node.workspace = $workspace AND node.model = $model
    LIMIT $fetch
  ) SCORE AS score
WITH node, score
WHERE NOT node.targetId IN $exclude
WITH node.targetId AS id, node.perspective AS perspective, score
ORDER BY score DESC
WITH id, collect(perspective)[0] AS perspective, max(score) AS score
RETURN id, score, perspective
ORDER BY score DESC
LIMIT $limit
