// Registers a document revision; links it to the revision it replaces (REVISES), if any.
// Parameters: $workspace, $id, $external_id, $revision (integer), $previous_id (or null),
//             $text, $sha256, $title, $source, $recorded_at (datetime)
// Returns: id, revision, sha256
CREATE (d:Document {
  id: $id, workspace: $workspace, externalId: $external_id, revision: $revision,
  text: $text, sha256: $sha256, title: $title, source: $source,
  recordedAt: $recorded_at
})
WITH d
CALL (d) {
  MATCH (previous:Document {id: $previous_id})
  CREATE (d)-[:REVISES]->(previous)
}
RETURN d.id AS id, d.revision AS revision, d.sha256 AS sha256
