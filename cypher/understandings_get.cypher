// Understandings by id, with their subjects, whether each is active, and what superseded it.
// Parameters: $workspace, $ids
// Returns: id, kind, text, summary, generation, createdAt, sessionId, modelTier, subjects, subjectIds,
//   supersededBy (ids), useful, questionable
UNWIND $ids AS id
MATCH (u:Understanding {id: id}) WHERE u.workspace = $workspace
RETURN u.id AS id, u.kind AS kind, u.text AS text, u.summary AS summary, u.generation AS generation,
       u.createdAt AS createdAt, u.sessionId AS sessionId, u.modelTier AS modelTier,
       COLLECT { MATCH (u)-[:UNDERSTANDS]->(s:Subject) RETURN s.name ORDER BY s.name } AS subjects,
       COLLECT { MATCH (u)-[:UNDERSTANDS]->(s:Subject) RETURN s.id ORDER BY s.name } AS subjectIds,
       COLLECT { MATCH (u)-[:SUPERSEDED_BY]->(n:Understanding) RETURN n.id } AS supersededBy,
       COUNT { (:UtilitySignal {signal: 'useful'})-[:SIGNALS]->(u) } AS useful,
       COUNT { (:UtilitySignal {signal: 'questionable'})-[:SIGNALS]->(u) } AS questionable
