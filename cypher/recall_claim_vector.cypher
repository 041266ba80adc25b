// Recall arm: claims nearest the question's own vector (cosine; $claim_vector keeps the names the
// turn arms' $vector says as "they": a claim's subject is what it is about), valid at $valid_at and known at
// $known_at, with the episode turns their evidence cites that are live at $known_at (a hit promotes
// those turns). With $sessions, only claims whose evidence cites a turn of those sessions, and only
// those turns. The
// workspace is filtered inside the vector index (SEARCH, Cypher 25); of its $candidates nearest,
// the two time axes keep at most $limit.
// Parameters: $workspace, $claim_vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session)
// Returns: one row, rows: a list of {claimId, turnIds (list), score, searched}, best first
//          searched: how many nearest the index gave before the time scope (all $candidates
//          asked for means it may hold more: recall then asks again for more, see widened)
// Only where the workspace holds claims: a filtered search of an index that holds none of the
// workspace's vectors still walks the index's graph (about 2 ms), and finds nothing.
CYPHER 25
WITH 1 AS holds WHERE EXISTS { MATCH (c:Claim) WHERE c.workspace = $workspace AND c.id IS NOT NULL }
MATCH (node:Claim)
  SEARCH node IN (VECTOR INDEX claim_embedding FOR $claim_vector WHERE node.workspace = $workspace LIMIT $candidates)
  SCORE AS score
WITH collect({node: node, score: score}) AS hits
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, size(hits) AS searched
WHERE node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND (node.validFrom IS NULL OR node.validFrom <= $valid_at) AND (node.validTo IS NULL OR node.validTo > $valid_at)
  AND ($sessions IS NULL OR EXISTS { MATCH (node)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn)
                                    WHERE t.sessionExternalId IN $sessions })
WITH node, score, searched
ORDER BY score DESC
LIMIT $limit
RETURN collect({claimId: node.id,
                turnIds: [(node)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn)
                          WHERE t.txFrom <= $known_at AND (t.txTo IS NULL OR t.txTo > $known_at)
                            AND ($sessions IS NULL OR t.sessionExternalId IN $sessions) | t.id],
                score: score, searched: searched}) AS rows
