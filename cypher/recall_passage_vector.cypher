// Recall arm: sentence passages nearest the query vector (cosine): a turn's passages map to their
// turn, a registered document's stand for themselves; in the workspace, said or written by
// $valid_at and known at $known_at (a document revision a later one replaced is not). The
// workspace is filtered inside the vector index (SEARCH, Cypher 25); of its $candidates nearest,
// the time scope (a retracted turn's passages are not known after its retraction) and $sessions (only
// those sessions' turns' passages, no document's) keep at most $limit.
// With $documents, only the passages of documents whose external id starts with one of its prefixes.
// A document version's passages only within its valid interval: from validFrom (before versions, occurredAt) until
// the validTo a later version gave it, where that is known at $known_at (validToRecordedAt).
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session),
//             $documents (list of document external id prefixes, or null: every document)
// Returns: one row, rows: a list, best first, of {turnId, place, passageId, dated, score, searched}
//          for a turn's passage and {passageId, place, dated, score, searched} for a document's
//          place: where fusion weighs the hit: its turn's {sessionExternalId, speaker}, or the
//          passage's {documentId, speaker}
//          dated: the passage resolved a time expression
//          searched: how many nearest the index gave before the time scope (all $candidates
//          asked for means it may hold more: recall then asks again for more, see widened)
// Only where the workspace holds passages: a filtered search of an index that holds none of the
// workspace's vectors still walks the index's graph (about 2 ms), and finds nothing.
CYPHER 25
WITH 1 AS holds WHERE EXISTS { MATCH (p:Passage) WHERE p.workspace = $workspace }
MATCH (node:Passage)
  SEARCH node IN (VECTOR INDEX passage_embedding FOR $vector WHERE node.workspace = $workspace LIMIT $candidates)
  SCORE AS score
WITH collect({node: node, score: score}) AS hits
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, size(hits) AS searched
WHERE node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND coalesce(node.validFrom, node.occurredAt, $valid_at) <= $valid_at
  AND (node.validTo IS NULL OR node.validTo > $valid_at OR node.validToRecordedAt > $known_at)
  AND ($sessions IS NULL OR EXISTS { MATCH (t:Turn)-[:HAS_PASSAGE]->(node) WHERE t.sessionExternalId IN $sessions })
  AND ($documents IS NULL OR EXISTS { MATCH (d:Document {id: node.documentId}) WHERE any(prefix IN $documents WHERE d.externalId STARTS WITH prefix) })
WITH node, score, searched
ORDER BY score DESC
LIMIT $limit
RETURN collect(CASE WHEN node.turnId IS NOT NULL
  THEN {turnId: node.turnId,
        place: head([(turn:Turn)-[:HAS_PASSAGE]->(node) | turn {.sessionExternalId, .speaker}]),
        passageId: node.id, dated: node.dateResolved, score: score, searched: searched}
  ELSE {passageId: node.id, place: {documentId: node.documentId, speaker: node.speaker}, dated: node.dateResolved,
        score: score, searched: searched}
  END) AS rows
