// Writes a batch of claims in one statement; a claim whose content key is already live in the
// workspace is not written again (first write wins) and its existing id comes back.
// Relationship targets were checked in the same transaction before; evidence spans were cut
// from their (immutable) source texts before it.
// Parameters:
//   $workspace, $recorded_at (datetime: the transaction time of this write)
//   $claims: list of {index, id, contentKey, subject, predicate, object, objectKind,
//            objectValue, objectDatatype, context, confidence, validFrom, validTo,
//            text (the claim rendered as one line, embedded later: see claims_pending_embedding),
//            derivedFrom: [id], supports: [id], contradicts: [id], supersedes: [id],
//            evidence: [{spanId, documentId, start, end, text}]}
// Returns: index, id, created — one row per input row
UNWIND $claims AS row
OPTIONAL MATCH (existing:Claim {workspace: $workspace, contentKey: row.contentKey})
  WHERE existing.txTo IS NULL
WITH row, head(collect(existing.id)) AS existingId
CALL (row, existingId) {
  WITH row WHERE existingId IS NULL
  CREATE (c:Claim:PendingEmbedding {
    id: row.id, workspace: $workspace, contentKey: row.contentKey,
    subject: row.subject, predicate: row.predicate, object: row.object,
    objectKind: row.objectKind, objectValue: row.objectValue, objectDatatype: row.objectDatatype,
    context: row.context, confidence: row.confidence,
    validFrom: row.validFrom, validTo: row.validTo, txFrom: $recorded_at, text: row.text
  })
  MERGE (s:Entity {workspace: $workspace, key: row.subject})
  CREATE (c)-[:SUBJECT]->(s)
  FOREACH (objectKey IN CASE WHEN row.objectKind = 'entity' THEN [row.object] ELSE [] END |
    MERGE (o:Entity {workspace: $workspace, key: objectKey})
    CREATE (c)-[:OBJECT]->(o)
  )
  WITH c, row
  CALL (c, row) {
    UNWIND row.derivedFrom AS premiseId
    MATCH (premise:Claim {id: premiseId}) WHERE premise.workspace = $workspace
    CREATE (c)-[:DERIVED_FROM]->(premise)
  }
  CALL (c, row) {
    UNWIND row.supports AS targetId
    MATCH (target:Claim {id: targetId}) WHERE target.workspace = $workspace
    CREATE (c)-[:SUPPORTS]->(target)
  }
  CALL (c, row) {
    UNWIND row.contradicts AS targetId
    MATCH (target:Claim {id: targetId}) WHERE target.workspace = $workspace
    CREATE (c)-[:CONTRADICTS]->(target)
  }
  CALL (c, row) {
    UNWIND row.supersedes AS targetId
    MATCH (target:Claim {id: targetId}) WHERE target.workspace = $workspace
    CREATE (c)-[:SUPERSEDES]->(target)
  }
  CALL (c, row) {
    UNWIND row.evidence AS ev
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
  }
  RETURN c.id AS id, true AS created
UNION
  WITH row, existingId WHERE existingId IS NOT NULL
  RETURN existingId AS id, false AS created
}
RETURN row.index AS index, id, created
ORDER BY index
