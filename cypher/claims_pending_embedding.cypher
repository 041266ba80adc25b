// Claims and document passages written but not yet embedded (label :PendingEmbedding, a durable
// queue in the graph), optionally of one workspace; the embedder drains them in batches. A claim
// without its one-line text (made by hand in the Browser, say) is embedded as subject, predicate
// and object, so that it cannot stop the queue for every workspace.
// Parameters: $workspace (or null for every workspace), $limit (integer)
// Returns: id, kind ('claim' | 'passage'), text
MATCH (c:PendingEmbedding)
WHERE $workspace IS NULL OR c.workspace = $workspace
RETURN c.id AS id, CASE WHEN c:Passage THEN 'passage' ELSE 'claim' END AS kind,
       coalesce(c.text, c.subject + ' ' + c.predicate + ' ' + coalesce(c.object, ''), '') AS text
LIMIT $limit
