// Asks to cancel a job. A queued job is cancelled at once; a running one is marked, and its
// worker stops at the next pass boundary; an ended job is left as it is.
// Parameters: $workspace, $id, $now (datetime)
// Returns: state (after the request) — no row when the workspace has no such job
MATCH (j:Job {id: $id}) WHERE j.workspace = $workspace
SET j.cancelLock = true  // take the job's lock first, so a worker claiming it at this moment is seen
REMOVE j.cancelLock
WITH j, j.state = 'queued' AS wasQueued
SET j.cancelRequested = CASE WHEN j.state IN ['queued', 'running'] THEN true ELSE j.cancelRequested END
SET j.finishedAt = CASE WHEN j.state = 'queued' THEN $now ELSE j.finishedAt END,
    j.state = CASE WHEN j.state = 'queued' THEN 'cancelled' ELSE j.state END
WITH j, wasQueued
CALL (j, wasQueued) {  // a cancelled queued job leaves its lane
  WITH j WHERE wasQueued
  MATCH (lane:JobLane {workspace: j.workspace})
  SET lane.queued = lane.queued - 1
}
RETURN j.state AS state
