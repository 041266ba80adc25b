// A registered document revision as a memorize job reads it: its text, title, and the dates its
// facts are resolved against (when it was written or said, else when it was registered).
// Parameters: $workspace, $id (a revision's id)
// Returns: at most one row: id, text, title, occurredAt, recordedAt
MATCH (d:Document {id: $id})
WHERE d.workspace = $workspace
RETURN d.id AS id, d.text AS text, d.title AS title, d.occurredAt AS occurredAt, d.recordedAt AS recordedAt
