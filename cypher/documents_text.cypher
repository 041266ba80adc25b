// The text of these document revisions (to check and cut evidence spans).
// Parameters: $workspace, $ids (list of document ids)
// Returns: id, text — one row per existing document
UNWIND $ids AS documentId
MATCH (d:Document {id: documentId})
WHERE d.workspace = $workspace
RETURN d.id AS id, d.text AS text
