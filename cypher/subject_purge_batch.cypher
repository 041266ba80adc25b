// Physically deletes a batch of the claims about a subject: claims whose subject is $subject,
// and claims whose entity object is $subject, with their relationships (so their vector and
// full-text entries go too). Evidence spans that no remaining claim cites are deleted with
// them, and so are entities that no remaining claim names (the subject's own entity among
// them). Run until it deletes no claim.
// Parameters: $workspace, $subject, $limit (integer)
// Returns: claims, spans, entities (counts deleted)
CALL () {
  MATCH (c:Claim) WHERE c.workspace = $workspace AND c.subject = $subject AND c.predicate IS NOT NULL
  RETURN c
  UNION
  MATCH (c:Claim) WHERE c.workspace = $workspace AND c.object = $subject AND c.objectKind = 'entity'
  RETURN c
}
WITH c LIMIT $limit
WITH collect(c) AS claims
WITH claims,
     [c IN claims | [(c)-[:EVIDENCED_BY]->(s:Span) | s]] AS spanLists,
     [c IN claims | [(c)-[:SUBJECT|OBJECT]->(e:Entity) | e]] AS entityLists
FOREACH (c IN claims | DETACH DELETE c)
WITH size(claims) AS claims, spanLists, entityLists
CALL (spanLists) {
  UNWIND spanLists AS spans
  UNWIND spans AS s
  WITH DISTINCT s WHERE NOT EXISTS { (s)<-[:EVIDENCED_BY]-(:Claim) }
  DETACH DELETE s
  RETURN count(*) AS spans
}
CALL (entityLists) {
  UNWIND entityLists AS entities
  UNWIND entities AS e
  WITH DISTINCT e WHERE NOT EXISTS { (e)<-[:SUBJECT|OBJECT]-(:Claim) }
  DETACH DELETE e
  RETURN count(*) AS entities
}
CALL () {  // the subject's own entity, even when no claim was left to reach it by
  MATCH (e:Entity {workspace: $workspace, key: $subject})
  WHERE NOT EXISTS { (e)<-[:SUBJECT|OBJECT]-(:Claim) }
  DETACH DELETE e
  RETURN count(*) AS orphan
}
RETURN claims, spans, entities + orphan AS entities
