// The bare vector-index query over memory items' perspective vectors, no filter and no ranking:
// the floor bench/memory.py sets beside bring_to_mind (asked for the same $k neighbours).
// Parameters: $vector (list of floats), $k
// Returns: id, score
CALL db.index.vector.queryNodes('perspective_embedding', $k, $vector) YIELD node, score
RETURN node.targetId AS id, score
