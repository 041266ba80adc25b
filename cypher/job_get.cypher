// One job of a workspace with its passes (in order) and its place in the queue: how many queued
// jobs, of any workspace, were created before it.
// Parameters: $workspace, $id
// Returns: job (map of its properties), passes (list of pass maps without raw replies),
//          ahead (integer; 0 unless queued)
MATCH (j:Job {id: $id}) WHERE j.workspace = $workspace
CALL (j) {
  OPTIONAL MATCH (j)-[:HAS_PASS]->(p:JobPass)
  WITH p ORDER BY p.attempt, p.seq
  RETURN collect(p {.*, replies: null}) AS passes
}
CALL (j) {
  OPTIONAL MATCH (q:Job) WHERE j.state = 'queued' AND q.state = 'queued' AND q.createdAt < j.createdAt
  RETURN count(q) AS ahead
}
RETURN j {.*} AS job, passes, ahead
