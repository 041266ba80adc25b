// Sets a workspace's settings (the node is made on first use).
// Parameters: $workspace, $extract_sessions (boolean), $now (datetime)
// Returns: extractSessions, updatedAt
MERGE (w:Workspace {name: $workspace})
SET w.extractSessions = $extract_sessions, w.updatedAt = $now
RETURN w.extractSessions AS extractSessions, w.updatedAt AS updatedAt
