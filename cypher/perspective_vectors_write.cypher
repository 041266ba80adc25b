// Stores the vectors of memory items, one per perspective: (:PerspectiveVector)-[:EMBEDS]->(item),
// replacing the one the same perspective held for the item before.
// Parameters: $workspace, $model (embedding model name), $rows (list of {targetId, perspective, embedding})
// Returns: written (count)
UNWIND $rows AS row
MATCH (t:Observation|Understanding {id: row.targetId}) WHERE t.workspace = $workspace
MERGE (v:PerspectiveVector {targetId: row.targetId, perspective: row.perspective})
  ON CREATE SET v.workspace = $workspace
SET v.embedding = row.embedding, v.model = $model
MERGE (v)-[:EMBEDS]->(t)
RETURN count(v) AS written
