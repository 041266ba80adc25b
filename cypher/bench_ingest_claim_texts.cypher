// Benchmark floor (bench/ingest.py, never donto itself): the texts the claim embedder encodes for a
// workspace's claims (claims_pending_embedding's text of a claim), so the bench can time the model's
// raw encode of the same texts beside the embedder's catch-up.
// Parameters: $workspace, $limit (integer)
// Returns: text
MATCH (c:Claim {workspace: $workspace})
WITH c LIMIT $limit
RETURN coalesce(c.text, c.subject + ' ' + c.predicate + ' ' + coalesce(c.object, ''), '') AS text
