// The bare vector-index search over claim embeddings, no filter and no ranking: the floor
// `python -m bench scale` sets beside recall (asked for the same $k neighbours, by SEARCH as recall's
// claim arm is).
// Parameters: $vector (list of floats), $k
// Returns: one row, rows: a list of {id, score} (the form recall's queries answer in)
CYPHER 25
MATCH (node:Claim)
  SEARCH node IN (VECTOR INDEX claim_embedding FOR $vector LIMIT $k) SCORE AS score
RETURN collect({id: node.id, score: score}) AS rows
