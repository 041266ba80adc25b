// A workspace's settings; no row for a workspace that never set any (its defaults apply).
// Parameters: $workspace
// Returns: extractSessions (boolean or null), updatedAt
MATCH (w:Workspace {name: $workspace})
RETURN w.extractSessions AS extractSessions, w.updatedAt AS updatedAt
