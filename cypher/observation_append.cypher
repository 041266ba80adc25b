// Appends an observation, or finds the one with the same content hash in the workspace (then
// `created` is false), and tags it ABOUT the given subjects (tags only ever add). It may be
// RELATED_TO understandings it is direct evidence for, and CITE claims and documents.
// Parameters: $workspace, $id, $text, $content_hash, $kind, $confidence, $observed_at (datetime),
//   $generation, $session, $model_tier, $recorded_at (datetime), $subject_ids, $related_ids, $cite_ids
// Returns: id, text, contentHash, kind, confidence, generation, observedAt, createdAt, sessionId,
//   created, subjects (names, sorted)
MERGE (o:Observation {workspace: $workspace, contentHash: $content_hash})
  ON CREATE SET o.id = $id, o.text = $text, o.kind = $kind, o.confidence = $confidence,
                o.observedAt = $observed_at, o.generation = $generation, o.sessionId = $session,
                o.modelTier = $model_tier, o.createdAt = $recorded_at
WITH o, o.id = $id AS created
CALL (o) {
  UNWIND $subject_ids AS sid
  MATCH (s:Subject {id: sid}) WHERE s.workspace = $workspace
  MERGE (o)-[:ABOUT]->(s)
}
CALL (o) {
  UNWIND $related_ids AS uid
  MATCH (u:Understanding {id: uid}) WHERE u.workspace = $workspace
  MERGE (o)-[:RELATED_TO]->(u)
}
CALL (o) {
  UNWIND $cite_ids AS cid
  MATCH (c:Claim|Document {id: cid}) WHERE c.workspace = $workspace
  MERGE (o)-[:CITES]->(c)
}
RETURN o.id AS id, o.text AS text, o.contentHash AS contentHash, o.kind AS kind, o.confidence AS confidence,
       o.generation AS generation, o.observedAt AS observedAt, o.createdAt AS createdAt, o.sessionId AS sessionId,
       created, COLLECT { MATCH (o)-[:ABOUT]->(t:Subject) RETURN t.name ORDER BY t.name } AS subjects
