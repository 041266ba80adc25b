// The claims beneath a subject: those its observations cite, and current claims whose subject or
// entity object is the subject's name or one of its aliases (an entity key, lower-cased).
// Parameters: $workspace, $subject_id, $keys (the subject's name and aliases, lower-cased), $limit
// Returns: id, subject, predicate, object, context (its modality; null: asserted), hypothesis
//          (boolean), validFrom, validTo, validWhen (words of a time donto could not resolve),
//          via ('cited' | 'named')
MATCH (s:Subject {id: $subject_id}) WHERE s.workspace = $workspace
CALL (s) {
  MATCH (s)<-[:ABOUT]-(:Observation)-[:CITES]->(c:Claim)
  RETURN c, 'cited' AS via
  UNION
  UNWIND $keys AS key
  MATCH (e:Entity {workspace: $workspace, key: key})<-[:SUBJECT|OBJECT]-(c:Claim)
  WHERE c.txTo IS NULL
  RETURN c, 'named' AS via
}
WITH c, collect(via)[0] AS via
RETURN c.id AS id, c.subject AS subject, c.predicate AS predicate, c.object AS object,
       c.context AS context, c.hypothesis IS NOT NULL AS hypothesis,
       c.validFrom AS validFrom, c.validTo AS validTo, c.validWhen AS validWhen, via
ORDER BY c.txFrom DESC
LIMIT $limit
