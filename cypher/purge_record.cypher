// The audit record of a purge, written when it starts and again when it ends; it outlives what
// it removed and holds none of it: the workspace, the scope, a SHA-256 of the subject (so an
// auditor who knows the subject can check it was erased, and the record does not name it), who
// ran it, when, and how many of each kind were removed.
// Parameters: $id, $workspace, $scope ('workspace' | 'subject'), $subject_sha256 (or null),
//             $by, $recorded_at (datetime), $counts (JSON text, or null while it runs),
//             $finished (boolean)
// Returns: id, startedAt, finishedAt
MERGE (p:Purge {id: $id})
  ON CREATE SET p.workspace = $workspace, p.scope = $scope, p.subjectSha256 = $subject_sha256, p.by = $by,
                p.startedAt = $recorded_at
SET p.counts = $counts,
    p.finishedAt = CASE WHEN $finished THEN $recorded_at ELSE null END
RETURN p.id AS id, p.startedAt AS startedAt, p.finishedAt AS finishedAt
