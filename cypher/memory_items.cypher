// Observations and active understandings by id, with what the retrieval penalty weighs: whether an
// active understanding covers an observation, its confidence, utility signals, and when it was
// last reinforced (written, marked useful, or surfaced in a session). Optionally only items about
// all of the given subjects.
// Parameters: $workspace, $ids (list), $subject_ids (list, empty: any)
// Returns: id, source ('observation' | 'understanding'), kind, text, summary, generation, createdAt,
//   observedAt, sessionId, modelTier, confidence, subjects, covered, useful, questionable, reinforcedAt
UNWIND $ids AS id
MATCH (n:Observation|Understanding {id: id})
WHERE n.workspace = $workspace AND NOT (n)-[:SUPERSEDED_BY]->()
  AND ALL(sid IN $subject_ids WHERE EXISTS { (n)-[:ABOUT|UNDERSTANDS]->(:Subject {id: sid}) })
WITH n, n:Understanding AS isUnderstanding
RETURN n.id AS id, CASE WHEN isUnderstanding THEN 'understanding' ELSE 'observation' END AS source,
       n.kind AS kind, n.text AS text, n.summary AS summary, n.generation AS generation, n.createdAt AS createdAt,
       n.observedAt AS observedAt, n.sessionId AS sessionId, n.modelTier AS modelTier, n.confidence AS confidence,
       COLLECT { MATCH (n)-[:ABOUT|UNDERSTANDS]->(s:Subject) RETURN s.name ORDER BY s.name } AS subjects,
       NOT isUnderstanding AND (
         EXISTS { (n)-[:RELATED_TO]->(u:Understanding) WHERE NOT (u)-[:SUPERSEDED_BY]->() }
         OR EXISTS { (u:Understanding)-[:SOURCED_FROM]->(n) WHERE NOT (u)-[:SUPERSEDED_BY]->() }
         OR EXISTS { MATCH (n)-[:ABOUT]->(:Subject)<-[:UNDERSTANDS]-(u:Understanding)
                     WHERE u.createdAt > n.createdAt AND NOT (u)-[:SUPERSEDED_BY]->()
                       AND NOT EXISTS { MATCH (n)-[:ABOUT]->(s:Subject) WHERE NOT (u)-[:UNDERSTANDS]->(s) }
                       AND NOT EXISTS { MATCH (u)-[:UNDERSTANDS]->(s:Subject) WHERE NOT (n)-[:ABOUT]->(s) } }
       ) AS covered,
       COUNT { (:UtilitySignal {signal: 'useful'})-[:SIGNALS]->(n) } AS useful,
       COUNT { (:UtilitySignal {signal: 'questionable'})-[:SIGNALS]->(n) } AS questionable,
       reduce(latest = n.createdAt, t IN
         COLLECT { MATCH (sig:UtilitySignal {signal: 'useful'})-[:SIGNALS]->(n) RETURN sig.createdAt } +
         COLLECT { MATCH (:MemorySession)-[m:SURFACED]->(n) RETURN m.at }
         | CASE WHEN t > latest THEN t ELSE latest END) AS reinforcedAt
