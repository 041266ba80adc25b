// The text of the source documents evidence may cite: registered document revisions, and the
// turns of episodes (a turn is a source text too). Used to check and cut evidence spans.
// Parameters: $workspace, $ids (list of document or turn ids)
// Returns: id, text — one row per existing source
UNWIND $ids AS sourceId
CALL (sourceId) {
  MATCH (d:Document {id: sourceId})
  RETURN d
  UNION
  MATCH (d:Turn {id: sourceId})
  RETURN d
}
WITH d WHERE d.workspace = $workspace
RETURN d.id AS id, d.text AS text
