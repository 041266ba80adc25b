// Which of these content keys already have a live claim in the workspace (first write wins: a
// batch writes only the others). Run inside the write transaction, after transaction_time_next,
// whose lock on the workspace clock keeps the answer true until the write commits.
// Parameters: $workspace, $keys (list of content keys)
// Returns: contentKey, id (one live claim's id) — one row per key that has one
UNWIND $keys AS key
MATCH (c:Claim {workspace: $workspace, contentKey: key})
WHERE c.txTo IS NULL
RETURN key AS contentKey, head(collect(c.id)) AS id
