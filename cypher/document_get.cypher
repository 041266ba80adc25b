// A document revision as GET /v1/documents/{id} shows it, with every revision of its document
// (those sharing its external id; a document without one has only itself), oldest first.
// Parameters: $workspace, $id (a revision's id)
// Returns: at most one row: id, externalId, revision, title, source, sha256, length (characters),
//          occurredAt, recordedAt, replacedAt (when a later revision replaced it or it was retracted; null while
//          current), retractedAt (when it was retracted; null if never), metadata (JSON text or null),
//          passages (count), revisionKind ('version' | 'correction'; null if registered before versions),
//          validFrom (its valid start; before versions, its occurredAt), validTo (where a later version ends
//          it; null while none does), revisions (list of {id, revision, sha256, recordedAt, replacedAt,
//          passages, revisionKind, validFrom, validTo})
MATCH (d:Document {id: $id})
WHERE d.workspace = $workspace
CALL (d) {
  OPTIONAL MATCH (r:Document {workspace: $workspace, externalId: d.externalId})
  WITH d, r ORDER BY r.revision
  WITH d, [x IN collect(r) WHERE x IS NOT NULL] AS family
  WITH CASE WHEN size(family) = 0 THEN [d] ELSE family END AS family
  UNWIND family AS r
  RETURN collect({id: r.id, revision: r.revision, sha256: r.sha256, recordedAt: r.recordedAt, replacedAt: r.txTo,
                  passages: COUNT { (r)-[:HAS_PASSAGE]->(:Passage) }, revisionKind: r.revisionKind,
                  validFrom: coalesce(r.validFrom, r.occurredAt), validTo: r.validTo}) AS revisions
}
RETURN d.id AS id, d.externalId AS externalId, d.revision AS revision, d.title AS title, d.source AS source,
       d.sha256 AS sha256, size(d.text) AS length, d.occurredAt AS occurredAt, d.recordedAt AS recordedAt,
       d.txTo AS replacedAt, d.retractedAt AS retractedAt, d.metadata AS metadata, COUNT { (d)-[:HAS_PASSAGE]->(:Passage) } AS passages,
       d.revisionKind AS revisionKind, coalesce(d.validFrom, d.occurredAt) AS validFrom, d.validTo AS validTo, revisions
