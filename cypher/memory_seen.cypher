// The ids a session has been shown since its seen log was last reset.
// Parameters: $workspace, $session
// Returns: id
MATCH (s:MemorySession {workspace: $workspace, id: $session})-[:SURFACED]->(n)
RETURN n.id AS id
