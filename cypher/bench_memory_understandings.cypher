// Benchmark bulk load (bench/memory.py, never donto itself): synthetic active understandings with
// the properties and edges understanding_create and perspective_vectors_write make: UNDERSTANDS
// their subjects, SOURCED_FROM observations, one random unit vector per perspective named.
// Parameters: $workspace, $model (embedding model name), $dimensions,
//   $rows (list of {id, kind, text, summary, generation, session, createdAt, subjects (ids),
//   sources (observation ids), perspectives (names)})
// Returns: written (count)
UNWIND $rows AS row
CREATE (u:Understanding {workspace: $workspace, id: row.id, kind: row.kind, text: row.text, summary: row.summary,
                         generation: row.generation, sessionId: row.session, createdAt: row.createdAt})
WITH u, row
CALL (u, row) {
  UNWIND row.subjects AS sid
  MATCH (s:Subject {id: sid})
  CREATE (u)-[:UNDERSTANDS]->(s)
}
CALL (u, row) {
  UNWIND row.sources AS oid
  MATCH (o:Observation {id: oid})
  CREATE (u)-[:SOURCED_FROM]->(o)
}
CALL (u, row) {
  UNWIND row.perspectives AS perspective
  WITH perspective, [i IN range(1, $dimensions) | rand() - 0.5] AS raw
  WITH perspective, raw, sqrt(reduce(sum = 0.0, x IN raw | sum + x * x)) AS norm
  CREATE (:PerspectiveVector {workspace: $workspace, targetId: u.id, perspective: perspective, model: $model,
                              embedding: [x IN raw | x / norm]})-[:EMBEDS]->(u)
}
RETURN count(u) AS written
