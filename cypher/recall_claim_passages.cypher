// The sentences a document's claim was extracted from: for each claim, the passages of the document
// revision its evidence cites that overlap the cited span, in order, so that recall hands the claim
// back with its whole sentence.
// Parameters: $workspace, $ids (claim ids)
// Returns: one row, rows: a list of {id (the claim's), documentId, title, passages (list of texts)}
UNWIND $ids AS claimId
MATCH (c:Claim {id: claimId})-[:EVIDENCED_BY]->(s:Span)-[:IN]->(d:Document)
WHERE c.workspace = $workspace
MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
WHERE p.start < s.end AND p.end > s.start
WITH c, d, p ORDER BY p.start
WITH c, d, collect(DISTINCT p.text) AS passages
RETURN collect({id: c.id, documentId: d.id, title: d.title, passages: passages}) AS rows
