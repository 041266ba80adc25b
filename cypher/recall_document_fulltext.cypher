// Recall arm: registered documents ranked by full-text (Lucene BM25) over each revision's whole
// text and title. Like the session arm, it finds no passages itself: a passage the other arms found
// gains its document's share, so that a document matching the question as a whole lifts its
// passages. Only revisions known at $known_at (not yet replaced then) and written by $valid_at.
// Lucene keeps to the workspace itself, as in recall_fulltext (see there).
// With $documents, only documents whose external id starts with one of its prefixes.
// A document version only within its valid interval: from validFrom (before versions, occurredAt) until
// the validTo a later version gave it, where that is known at $known_at (validToRecordedAt).
// Parameters: $workspace, $lucene (a Lucene query: 'melanie OR paint'), $fulltext_candidates, $limit (integers),
//             $valid_at, $known_at (datetimes), $documents (list of document external id prefixes, or null: every document)
// Returns: one row, rows: a list of {documentId, score}, best first
CALL db.index.fulltext.queryNodes('document_text',
  '+workspace:"' + $workspace + '"^0 +(text:(' + $lucene + ') OR title:(' + $lucene + '))',
  {limit: $fulltext_candidates}) YIELD node, score
WITH node, score
WHERE node.workspace = $workspace AND node.txFrom <= $known_at AND (node.txTo IS NULL OR node.txTo > $known_at)
  AND coalesce(node.validFrom, node.occurredAt, $valid_at) <= $valid_at
  AND (node.validTo IS NULL OR node.validTo > $valid_at OR node.validToRecordedAt > $known_at)
  AND ($documents IS NULL OR any(prefix IN $documents WHERE node.externalId STARTS WITH prefix))
WITH node, score
ORDER BY score DESC
LIMIT $limit
RETURN collect({documentId: node.id, score: score}) AS rows
