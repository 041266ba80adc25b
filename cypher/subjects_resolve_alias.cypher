// Subjects of a workspace named by a name or alias in any letter case (toLower(trim(ref)) among
// its aliasKeys), for the refs subjects_resolve found no id or name for; a ref that names none is
// left out (the service reports it). Reads every subject of the workspace: no index holds aliases.
// Parameters: $workspace, $refs (list of names or aliases)
// Returns: ref, id, name, summary, tags, aliases, createdAt, updatedAt, version, observations
UNWIND $refs AS ref
CALL (ref) {
  MATCH (s:Subject) WHERE s.workspace = $workspace AND toLower(trim(ref)) IN s.aliasKeys
  RETURN s LIMIT 1
}
RETURN ref, s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, coalesce(s.aliases, []) AS aliases,
       s.createdAt AS createdAt, coalesce(s.updatedAt, s.createdAt) AS updatedAt, s.version AS version,
       COUNT { (s)<-[:ABOUT]-() } AS observations
