// Cites evidence for new claims, in the write transaction of claims_write: a span of a document
// revision or an episode turn, one node per span (shared by the claims that cite it), cut from
// the (immutable) source text before the transaction.
// Parameters: $workspace, $evidence: list of {claimId, spanId, documentId, start, end, text}
// Returns: nothing
UNWIND $evidence AS ev
MATCH (c:Claim {workspace: $workspace, id: ev.claimId})
CALL (ev) {  // evidence cites a document revision or an episode turn
  MATCH (d:Document {id: ev.documentId}) RETURN d
  UNION
  MATCH (d:Turn {id: ev.documentId}) RETURN d
}
WITH c, ev, d WHERE d.workspace = $workspace
MERGE (span:Span {id: ev.spanId})
  ON CREATE SET span.workspace = $workspace, span.start = ev.start, span.end = ev.end, span.text = ev.text
MERGE (span)-[:IN]->(d)
CREATE (c)-[:EVIDENCED_BY]->(span)
