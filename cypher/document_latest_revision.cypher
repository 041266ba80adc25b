// The newest revision of a document: by external id, or (without one) by identical text.
// Parameters: $workspace, $external_id (string or null), $sha256
// Returns: id, revision, sha256, metadata (JSON text or null), live (not replaced or retracted), occurredAt,
//          revisionKind ('version' | 'correction'; null if registered before versions), validFrom (its valid
//          start; a revision registered before versions had its occurredAt for one),
//          passages (count) — at most one row
CALL () {
  WITH 1 AS _ WHERE $external_id IS NOT NULL
  MATCH (d:Document {workspace: $workspace, externalId: $external_id})
  RETURN d
  UNION
  WITH 1 AS _ WHERE $external_id IS NULL
  MATCH (d:Document {workspace: $workspace, sha256: $sha256})
  WHERE d.externalId IS NULL
  RETURN d
}
RETURN d.id AS id, d.revision AS revision, d.sha256 AS sha256, d.metadata AS metadata, d.txTo IS NULL AS live,
       d.occurredAt AS occurredAt, d.revisionKind AS revisionKind, coalesce(d.validFrom, d.occurredAt) AS validFrom,
       COUNT { (d)-[:HAS_PASSAGE]->(:Passage) } AS passages
ORDER BY revision DESC
LIMIT 1
