// Appends to a workspace's memory event log: which verb wrote what, in which session.
// Parameters: $workspace, $id, $session, $operation, $detail (JSON text), $recorded_at (datetime)
// Returns: at
CREATE (e:MemoryEvent {id: $id, workspace: $workspace, sessionId: $session, operation: $operation, detail: $detail,
                       at: $recorded_at})
RETURN e.at AS at
