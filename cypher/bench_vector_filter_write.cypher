// Bench data for `python -m bench vector-filter`: one batch of synthetic vector nodes (no claims,
// no turns: only what a workspace-filtered vector search reads).
// Parameters: $rows (list of {id, workspace, embedding})
// Returns: written
UNWIND $rows AS row
CREATE (:BenchVector {id: row.id, workspace: row.workspace, embedding: row.embedding})
RETURN count(*) AS written
