// Consolidation report: observations nothing has placed yet — not related_to an active
// understanding, not a source of one, and not covered by an active understanding about exactly
// its subjects written after it. Oldest first: the longest waiting.
// Parameters: $workspace, $limit
// Returns: id, text, subjects, generation, createdAt
MATCH (o:Observation) WHERE o.workspace = $workspace
  AND NOT EXISTS { (o)-[:RELATED_TO]->(u:Understanding) WHERE NOT (u)-[:SUPERSEDED_BY]->() }
  AND NOT EXISTS { (u:Understanding)-[:SOURCED_FROM]->(o) WHERE NOT (u)-[:SUPERSEDED_BY]->() }
  AND NOT EXISTS { MATCH (o)-[:ABOUT]->(:Subject)<-[:UNDERSTANDS]-(u:Understanding)
                   WHERE u.createdAt > o.createdAt AND NOT (u)-[:SUPERSEDED_BY]->()
                     AND NOT EXISTS { MATCH (o)-[:ABOUT]->(s:Subject) WHERE NOT (u)-[:UNDERSTANDS]->(s) }
                       AND NOT EXISTS { MATCH (u)-[:UNDERSTANDS]->(s:Subject) WHERE NOT (o)-[:ABOUT]->(s) } }
RETURN o.id AS id, o.text AS text, COLLECT { MATCH (o)-[:ABOUT]->(s:Subject) RETURN s.name ORDER BY s.name } AS subjects,
       o.generation AS generation, o.createdAt AS createdAt
ORDER BY o.createdAt, o.id
LIMIT $limit
