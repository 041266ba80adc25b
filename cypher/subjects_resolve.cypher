// Subjects of a workspace named by id, by name, or by a name or alias in any letter case, in the
// order asked; a ref that names none is left out (the service reports it).
// Parameters: $workspace, $refs (list of ids or names)
// Returns: ref, id, name, summary, tags, aliases, createdAt, updatedAt, version, observations
UNWIND $refs AS ref
CALL (ref) {
  CALL (ref) {
    MATCH (s:Subject {id: ref}) WHERE s.workspace = $workspace RETURN s, 0 AS rank
    UNION
    MATCH (s:Subject {workspace: $workspace, name: ref}) RETURN s, 1 AS rank
    UNION
    MATCH (s:Subject) WHERE s.workspace = $workspace AND toLower(trim(ref)) IN s.aliasKeys RETURN s, 2 AS rank
  }
  RETURN s ORDER BY rank LIMIT 1
}
RETURN ref, s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, coalesce(s.aliases, []) AS aliases,
       s.createdAt AS createdAt, coalesce(s.updatedAt, s.createdAt) AS updatedAt, s.version AS version,
       COUNT { (:Observation)-[:ABOUT]->(s) } AS observations
