// A workspace's jobs, newest first, optionally of one state; keyset-paginated from the job $before
// names by (createdAt, id), the listing's order: ids are time-ordered but two jobs made in one
// millisecond need not sort by id as by createdAt, so paging by id alone could skip one.
// Parameters: $workspace, $state (string or null), $before (the id of the last job handed out, or
//             null: from the newest), $limit (integer)
// Returns: one row: known (false when $before names no job of the workspace; then jobs is empty),
//          jobs (list of maps of their properties)
OPTIONAL MATCH (last:Job {id: $before})
  WHERE last.workspace = $workspace
WITH last, $before IS NULL OR last IS NOT NULL AS known
RETURN known, COLLECT {
  MATCH (j:Job)
  WHERE known AND j.workspace = $workspace AND j.createdAt IS NOT NULL AND ($state IS NULL OR j.state = $state)
    AND (last IS NULL OR j.createdAt < last.createdAt OR (j.createdAt = last.createdAt AND j.id < last.id))
  WITH j ORDER BY j.createdAt DESC, j.id DESC LIMIT $limit
  RETURN j {.*}
} AS jobs
