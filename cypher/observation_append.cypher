// Appends an observation, or finds the one with the same content hash in the workspace (then
// `created` is false), and tags it ABOUT the given subjects (tags only ever add).
// Parameters: $workspace, $id, $text, $content_hash, $generation, $recorded_at (datetime), $subject_ids (list)
// Returns: id, text, contentHash, generation, createdAt, created, subjects (names, sorted)
MERGE (o:Observation {workspace: $workspace, contentHash: $content_hash})
  ON CREATE SET o.id = $id, o.text = $text, o.generation = $generation, o.createdAt = $recorded_at
WITH o, o.id = $id AS created
OPTIONAL MATCH (s:Subject)
  WHERE s.id IN $subject_ids AND s.workspace = $workspace
WITH o, created, collect(s) AS tagged
FOREACH (s IN tagged | MERGE (o)-[:ABOUT]->(s))
WITH o, created
OPTIONAL MATCH (o)-[:ABOUT]->(t:Subject)
WITH o, created, t ORDER BY t.name
RETURN o.id AS id, o.text AS text, o.contentHash AS contentHash, o.generation AS generation,
       o.createdAt AS createdAt, created, collect(t.name) AS subjects
