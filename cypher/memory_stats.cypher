// A workspace's memory in numbers: conversations kept (sessions: what add_turns wrote), and the curated
// memory's subjects, observations, understandings (active and all), how many items have a vector from
// every perspective for the current model, and the agent sessions that used it (X-Donto-Session).
// Parameters: $workspace, $model (embedding model name), $perspectives (count)
// Returns: subjects, merged, observations, understandings, activeUnderstandings, embedded, sessions,
//   agentSessions, signals, events
CALL () {
  CALL () {
    MATCH (n:Observation) WHERE n.workspace = $workspace RETURN n
    UNION ALL
    MATCH (n:Understanding) WHERE n.workspace = $workspace AND n.kind IS NOT NULL RETURN n
  }
  WITH n WHERE NOT (n)-[:SUPERSEDED_BY]->()
    AND COUNT { (v:PerspectiveVector)-[:EMBEDS]->(n) WHERE v.model = $model } >= $perspectives
  RETURN count(n) AS embedded
}
RETURN COUNT { MATCH (s:Subject) WHERE s.workspace = $workspace } AS subjects,
       COUNT { MATCH (s:MergedSubject) WHERE s.workspace = $workspace } AS merged,
       COUNT { MATCH (o:Observation) WHERE o.workspace = $workspace } AS observations,
       COUNT { MATCH (u:Understanding) WHERE u.workspace = $workspace AND u.kind IS NOT NULL } AS understandings,
       COUNT { MATCH (u:Understanding) WHERE u.workspace = $workspace AND u.kind IS NOT NULL
               AND NOT (u)-[:SUPERSEDED_BY]->() } AS activeUnderstandings,
       embedded,
       COUNT { MATCH (s:Session) WHERE s.workspace = $workspace AND s.externalId IS NOT NULL } AS sessions,
       COUNT { MATCH (s:MemorySession) WHERE s.workspace = $workspace AND s.id IS NOT NULL } AS agentSessions,
       COUNT { MATCH (s:UtilitySignal) WHERE s.workspace = $workspace AND s.signal IS NOT NULL } AS signals,
       COUNT { MATCH (e:MemoryEvent) WHERE e.workspace = $workspace AND e.at IS NOT NULL } AS events
