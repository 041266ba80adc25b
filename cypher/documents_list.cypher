// The workspace's documents registered under an external id, each by the revision live as known at
// $known_at (none for a document retracted by then) and valid at $valid_at (of a document's versions,
// the one in force then; none before its first version's date or after its last version's end, as
// known at $known_at: a later version's end of it is known from its validToRecordedAt), in external id order: those whose external id
// starts with $prefix, or (with $external_ids) those of exactly these ids. Keyset paging: the $limit
// documents after the external id $after ('' for the first page). firstRecordedAt: when the run of
// revisions the live one ends began (the first revision, or the first after a retraction).
// Parameters: $workspace, $prefix (string, '' for every one), $external_ids (list of strings, or null),
//             $after (an external id, or ''), $limit (integer), $valid_at, $known_at (datetimes)
// Returns: one row, rows: a list of {id, externalId, revision, title, source, sha256, length (characters),
//          metadata (JSON text or null), occurredAt, recordedAt, firstRecordedAt, passages (count),
//          validFrom, validTo (where a later version ends it, as known at $known_at; null while none does)}
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
  AND coalesce(d.validFrom, d.occurredAt, $valid_at) <= $valid_at
  AND (d.validTo IS NULL OR d.validTo > $valid_at OR d.validToRecordedAt > $known_at)
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
                passages: COUNT { (d)-[:HAS_PASSAGE]->(:Passage) }, validFrom: coalesce(d.validFrom, d.occurredAt),
                validTo: CASE WHEN d.validToRecordedAt <= $known_at THEN d.validTo END}) AS rows
