// Claims the next job a worker may run. First a running job whose lease lapsed (its worker died)
// with attempts left (jobs_fail_exhausted ends the others); else the oldest queued job of the
// workspace served least recently (its (:JobLane) lastStartedAt), so workspaces take turns and
// one tenant's thousand jobs do not queue another's one behind them. A lane is served only while
// it really holds a queued job.
// Two workers may pick the same candidate: the SET of a marker takes the node's write lock (held
// to the end of the transaction even once the marker is removed), and the state is read again
// after it, so only the first of them gets the job.
// Parameters: $worker (the worker's id), $now (datetime), $lease_until (datetime)
// Returns: id, workspace, kind, request, mode, sourceKind, sourceId, attempts (after this claim)
//          — no row when nothing can be claimed
CALL () {
  MATCH (j:Job) WHERE j.state = 'running' AND j.createdAt IS NOT NULL AND j.leaseUntil < $now
    AND j.attempts < j.maxAttempts
  RETURN j, 0 AS rank ORDER BY j.createdAt LIMIT 1
  UNION
  MATCH (lane:JobLane) WHERE lane.queued > 0
    // the count is a hint: a lane whose jobs all left the queue some other way (ended by hand,
    // purged) must not hold the head of the queue for ever
    AND EXISTS { MATCH (q:Job) WHERE q.workspace = lane.workspace AND q.createdAt IS NOT NULL AND q.state = 'queued' }
  WITH lane ORDER BY lane.lastStartedAt IS NOT NULL, lane.lastStartedAt LIMIT 1
  MATCH (j:Job) WHERE j.workspace = lane.workspace AND j.createdAt IS NOT NULL AND j.state = 'queued'
  RETURN j, 1 AS rank ORDER BY j.createdAt LIMIT 1
}
WITH j ORDER BY rank, j.createdAt LIMIT 1
SET j.claimLock = $worker
REMOVE j.claimLock
WITH j, j.state = 'queued' AS wasQueued
WHERE wasQueued OR (j.state = 'running' AND j.leaseUntil < $now)
SET j.state = 'running', j.leaseOwner = $worker, j.leaseUntil = $lease_until, j.heartbeatAt = $now,
    j.attempts = j.attempts + 1, j.startedAt = coalesce(j.startedAt, $now)
MERGE (lane:JobLane {workspace: j.workspace})
SET lane.lastStartedAt = $now,
    lane.queued = coalesce(lane.queued, 0) - CASE WHEN wasQueued THEN 1 ELSE 0 END
RETURN j.id AS id, j.workspace AS workspace, j.kind AS kind, j.request AS request, j.mode AS mode,
       j.sourceKind AS sourceKind, j.sourceId AS sourceId, j.attempts AS attempts
