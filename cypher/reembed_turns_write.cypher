// Stores new embeddings of turns (and their exchanges) and of their passages.
// Parameters: $turns (list of {id, embedding, contextEmbedding}), $passages (list of {id, embedding})
// Returns: turns (count written)
CALL () {
  UNWIND $passages AS row
  MATCH (p:Passage {id: row.id})
  SET p.embedding = row.embedding
}
UNWIND $turns AS row
MATCH (t:Turn {id: row.id})
SET t.embedding = row.embedding, t.contextEmbedding = row.contextEmbedding
RETURN count(t) AS turns
