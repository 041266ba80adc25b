// Stores new embeddings of turns (and their exchanges) and of their passages, and gives each
// passage its turn's speaker (the full-text index searches it).
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
WITH t
CALL (t) {
  MATCH (t)-[:HAS_PASSAGE]->(p:Passage)
  SET p.speaker = t.speaker
}
RETURN count(t) AS turns
