// Stores claim embeddings and takes the claims off the embedding queue; a claim's first embedding
// also brings it into recall's full-text index (:Searchable, schema version 9), so that Lucene's work
// on it is done here, in the background, not in the write that made it.
// Parameters: $rows (list of {id, embedding})
// Returns: embedded (count)
UNWIND $rows AS row
MATCH (c:Claim {id: row.id})
SET c.embedding = row.embedding, c:Searchable
REMOVE c:PendingEmbedding
RETURN count(c) AS embedded
