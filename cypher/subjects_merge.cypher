// Merges a duplicate subject into a primary, reversibly: every observation about the duplicate
// becomes ABOUT the primary too, every understanding of it UNDERSTANDS the primary too (edges marked
// with the merge id, so an unmerge removes exactly those), the primary answers to the duplicate's
// name and aliases, and the duplicate is relabelled (:MergedSubject) with a MERGED_INTO edge: it
// leaves every list, search and intersection.
// Parameters: $workspace, $primary_id, $duplicate_id, $merge_id, $alias_keys (keys added to the primary),
//   $aliases (names added), $recorded_at (datetime)
// Returns: moved (edges added), primary (name), duplicate (name)
MATCH (p:Subject {id: $primary_id}) WHERE p.workspace = $workspace
MATCH (d:Subject {id: $duplicate_id}) WHERE d.workspace = $workspace
CALL (p, d) {
  MATCH (o:Observation)-[:ABOUT]->(d)
  WHERE NOT (o)-[:ABOUT]->(p)
  CREATE (o)-[:ABOUT {mergeId: $merge_id}]->(p)
  RETURN count(o) AS observations
}
CALL (p, d) {
  MATCH (u:Understanding)-[:UNDERSTANDS]->(d)
  WHERE NOT (u)-[:UNDERSTANDS]->(p)
  CREATE (u)-[:UNDERSTANDS {mergeId: $merge_id}]->(p)
  RETURN count(u) AS understandings
}
SET p.aliases = coalesce(p.aliases, []) + $aliases, p.aliasKeys = coalesce(p.aliasKeys, []) + $alias_keys,
    p.version = p.version + 1, p.updatedAt = $recorded_at
REMOVE d:Subject
SET d:MergedSubject, d.mergeId = $merge_id, d.mergedAliases = $aliases, d.mergedAliasKeys = $alias_keys,
    d.mergedAt = $recorded_at
CREATE (d)-[:MERGED_INTO {mergeId: $merge_id, at: $recorded_at}]->(p)
RETURN observations + understandings AS moved, p.name AS primary, d.name AS duplicate
