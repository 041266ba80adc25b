// Cites more evidence for claims that hold already: a fact found again, in another source or the
// same, corroborates the claim instead of becoming a second one, and the claim gains the span
// where it was found. MERGEd, so a retried job adds nothing twice; the new citation carries the
// transaction time it was made at. (claims_evidence cites evidence for new claims.)
// Parameters: $workspace, $recorded_at (datetime),
//             $evidence: list of {claimId, spanId, documentId, start, end, text}
// Returns: claimId, newSource (true when the claim had evidence and the span's source, a document
//          or a session of turns, was not among it: a second source) — one row per citation
UNWIND $evidence AS ev
MATCH (c:Claim {workspace: $workspace, id: ev.claimId})
CALL (ev) {  // evidence cites a document revision or an episode turn
  MATCH (d:Document {id: ev.documentId}) RETURN d
  UNION
  MATCH (d:Turn {id: ev.documentId}) RETURN d
}
WITH c, ev, d WHERE d.workspace = $workspace
WITH c, ev, d, coalesce(d.sessionId, d.externalId, d.sha256, d.id) AS source
WITH c, ev, d, EXISTS { (c)-[:EVIDENCED_BY]->(:Span) } AND NOT EXISTS {
  MATCH (c)-[:EVIDENCED_BY]->(:Span)-[:IN]->(cited)
  WHERE coalesce(cited.sessionId, cited.externalId, cited.sha256, cited.id) = source
} AS newSource
MERGE (span:Span {id: ev.spanId})
  ON CREATE SET span.workspace = $workspace, span.start = ev.start, span.end = ev.end, span.text = ev.text
MERGE (span)-[:IN]->(d)
MERGE (c)-[cites:EVIDENCED_BY]->(span)
  ON CREATE SET cites.txFrom = $recorded_at
RETURN c.id AS claimId, newSource
