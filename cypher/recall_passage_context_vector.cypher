// Recall arm: passages of registered documents whose context (the passage with the one before it)
// is nearest the query vector (cosine), as the exchange arm is for turns: a sentence often only
// makes sense with the one it follows (an answer with its question, in a transcript). In the
// workspace, written by $valid_at and known at $known_at (a revision a later one replaced is not).
// The workspace is filtered inside the vector index (SEARCH, Cypher 25); of its $candidates
// nearest, the time scope keeps at most $limit.
// With $documents, only the passages of documents whose external id starts with one of its prefixes.
// A document version's passages only within its valid interval: from validFrom (before versions, occurredAt) until
// the validTo a later version gave it, where that is known at $known_at (validToRecordedAt).
// Parameters: $workspace, $vector (list of floats), $candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $documents (list of document external id prefixes, or null: every document)
// Returns: one row, rows: a list of {passageId, place, score, searched}, best first
//          place: the passage's {documentId, speaker}, by which fusion weighs it
//          searched: how many nearest the index gave before the time scope (all $candidates
//          asked for means it may hold more: recall then asks again for more, see widened)
// Only where the workspace holds documents: a filtered search of an index that holds none of the
// workspace's vectors still walks the index's graph (about 2 ms), and finds nothing.
CYPHER 25
WITH 1 AS holds WHERE EXISTS { MATCH (d:Document) WHERE d.workspace = $workspace AND d.sha256 IS NOT NULL }
MATCH (node:Passage)
  SEARCH node IN (VECTOR INDEX passage_context_embedding FOR $vector WHERE node.workspace = $workspace LIMIT $candidates)
  SCORE AS score
WITH collect({node: node, score: score}) AS hits
UNWIND hits AS hit
WITH hit.node AS node, hit.score AS score, size(hits) AS searched
WHERE node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND coalesce(node.validFrom, node.occurredAt, $valid_at) <= $valid_at
  AND (node.validTo IS NULL OR node.validTo > $valid_at OR node.validToRecordedAt > $known_at)
  AND ($documents IS NULL OR EXISTS { MATCH (d:Document {id: node.documentId}) WHERE any(prefix IN $documents WHERE d.externalId STARTS WITH prefix) })
WITH node, score, searched
ORDER BY score DESC
LIMIT $limit
RETURN collect({passageId: node.id, place: {documentId: node.documentId, speaker: node.speaker},
                score: score, searched: searched}) AS rows
