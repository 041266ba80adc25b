// How many queued jobs (of any workspace) were created before a moment: a new job's queue position.
// Parameters: $before (datetime)
// Returns: ahead (integer)
MATCH (q:Job) WHERE q.state = 'queued' AND q.createdAt < $before
RETURN count(q) AS ahead
