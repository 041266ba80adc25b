// What orient returns from the graph: the workspace's active soul, protocol and orientation
// understandings, how many observations of the current generation no active understanding covers
// (up to $cap: an orient stays cheap however much awaits consolidation),
// and which subjects got observations or understandings since the last consolidation.
// Parameters: $workspace, $generation (the current one), $since (datetime or null: never consolidated),
//   $cap (count pending observations up to this many)
// Returns: pointers (list of {kind, id, text, summary, createdAt}), pending, newObservations (subject
//   names), newUnderstandings (subject names)
CALL () {
  MATCH (u:Understanding)
  WHERE u.workspace = $workspace AND u.kind IN ['soul', 'protocol', 'orientation'] AND NOT (u)-[:SUPERSEDED_BY]->()
  WITH u ORDER BY u.createdAt DESC
  WITH u.kind AS kind, collect(u)[0] AS u
  RETURN collect(u {kind: kind, .id, .text, .summary, .createdAt}) AS pointers
}
CALL () {
  MATCH (o:Observation {workspace: $workspace, generation: $generation})
  WHERE o.id IS NOT NULL AND NOT EXISTS { (o)-[:RELATED_TO]->(u:Understanding) WHERE NOT (u)-[:SUPERSEDED_BY]->() }
    AND NOT EXISTS { (u:Understanding)-[:SOURCED_FROM]->(o) WHERE NOT (u)-[:SUPERSEDED_BY]->() }
    AND NOT EXISTS { MATCH (o)-[:ABOUT]->(:Subject)<-[:UNDERSTANDS]-(u:Understanding)
                     WHERE u.createdAt > o.createdAt AND NOT (u)-[:SUPERSEDED_BY]->()
                       AND NOT EXISTS { MATCH (o)-[:ABOUT]->(s:Subject) WHERE NOT (u)-[:UNDERSTANDS]->(s) }
                       AND NOT EXISTS { MATCH (u)-[:UNDERSTANDS]->(s:Subject) WHERE NOT (o)-[:ABOUT]->(s) } }
  WITH o LIMIT $cap
  RETURN count(o) AS pending
}
CALL () {
  // since the last consolidation = the current generation, read from its index
  MATCH (o:Observation {workspace: $workspace, generation: $generation})-[:ABOUT]->(s:Subject)
  WHERE o.id IS NOT NULL
  RETURN collect(DISTINCT s.name) AS newObservations
}
CALL () {
  MATCH (u:Understanding)-[:UNDERSTANDS]->(s:Subject)
  WHERE u.workspace = $workspace AND u.kind IS NOT NULL AND ($since IS NULL OR u.createdAt > $since)
  RETURN collect(DISTINCT s.name) AS newUnderstandings
}
RETURN pointers, pending, newObservations, newUnderstandings
