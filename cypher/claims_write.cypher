// Writes a batch of new claims in one statement, with their subject and entity object (merged
// by key). Only the nodes and those two edges: the caller left out content keys that are live
// already (claims_live), and writes links (claims_link) and evidence (claims_evidence) only for a
// batch that has them. Valid times come as ISO-8601 text, read here by datetime(): the same
// value as a driver-sent date-time, far cheaper to send. Absent keys of a row are null.
// Parameters:
//   $workspace, $recorded_at (datetime: the transaction time of this write)
//   $claims: list of {id, contentKey, subject, predicate, object, objectKind, objectValue,
//            objectDatatype, context, confidence, validFrom, validTo (ISO-8601 text),
//            hypothesis (true, or absent: stated), validWhen (the words of a start time donto
//            could not resolve: the valid time is unknown), text (the claim rendered as one line, embedded later: see claims_pending_embedding)}
// Returns: nothing
UNWIND $claims AS row
CREATE (c:Claim:PendingEmbedding {
  id: row.id, workspace: $workspace, contentKey: row.contentKey,
  subject: row.subject, predicate: row.predicate, object: row.object,
  objectKind: row.objectKind, objectValue: row.objectValue, objectDatatype: row.objectDatatype,
  context: row.context, confidence: row.confidence,
  validFrom: datetime(row.validFrom), validTo: datetime(row.validTo), txFrom: $recorded_at, text: row.text,
  hypothesis: row.hypothesis, validWhen: row.validWhen
})
MERGE (s:Entity {workspace: $workspace, key: row.subject})
CREATE (c)-[:SUBJECT]->(s)
FOREACH (objectKey IN CASE WHEN row.objectKind = 'entity' THEN [row.object] ELSE [] END |
  MERGE (o:Entity {workspace: $workspace, key: objectKey})
  CREATE (c)-[:OBJECT]->(o)
)
