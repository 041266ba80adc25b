// Creates a subject, unless the workspace already has one by that name (then `created` is false
// and the existing one comes back: the service answers 409).
// Parameters: $workspace, $id, $name, $summary (string or null), $tags (list of strings), $recorded_at (datetime)
// Returns: id, name, summary, tags, createdAt, version, observations, created
MERGE (s:Subject {workspace: $workspace, name: $name})
  ON CREATE SET s.id = $id, s.summary = $summary, s.tags = $tags, s.createdAt = $recorded_at, s.version = 1
WITH s, s.id = $id AS created
RETURN s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, s.createdAt AS createdAt,
       s.version AS version, COUNT { (:Observation)-[:ABOUT]->(s) } AS observations, created
