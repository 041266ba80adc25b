// Recall arm: full-text (Lucene BM25) over turn, passage and claim texts; a turn's passages map to
// their turn, a document's passages stand for themselves, claims map to the turns their evidence
// cites. Same workspace and time filters as the others (a document revision a later one replaced
// is not known after it was, a retracted turn or passage after its retraction); an empty turn, found
// by its speaker alone, is none. With $sessions: only those sessions' turns and passages, and the
// claims whose evidence cites a turn of them (no document's passages). With $documents: only the passages
// of documents whose external id starts with one of its prefixes (no turns or claims).
// A document version's passages only within its valid interval: from validFrom (before versions, occurredAt) until
// the validTo a later version gave it, where that is known at $known_at (validToRecordedAt).
// Lucene itself keeps to the workspace (+workspace:"…"^0, so BM25 is the text's alone): ranking every
// workspace's documents and filtering after would let another tenant's many matches crowd this one's
// out of $fulltext_candidates. The clause is a phrase of the name's words, so a workspace whose name holds this
// one's whole ("acme-staging" for "acme") still competes, and a name of English stop words alone
// ("the") narrows nothing: the filter after keeps to the workspace exactly. $workspace never holds a
// quote (donto's names are [A-Za-z0-9][A-Za-z0-9_.-]*).
// Parameters: $workspace, $lucene (a Lucene query over the text: 'melanie OR paint'), $fulltext_candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $sessions (list of session external ids, or null: every session),
//             $documents (list of document external id prefixes, or null: every document)
// Returns: one row, rows: a list of {turnId (a turn's, or the turn of a turn's passage), passageId (a
//          document's passage), place (the turn's {sessionExternalId, speaker}, or the document
//          passage's {documentId, speaker}; null for a claim), claimId (a claim's), turnIds, score}, best first
CALL db.index.fulltext.queryNodes('recall_search',
  '+workspace:"' + $workspace + '"^0 +(text:(' + $lucene + ') OR speaker:(' + $lucene + '))',
  {limit: $fulltext_candidates}) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace AND node.txFrom <= $known_at
  AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND (NOT node:Claim OR ((node.validFrom IS NULL OR node.validFrom <= $valid_at)
                          AND (node.validTo IS NULL OR node.validTo > $valid_at)))
  AND (node:Claim OR (coalesce(node.validFrom, node.occurredAt, $valid_at) <= $valid_at
                     AND (node.validTo IS NULL OR node.validTo > $valid_at OR node.validToRecordedAt > $known_at)))
  AND (NOT node:Turn OR trim(node.text) <> '')
  AND ($sessions IS NULL
       OR (node:Turn AND node.sessionExternalId IN $sessions)
       OR (node:Passage AND EXISTS { MATCH (t:Turn)-[:HAS_PASSAGE]->(node) WHERE t.sessionExternalId IN $sessions })
       OR (node:Claim AND EXISTS { MATCH (node)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn)
                                   WHERE t.sessionExternalId IN $sessions }))
  AND ($documents IS NULL OR (node:Passage AND node.documentId IS NOT NULL AND EXISTS { MATCH (d:Document {id: node.documentId}) WHERE any(prefix IN $documents WHERE d.externalId STARTS WITH prefix) }))
WITH node, score
ORDER BY score DESC
LIMIT $limit
RETURN collect({turnId: CASE WHEN node:Turn THEN node.id WHEN node:Passage THEN node.turnId END,
                passageId: CASE WHEN node:Passage AND node.documentId IS NOT NULL THEN node.id END,
                place: CASE WHEN node:Turn THEN node {.sessionExternalId, .speaker}
                            WHEN node:Passage AND node.documentId IS NOT NULL THEN {documentId: node.documentId}
                            WHEN node:Passage THEN head([(turn:Turn)-[:HAS_PASSAGE]->(node) | turn {.sessionExternalId, .speaker}]) END,
                claimId: CASE WHEN node:Claim THEN node.id END,
                turnIds: CASE WHEN node:Claim THEN [(node)-[:EVIDENCED_BY]->(:Span)-[:IN]->(t:Turn)
                                                    WHERE t.txFrom <= $known_at AND (t.txTo IS NULL OR t.txTo > $known_at)
                                                      AND ($sessions IS NULL OR t.sessionExternalId IN $sessions) | t.id]
                              ELSE [] END,
                score: score}) AS rows
