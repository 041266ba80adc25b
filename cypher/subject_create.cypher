// Creates a subject, unless the workspace already has one by that name (then `created` is false
// and the existing one comes back: the service answers 409). The embedding is of the subject's
// name and summary (general perspective), for find_similar_subjects and open_around.
// Parameters: $workspace, $id, $name, $summary (string or null), $tags (list of strings),
//   $aliases (list of strings), $alias_keys (lower-cased name and aliases), $embedding (list of floats),
//   $model (embedding model name), $session (string or null), $recorded_at (datetime)
// Returns: id, name, summary, tags, aliases, createdAt, updatedAt, version, observations, created
MERGE (s:Subject {workspace: $workspace, name: $name})
  ON CREATE SET s.id = $id, s.summary = $summary, s.tags = $tags, s.aliases = $aliases, s.aliasKeys = $alias_keys,
                s.embedding = $embedding, s.embeddingModel = $model, s.sessionId = $session,
                s.createdAt = $recorded_at, s.updatedAt = $recorded_at, s.version = 1
WITH s, s.id = $id AS created
RETURN s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, coalesce(s.aliases, []) AS aliases,
       s.createdAt AS createdAt, coalesce(s.updatedAt, s.createdAt) AS updatedAt, s.version AS version,
       COUNT { (s)<-[:ABOUT]-() } AS observations, created
