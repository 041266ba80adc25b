// Benchmark bulk load (bench/memory.py, never donto itself): synthetic observations with the
// properties and edges observation_append and perspective_vectors_write make, a batch per call:
// ABOUT their subjects, and one (:PerspectiveVector) per perspective named, each a random unit
// vector of $dimensions (random directions, not the model's: embedding a million texts is too slow).
// Parameters: $workspace, $model (embedding model name), $dimensions,
//   $rows (list of {id, text, contentHash, kind, generation, session, createdAt, subjects (ids), perspectives (names)})
// Returns: written (count)
UNWIND $rows AS row
CREATE (o:Observation {workspace: $workspace, id: row.id, text: row.text, contentHash: row.contentHash,
                       kind: row.kind, confidence: 1.0, observedAt: row.createdAt, generation: row.generation,
                       sessionId: row.session, createdAt: row.createdAt})
WITH o, row
CALL (o, row) {
  UNWIND row.subjects AS sid
  MATCH (s:Subject {id: sid})
  CREATE (o)-[:ABOUT]->(s)
}
CALL (o, row) {
  UNWIND row.perspectives AS perspective
  WITH perspective, [i IN range(1, $dimensions) | rand() - 0.5] AS raw
  WITH perspective, raw, sqrt(reduce(sum = 0.0, x IN raw | sum + x * x)) AS norm
  CREATE (:PerspectiveVector {workspace: $workspace, targetId: o.id, perspective: perspective, model: $model,
                              embedding: [x IN raw | x / norm]})-[:EMBEDS]->(o)
}
RETURN count(o) AS written
