// A workspace's agent memory in numbers: subjects, observations, understandings (active and all),
// how many items have a vector from every perspective for the current model, and sessions.
// Parameters: $workspace, $model (embedding model name), $perspectives (count)
// Returns: subjects, merged, observations, understandings, activeUnderstandings, embedded, sessions,
//   signals, events
RETURN COUNT { MATCH (s:Subject) WHERE s.workspace = $workspace } AS subjects,
       COUNT { MATCH (s:MergedSubject) WHERE s.workspace = $workspace } AS merged,
       COUNT { MATCH (o:Observation) WHERE o.workspace = $workspace } AS observations,
       COUNT { MATCH (u:Understanding) WHERE u.workspace = $workspace } AS understandings,
       COUNT { MATCH (u:Understanding) WHERE u.workspace = $workspace AND NOT (u)-[:SUPERSEDED_BY]->() }
         AS activeUnderstandings,
       COUNT { MATCH (n:Observation|Understanding) WHERE n.workspace = $workspace
               AND NOT (n)-[:SUPERSEDED_BY]->()
               AND COUNT { (v:PerspectiveVector)-[:EMBEDS]->(n) WHERE v.model = $model } >= $perspectives } AS embedded,
       COUNT { MATCH (s:MemorySession) WHERE s.workspace = $workspace } AS sessions,
       COUNT { MATCH (s:UtilitySignal) WHERE s.workspace = $workspace } AS signals,
       COUNT { MATCH (e:MemoryEvent) WHERE e.workspace = $workspace } AS events
