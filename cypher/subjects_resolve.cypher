// Subjects of a workspace named by id or by name, in the order asked; a ref that names neither is
// left out (the service then asks subjects_resolve_alias, so the aliases, which no index holds,
// are read only for such refs). observations: ABOUT is the observations' edge alone, so its
// degree counts them.
// Parameters: $workspace, $refs (list of ids or names)
// Returns: ref, id, name, summary, tags, aliases, createdAt, updatedAt, version, observations
UNWIND $refs AS ref
OPTIONAL MATCH (byId:Subject {id: ref}) WHERE byId.workspace = $workspace
OPTIONAL MATCH (byName:Subject {workspace: $workspace, name: ref})
WITH ref, coalesce(byId, byName) AS s
WHERE s IS NOT NULL
RETURN ref, s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, coalesce(s.aliases, []) AS aliases,
       s.createdAt AS createdAt, coalesce(s.updatedAt, s.createdAt) AS updatedAt, s.version AS version,
       COUNT { (s)<-[:ABOUT]-() } AS observations
