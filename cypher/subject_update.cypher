// Changes a subject's summary, tags and aliases (a new version; the service has checked the
// version the caller read). The embedding follows the summary.
// Parameters: $workspace, $id, $summary, $tags, $aliases, $alias_keys, $embedding, $model, $recorded_at
// Returns: id, name, summary, tags, aliases, createdAt, updatedAt, version, observations
MATCH (s:Subject {id: $id}) WHERE s.workspace = $workspace
SET s.summary = $summary, s.tags = $tags, s.aliases = $aliases, s.aliasKeys = $alias_keys,
    s.embedding = $embedding, s.embeddingModel = $model, s.updatedAt = $recorded_at, s.version = s.version + 1
RETURN s.id AS id, s.name AS name, s.summary AS summary, s.tags AS tags, s.aliases AS aliases,
       s.createdAt AS createdAt, s.updatedAt AS updatedAt, s.version AS version,
       COUNT { (s)<-[:ABOUT]-() } AS observations
