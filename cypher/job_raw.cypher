// Every raw reply of a job's passes, for the audit: what the model actually said.
// Parameters: $workspace, $id
// Returns: attempt, seq, label, chunk, replies (list of strings) — one row per pass, in order
MATCH (j:Job {id: $id})-[:HAS_PASS]->(p:JobPass) WHERE j.workspace = $workspace
RETURN p.attempt AS attempt, p.seq AS seq, p.label AS label, p.chunk AS chunk, p.replies AS replies
ORDER BY attempt, seq
