// The bare vector-index search over one workspace's turn embeddings, nothing after it: the floor
// `python -m bench locomo` sets beside recall (the same $k neighbours, searched by SEARCH inside the
// index as recall's turn arm is, with no time scope, fusion or provenance).
// Parameters: $workspace, $vector (list of floats), $k
// Returns: one row, rows: a list of {id, score} (the form recall's queries answer in)
CYPHER 25
MATCH (node:Turn)
  SEARCH node IN (VECTOR INDEX turn_embedding FOR $vector WHERE node.workspace = $workspace LIMIT $k) SCORE AS score
RETURN collect({id: node.id, score: score}) AS rows
