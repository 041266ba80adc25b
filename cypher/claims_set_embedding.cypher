// Stores claim embeddings and takes the claims off the embedding queue.
// Parameters: $rows (list of {id, embedding})
// Returns: embedded (count)
UNWIND $rows AS row
MATCH (c:Claim {id: row.id})
SET c.embedding = row.embedding
REMOVE c:PendingEmbedding
RETURN count(c) AS embedded
