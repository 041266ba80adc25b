// Ends a run of a job its worker still owns: succeeded, failed, cancelled, or back to queued for
// another attempt. A worker whose lease lapsed and was taken over changes nothing.
// Parameters: $id, $worker, $state ('succeeded' | 'failed' | 'cancelled' | 'queued'),
//             $now (datetime), $error (string or null), $summary (map of counts or null)
// Returns: state — no row when the worker no longer owns the job
MATCH (j:Job {id: $id})
WHERE j.state = 'running' AND j.leaseOwner = $worker
SET j.state = $state, j.error = $error, j.leaseOwner = null, j.leaseUntil = null,
    j.finishedAt = CASE WHEN $state = 'queued' THEN null ELSE $now END
SET j += coalesce($summary, {})
WITH j
CALL (j) {  // back in the queue: back in its lane
  WITH j WHERE j.state = 'queued'
  MERGE (lane:JobLane {workspace: j.workspace})
  SET lane.queued = coalesce(lane.queued, 0) + 1
}
RETURN j.state AS state
