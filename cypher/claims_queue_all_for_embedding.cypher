// Puts every claim back on the embedding queue (after the embedding model changed).
// Parameters: none
// Returns: queued (count)
MATCH (c:Claim)
SET c:PendingEmbedding
RETURN count(c) AS queued
