// A workspace's jobs, newest first, optionally of one state; keyset-paginated by id.
// Parameters: $workspace, $state (string or null), $before (a job id or null: start after it),
//             $limit (integer)
// Returns: job (map of its properties)
MATCH (j:Job) WHERE j.workspace = $workspace AND j.createdAt IS NOT NULL
  AND ($state IS NULL OR j.state = $state) AND ($before IS NULL OR j.id < $before)
RETURN j {.*} AS job
ORDER BY j.createdAt DESC, j.id DESC
LIMIT $limit
