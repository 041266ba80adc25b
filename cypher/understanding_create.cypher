// Writes an understanding that UNDERSTANDS subjects, SOURCED_FROM the observations it synthesizes, and makes
// the understandings it revises point to it by SUPERSEDED_BY (the service has checked that each is
// still active: a revision of a revision already made is a 409).
// Parameters: $workspace, $id, $kind, $text, $summary, $generation, $session, $model_tier,
//   $recorded_at (datetime), $subject_ids, $source_ids, $supersedes (list of ids), $reason
// Returns: id, kind, text, summary, generation, createdAt, sessionId, modelTier, subjects (names, sorted)
CREATE (u:Understanding {id: $id, workspace: $workspace, kind: $kind, text: $text, summary: $summary,
                         generation: $generation, sessionId: $session, modelTier: $model_tier, createdAt: $recorded_at})
WITH u
CALL (u) {
  UNWIND $subject_ids AS sid
  MATCH (s:Subject {id: sid}) WHERE s.workspace = $workspace
  MERGE (u)-[:UNDERSTANDS]->(s)
}
CALL (u) {
  UNWIND $source_ids AS oid
  MATCH (o:Observation {id: oid}) WHERE o.workspace = $workspace
  MERGE (u)-[:SOURCED_FROM]->(o)
}
CALL (u) {
  UNWIND $supersedes AS oldId
  MATCH (old:Understanding {id: oldId}) WHERE old.workspace = $workspace
  CREATE (old)-[:SUPERSEDED_BY {at: $recorded_at, reason: $reason}]->(u)
}
RETURN u.id AS id, u.kind AS kind, u.text AS text, u.summary AS summary, u.generation AS generation,
       u.createdAt AS createdAt, u.sessionId AS sessionId, u.modelTier AS modelTier,
       COLLECT { MATCH (u)-[:UNDERSTANDS]->(s:Subject) RETURN s.name ORDER BY s.name } AS subjects
