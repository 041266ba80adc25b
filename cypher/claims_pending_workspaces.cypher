// Which workspaces have claims or document passages waiting for their embedding, and how many: the background
// embedder takes one batch from each in turn, so one workspace's backlog never holds up another's.
// Parameters: none
// Returns: workspace, pending (count)
MATCH (c:PendingEmbedding)
RETURN c.workspace AS workspace, count(*) AS pending
ORDER BY workspace
