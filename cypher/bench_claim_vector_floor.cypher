// The bare vector-index query over claim embeddings, no filter and no ranking: the floor
// `python -m bench scale` sets beside recall (asked for the same $k neighbours).
// Parameters: $vector (list of floats), $k
// Returns: id, score
CALL db.index.vector.queryNodes('claim_embedding', $k, $vector) YIELD node, score
RETURN node.id AS id, score
