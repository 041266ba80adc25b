// The bare vector-index search over memory items' perspective vectors, no filter and no ranking:
// the floor bench/memory.py sets beside bring_to_mind (asked for the same $k neighbours, by SEARCH
// as bring_to_mind's memory_vector_search is).
// Parameters: $vector (list of floats), $k
// Returns: id, score
CYPHER 25
MATCH (node:PerspectiveVector)
  SEARCH node IN (VECTOR INDEX perspective_embedding FOR $vector LIMIT $k) SCORE AS score
RETURN node.targetId AS id, score
