// Consolidation report: subject pairs whose intersection gained observations in the current
// generation (linear in what changed, not quadratic in subjects), with the intersection's size
// and its active relationship understanding if one exists. Pairs of one new observation are kept:
// whether an intersection is trivial is the agent's judgement.
// Parameters: $workspace, $generation, $limit
// Returns: a, b (names), newCount, size, understandingId, understandingSummary
MATCH (a:Subject)<-[:ABOUT]-(o:Observation {workspace: $workspace, generation: $generation})-[:ABOUT]->(b:Subject)
WHERE a.name < b.name
WITH a, b, count(o) AS newCount
WITH a, b, newCount, COUNT { (a)<-[:ABOUT]-(:Observation)-[:ABOUT]->(b) } AS size
OPTIONAL CALL (a, b) {
  MATCH (a)<-[:UNDERSTANDS]-(u:Understanding {kind: 'relationship'})-[:UNDERSTANDS]->(b)
  WHERE NOT (u)-[:SUPERSEDED_BY]->()
  RETURN u ORDER BY u.createdAt DESC LIMIT 1
}
RETURN a.name AS a, b.name AS b, newCount, size, u.id AS understandingId, u.summary AS understandingSummary
ORDER BY newCount DESC, size DESC, a, b
LIMIT $limit
