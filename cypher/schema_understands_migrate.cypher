// Schema version 6's migration: a batch of a version 5 graph's (:Understanding)-[:ABOUT]->(:Subject)
// edges becomes (:Understanding)-[:UNDERSTANDS]->(:Subject), properties (a merge's mergeId) kept.
// GraphClient.apply_schema runs it until it moves none, so a large graph is migrated in transactions
// of $batch edges, and a graph already migrated costs one look at its understandings. Idempotent:
// MERGE never doubles an edge, and what a failed batch left is moved on the next start. The schema
// node's lock comes first, so two processes starting together (an API and a worker) take turns
// instead of both moving the same edges. Every workspace at once: the schema is the store's.
// Parameters: $batch (edges per transaction)
// Returns: migrated (edges moved)
MERGE (lock:DontoSchema {name: 'donto'})
SET lock.migrating = true
REMOVE lock.migrating
WITH lock
MATCH (u:Understanding)-[old:ABOUT]->(s)
USING SCAN u:Understanding  // not every observation's ABOUT edge: a migrated graph has far more of those
WITH u, old, s LIMIT $batch
MERGE (u)-[new:UNDERSTANDS]->(s)
SET new += properties(old)
DELETE old
RETURN count(*) AS migrated
