// The active understandings about ALL the given subjects (an intersection's understandings when
// two or more are given), optionally of some kinds, newest first.
// Parameters: $workspace, $subject_ids (list of distinct ids), $kinds (list of kinds, empty: any), $limit
// Returns: id, kind, text, summary, generation, createdAt, sessionId, modelTier, subjects, useful, questionable
UNWIND $subject_ids AS sid
MATCH (s:Subject {id: sid})<-[:UNDERSTANDS]-(u:Understanding)
WHERE s.workspace = $workspace AND NOT (u)-[:SUPERSEDED_BY]->() AND (size($kinds) = 0 OR u.kind IN $kinds)
WITH u, count(DISTINCT s) AS matched
WHERE matched = size($subject_ids)
RETURN u.id AS id, u.kind AS kind, u.text AS text, u.summary AS summary, u.generation AS generation,
       u.createdAt AS createdAt, u.sessionId AS sessionId, u.modelTier AS modelTier,
       COLLECT { MATCH (u)-[:UNDERSTANDS]->(t:Subject) RETURN t.name ORDER BY t.name } AS subjects,
       COUNT { (:UtilitySignal {signal: 'useful'})-[:SIGNALS]->(u) } AS useful,
       COUNT { (:UtilitySignal {signal: 'questionable'})-[:SIGNALS]->(u) } AS questionable
ORDER BY u.createdAt DESC
LIMIT $limit
