// Subjects of a workspace named by id or by name, in the order asked; a ref that names none is
// left out (the service reports it).
// Parameters: $workspace, $refs (list of ids or names)
// Returns: ref, id, name, summary, tags, createdAt, version, observations
UNWIND $refs AS ref
CALL (ref) {
  MATCH (s:Subject {id: ref}) WHERE s.workspace = $workspace RETURN s
  UNION
  MATCH (s:Subject {workspace: $workspace, name: ref}) RETURN s
}
RETURN ref, s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, s.createdAt AS createdAt,
       s.version AS version, COUNT { (:Observation)-[:ABOUT]->(s) } AS observations
