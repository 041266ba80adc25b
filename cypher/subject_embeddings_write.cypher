// Sets subjects' embeddings (name and summary) and the model that made them (`donto reembed`).
// Parameters: $model, $rows (list of {id, embedding})
// Returns: written (count)
UNWIND $rows AS row
MATCH (s:Subject {id: row.id})
SET s.embedding = row.embedding, s.embeddingModel = $model
RETURN count(s) AS written
