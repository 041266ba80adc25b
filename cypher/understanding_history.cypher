// An understanding's supersession history: every understanding it revised (transitively) and every
// one that revised it, oldest first, with the SUPERSEDED_BY edges between them (a DAG: one revision
// may consolidate several understandings).
// Parameters: $workspace, $id
// Returns: versions (list of {id, kind, text, summary, generation, createdAt, sessionId, modelTier,
//   subjects (names), supersededBy (ids), active}),
//   edges (list of {from, to, at, reason})
MATCH (u:Understanding {id: $id}) WHERE u.workspace = $workspace
CALL (u) {
  MATCH (a:Understanding)-[:SUPERSEDED_BY*0..]->(u) RETURN a AS v
  UNION
  MATCH (u)-[:SUPERSEDED_BY*0..]->(d:Understanding) RETURN d AS v
}
WITH u, collect(DISTINCT v) AS versions
RETURN [v IN versions | v {.id, .kind, .text, .summary, .generation, .createdAt, .sessionId, .modelTier,
                           subjects: COLLECT { MATCH (v)-[:UNDERSTANDS]->(s:Subject) RETURN s.name ORDER BY s.name },
                           supersededBy: COLLECT { MATCH (v)-[:SUPERSEDED_BY]->(n:Understanding) RETURN n.id },
                           active: NOT EXISTS { (v)-[:SUPERSEDED_BY]->() }}] AS versions,
       COLLECT { UNWIND versions AS v MATCH (v)-[e:SUPERSEDED_BY]->(n:Understanding)
                 RETURN {from: v.id, to: n.id, at: e.at, reason: e.reason} AS edge } AS edges
