// Stores document passages' embeddings (of the passage, and of its context: the passage before it
// and itself) and takes them off the embedding queue (the passages are in recall's full-text index
// from their write: only their vectors wait).
// Parameters: $rows (list of {id, embedding, contextEmbedding})
// Returns: embedded (count)
UNWIND $rows AS row
MATCH (p:Passage {id: row.id})
SET p.embedding = row.embedding, p.contextEmbedding = row.contextEmbedding
REMOVE p:PendingEmbedding
RETURN count(p) AS embedded
