// Which of these content keys already have a live claim in the workspace (first write wins: a
// batch writes only the others). Run inside the write transaction, after transaction_time_next,
// whose lock on the workspace clock keeps the answer true until the write commits. The index is
// named: planned on a new store's empty label, a label scan looked free, and each batch scanned every
// claim until Neo4j replanned (a fresh server's first four batches of 1,000: 13-14 s, now about 5).
// Parameters: $workspace, $keys (list of content keys)
// Returns: contentKey, id (one live claim's id) — one row per key that has one
UNWIND $keys AS key
MATCH (c:Claim {workspace: $workspace, contentKey: key})
USING INDEX c:Claim(workspace, contentKey)
WHERE c.txTo IS NULL
RETURN key AS contentKey, head(collect(c.id)) AS id
