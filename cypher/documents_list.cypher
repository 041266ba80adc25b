// The workspace's documents registered under an external id, each by the revision live as known at
// $known_at (none for a document retracted by then), in external id order: those whose external id
// starts with $prefix, or (with $external_ids) those of exactly these ids. Keyset paging: the $limit
// documents after the external id $after ('' for the first page). firstRecordedAt: when the run of
// revisions the live one ends began (the first revision, or the first after a retraction).
// Parameters: $workspace, $prefix (string, '' for every one), $external_ids (list of strings, or null),
//             $after (an external id, or ''), $limit (integer), $known_at (datetime)
// Returns: one row, rows: a list of {id, externalId, revision, title, source, sha256, length (characters),
//          metadata (JSON text or null), occurredAt, recordedAt, firstRecordedAt, passages (count)}
CALL () {
  WITH 1 AS _ WHERE $external_ids IS NOT NULL
  UNWIND $external_ids AS wanted
  MATCH (d:Document {workspace: $workspace, externalId: wanted})
  RETURN d
  UNION
  WITH 1 AS _ WHERE $external_ids IS NULL
  MATCH (d:Document)
  WHERE d.workspace = $workspace AND d.externalId STARTS WITH $prefix
  RETURN d
}
WITH d
WHERE d.externalId > $after AND d.txFrom <= $known_at AND (d.txTo IS NULL OR d.txTo > $known_at)
WITH d ORDER BY d.externalId
LIMIT $limit
CALL (d) {
  MATCH (r:Document {workspace: $workspace, externalId: d.externalId})
  WHERE r.revision <= d.revision
    AND (NOT EXISTS { (r)-[:REVISES]->(:Document) }
         OR EXISTS { (r)-[:REVISES]->(p:Document) WHERE p.retractedAt IS NOT NULL })
  RETURN max(r.recordedAt) AS firstRecordedAt
}
RETURN collect({id: d.id, externalId: d.externalId, revision: d.revision, title: d.title, source: d.source,
                sha256: d.sha256, length: size(d.text), metadata: d.metadata, occurredAt: d.occurredAt,
                recordedAt: d.recordedAt, firstRecordedAt: firstRecordedAt,
                passages: COUNT { (d)-[:HAS_PASSAGE]->(:Passage) }}) AS rows
