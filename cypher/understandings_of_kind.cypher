// The active understandings of one kind in a workspace, or about one subject: what a new soul,
// protocol or orientation (per workspace), or a new single-subject or structural understanding
// (per subject), revises.
// Parameters: $workspace, $kind, $subject_id (null: the whole workspace)
// Returns: id
MATCH (u:Understanding {workspace: $workspace, kind: $kind})
WHERE NOT (u)-[:SUPERSEDED_BY]->()
  AND ($subject_id IS NULL OR EXISTS { (u)-[:UNDERSTANDS]->(:Subject {id: $subject_id}) })
RETURN u.id AS id
