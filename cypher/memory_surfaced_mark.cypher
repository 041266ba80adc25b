// Records that a session was shown these items (bring_to_mind and recall leave them out next time).
// Parameters: $workspace, $session, $ids (list), $now (datetime)
// Returns: marked (count)
MERGE (s:MemorySession {workspace: $workspace, id: $session})
  ON CREATE SET s.startedAt = $now, s.lastSeenAt = $now
WITH s
UNWIND $ids AS id
MATCH (n:Observation|Understanding {id: id}) WHERE n.workspace = $workspace
MERGE (s)-[m:SURFACED]->(n)
SET m.at = $now
RETURN count(m) AS marked
