// Fails the running jobs whose lease lapsed on their last allowed attempt: their worker stopped
// answering every time (a job that kills its worker is not run forever).
// Parameters: $now (datetime)
// Returns: failed (count)
MATCH (j:Job) WHERE j.state = 'running' AND j.createdAt IS NOT NULL
  AND j.leaseUntil < $now AND j.attempts >= j.maxAttempts
SET j.state = 'failed', j.finishedAt = $now, j.leaseOwner = null, j.leaseUntil = null,
    j.error = 'its worker stopped answering on every attempt (' + toString(j.attempts) + ')'
RETURN count(j) AS failed
