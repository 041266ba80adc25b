// Recall arm: turns whose exchange (the turn with the one before it) is nearest the query vector
// (cosine). An answer often only makes sense with the question it replies to. The workspace is
// filtered inside the vector index (SEARCH, Cypher 25); of its $candidates nearest, the time scope
// (a retracted turn is not known after its retraction) and $sessions keep at most $limit. An empty
// turn has no embedding: it is never found.
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session)
// Returns: one row, rows: a list of {turnId, place, score, searched}, best first
//          place: the found turn's {sessionExternalId, speaker}, by which fusion weighs it
//          searched: how many nearest the index gave before the time scope (all $candidates
//          asked for means it may hold more: recall then asks again for more, see widened)
// Only where the workspace holds turns: a filtered search of an index that holds none of the
// workspace's vectors still walks the index's graph (about 2 ms), and finds nothing.
CYPHER 25
WITH 1 AS holds WHERE EXISTS { MATCH (t:Turn) WHERE t.workspace = $workspace AND t.sessionExternalId IS NOT NULL
                                        AND t.externalId IS NOT NULL }
MATCH (node:Turn)
  SEARCH node IN (VECTOR INDEX turn_context_embedding FOR $vector WHERE node.workspace = $workspace LIMIT $candidates)
  SCORE AS score
WITH collect({node: node, score: score}) AS hits
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, size(hits) AS searched
WHERE node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND (node.occurredAt IS NULL OR node.occurredAt <= $valid_at)
  AND ($sessions IS NULL OR node.sessionExternalId IN $sessions)
WITH node, score, searched
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: node.id, place: node {.sessionExternalId, .speaker},
                score: score, searched: searched}) AS rows
