// The subjects of a workspace, with how many observations each has.
// Parameters: $workspace, $limit
// Returns: id, name, summary, tags, aliases, createdAt, updatedAt, version, observations — ordered by name
MATCH (s:Subject)
WHERE s.workspace = $workspace
RETURN s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, coalesce(s.aliases, []) AS aliases,
       s.createdAt AS createdAt, coalesce(s.updatedAt, s.createdAt) AS updatedAt, s.version AS version,
       COUNT { (s)<-[:ABOUT]-() } AS observations
ORDER BY name
LIMIT $limit
