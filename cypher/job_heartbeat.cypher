// A running job's worker renews its lease, and learns whether the job is still its own and
// whether a client asked to cancel it.
// Parameters: $id, $worker, $now (datetime), $lease_until (datetime)
// Returns: owned (boolean), cancelRequested (boolean) — no row when the job does not exist
MATCH (j:Job {id: $id})
WITH j, j.state = 'running' AND j.leaseOwner = $worker AS owned
SET j.leaseUntil = CASE WHEN owned THEN $lease_until ELSE j.leaseUntil END,
    j.heartbeatAt = CASE WHEN owned THEN $now ELSE j.heartbeatAt END
RETURN owned, j.cancelRequested AS cancelRequested
