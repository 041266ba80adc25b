// Consolidation report, per subject: subjects with observations newer than their active
// single-subject understanding (or with none yet), most new observations first.
// Parameters: $workspace, $limit
// Returns: name, observations, newer (observations since the understanding), generation (newest
//   observation's), understandingId, understandingSummary, understandingGeneration, understandingAt
MATCH (s:Subject) WHERE s.workspace = $workspace
OPTIONAL CALL (s) {
  MATCH (u:Understanding {kind: 'single_subject'})-[:UNDERSTANDS]->(s)
  WHERE NOT (u)-[:SUPERSEDED_BY]->()
  RETURN u ORDER BY u.createdAt DESC LIMIT 1
}
WITH s, u, COUNT { MATCH (o:Observation)-[:ABOUT]->(s) WHERE u IS NULL OR o.createdAt > u.createdAt } AS newer
WHERE newer > 0
WITH s, u, newer, COLLECT { MATCH (o:Observation)-[:ABOUT]->(s) RETURN o.generation AS g ORDER BY g DESC LIMIT 1 } AS newest
RETURN s.name AS name, COUNT { (s)<-[:ABOUT]-() } AS observations, newer, newest[0] AS generation,
       u.id AS understandingId, u.summary AS understandingSummary, u.generation AS understandingGeneration,
       u.createdAt AS understandingAt
ORDER BY newer DESC, name
LIMIT $limit
