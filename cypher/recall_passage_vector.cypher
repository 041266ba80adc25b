// Recall arm: sentence passages nearest the query vector (cosine), mapped to their turns; in the
// workspace, said by $valid_at and known at $known_at. The workspace is filtered inside the vector
// index (SEARCH, Cypher 25); of its $candidates nearest, the time scope keeps at most $limit.
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes)
// Returns: one row, rows: a list of {turnId, place, passageId, dated (the passage resolved a time
//          expression), score, searched}, best first
//          place: the found turn's {sessionExternalId, speaker}, by which fusion weighs it
//          searched: how many nearest the index gave before the time scope (all $candidates
//          asked for means it may hold more: recall then asks again for more, see widened)
// Only where the workspace holds turns: a filtered search of an index that holds none of the
// workspace's vectors still walks the index's graph (about 2 ms), and finds nothing.
CYPHER 25
WITH 1 AS holds WHERE EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
                                        AND t.externalId IS NOT NULL }
MATCH (node:Passage)
  SEARCH node IN (VECTOR INDEX passage_embedding FOR $vector WHERE node.workspace = $workspace LIMIT $candidates)
  SCORE AS score
WITH collect({node: node, score: score}) AS hits
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, size(hits) AS searched
WHERE node.txFrom <= $known_at AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
WITH node, score, searched
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: node.turnId,
                place: head([(turn:Turn)-[:HAS_PASSAGE]->(node) | turn {.sessionExternalId, .speaker}]),
                passageId: node.id,
                dated: node.dateResolved,
                score: score, searched: searched}) AS rows
