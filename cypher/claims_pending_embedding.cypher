// Claims written but not yet embedded (label :PendingEmbedding, a durable queue in the graph),
// optionally of one workspace; the embedder drains them in batches.
// Parameters: $workspace (or null for every workspace), $limit (integer)
// Returns: id, text
MATCH (c:PendingEmbedding)
WHERE $workspace IS NULL OR c.workspace = $workspace
RETURN c.id AS id, c.text AS text
LIMIT $limit
