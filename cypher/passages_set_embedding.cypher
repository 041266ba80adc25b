// Stores document passages' embeddings and takes them off the embedding queue (the passages are in
// recall's full-text index from their write: only their vectors wait).
// Parameters: $rows (list of {id, embedding})
// Returns: embedded (count)
UNWIND $rows AS row
MATCH (p:Passage {id: row.id})
SET p.embedding = row.embedding
REMOVE p:PendingEmbedding
RETURN count(p) AS embedded
