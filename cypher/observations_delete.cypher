// Deletes observations written in the given session (a correction in the same conversation),
// with their perspective vectors; others are left and reported by the service.
// Parameters: $workspace, $ids (list), $session
// Returns: id, found (boolean), sessionId (the observation's, null if none), deleted (boolean)
UNWIND $ids AS id
OPTIONAL MATCH (o:Observation {id: id}) WHERE o.workspace = $workspace
WITH id, o, o IS NOT NULL AS found, o.sessionId AS sessionId
WITH id, o, found, sessionId, found AND sessionId = $session AS deletable
CALL (o, deletable) {
  WITH o WHERE deletable
  CALL (o) { MATCH (v:PerspectiveVector)-[:EMBEDS]->(o) DETACH DELETE v }
  DETACH DELETE o
}
RETURN id, found, sessionId, deletable AS deleted
