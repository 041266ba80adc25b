// A subject's neighbourhood: the other subjects it shares observations or understandings with,
// by the size of that intersection, with the cosine similarity of the two subjects' embeddings and
// the active relationship understanding about both, if one exists. Similarities here are cosines
// (-1..1): vector.similarity.cosine gives (1 + cos) / 2.
// Parameters: $workspace, $subject_id, $limit
// Returns: id, name, summary, intersection (count), similarity (float or null), understandingId, understandingSummary
MATCH (s:Subject {id: $subject_id}) WHERE s.workspace = $workspace
MATCH (s)<-[:ABOUT|UNDERSTANDS]-(n:Observation|Understanding)-[:ABOUT|UNDERSTANDS]->(other:Subject)
WHERE other <> s AND NOT (n)-[:SUPERSEDED_BY]->()
WITH s, other, count(DISTINCT n) AS intersection
ORDER BY intersection DESC, other.name
LIMIT $limit
OPTIONAL CALL (s, other) {
  MATCH (s)<-[:UNDERSTANDS]-(u:Understanding {kind: 'relationship'})-[:UNDERSTANDS]->(other)
  WHERE NOT (u)-[:SUPERSEDED_BY]->()
  RETURN u ORDER BY u.createdAt DESC LIMIT 1
}
RETURN other.id AS id, other.name AS name, other.summary AS summary, intersection,
       CASE WHEN s.embedding IS NULL OR other.embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(s.embedding, other.embedding) - 1 END AS similarity,
       u.id AS understandingId, u.summary AS understandingSummary
