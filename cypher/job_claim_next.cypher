// Claims the oldest job a worker may run: a queued one, or a running one whose lease lapsed (its
// worker died) with attempts left (jobs_fail_exhausted ends the others). Two workers may pick the same candidate: the SET of a marker takes the node's
// write lock (held to the end of the transaction even once the marker is removed), and the state
// is read again after it, so only the first of them gets the job.
// Parameters: $worker (the worker's id), $now (datetime), $lease_until (datetime)
// Returns: id, workspace, kind, request, mode, sourceKind, sourceId, attempts (after this claim)
//          — no row when nothing can be claimed
CALL () {
  MATCH (j:Job) WHERE j.state = 'queued' AND j.createdAt IS NOT NULL
  RETURN j ORDER BY j.createdAt LIMIT 1
  UNION
  MATCH (j:Job) WHERE j.state = 'running' AND j.createdAt IS NOT NULL AND j.leaseUntil < $now
    AND j.attempts < j.maxAttempts
  RETURN j ORDER BY j.createdAt LIMIT 1
}
WITH j ORDER BY j.createdAt LIMIT 1
SET j.claimLock = $worker
REMOVE j.claimLock
WITH j WHERE j.state = 'queued' OR (j.state = 'running' AND j.leaseUntil < $now)
SET j.state = 'running', j.leaseOwner = $worker, j.leaseUntil = $lease_until, j.heartbeatAt = $now,
    j.attempts = j.attempts + 1, j.startedAt = coalesce(j.startedAt, $now)
RETURN j.id AS id, j.workspace AS workspace, j.kind AS kind, j.request AS request, j.mode AS mode,
       j.sourceKind AS sourceKind, j.sourceId AS sourceId, j.attempts AS attempts
