// The subjects of a workspace, with how many observations each has; keyset-paginated by name (a
// name is one subject's in a workspace).
// Parameters: $workspace, $after (the name of the last subject handed out, or null: from the first),
//             $limit
// Returns: id, name, summary, tags, aliases, createdAt, updatedAt, version, observations — ordered by name
MATCH (s:Subject)
WHERE s.workspace = $workspace AND ($after IS NULL OR s.name > $after)
RETURN s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, coalesce(s.aliases, []) AS aliases,
       s.createdAt AS createdAt, coalesce(s.updatedAt, s.createdAt) AS updatedAt, s.version AS version,
       COUNT { (s)<-[:ABOUT]-() } AS observations
ORDER BY name
LIMIT $limit
